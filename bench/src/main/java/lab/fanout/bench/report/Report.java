package lab.fanout.bench.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import lab.fanout.bench.model.CellResult;
import lab.fanout.bench.model.Deployment;

/**
 * A run's report from its results alone: {@code results.md} with each block's charts, also for a run stopped by an
 * error or Ctrl-C ({@code results.csv} is appended cell by cell by {@link ResultsCsv}).
 */
public final class Report {

    private Report() {
    }

    /**
     * Draws the charts, then writes {@code results.md}; a chart that cannot be drawn is named in the intro, since the
     * tables and the CSV matter more than the pictures.
     *
     * @param intro lines under the title: command, machine, load average, target and drivers
     * @throws UncheckedIOException when results.md cannot be written
     */
    public static void write(Path dir, String title, List<String> intro, List<CellResult> results,
                             boolean interrupted) {
        Map<String, List<String>> charts = new LinkedHashMap<>();
        List<String> lines = new ArrayList<>(intro);
        try {
            results.stream()
                    .collect(Collectors.groupingBy(r -> r.cell().block(), LinkedHashMap::new, Collectors.toList()))
                    .forEach((block, cells) -> charts.put(block, new ArrayList<>(Charts.write(dir, block, cells))));
            // the coordinated-omission picture, under the first open-model block
            Charts.openVsClosed(dir, results).ifPresent(png -> results.stream()
                    .filter(r -> r.cell().ratePerSecond() != null)
                    .findFirst().ifPresent(r -> charts.get(r.cell().block()).add(png)));
        } catch (RuntimeException e) {
            lines.add("Charts could not be drawn: " + e);
        }
        try {
            Files.writeString(dir.resolve("results.md"),
                    ResultsMarkdown.render(title, lines, results, charts, interrupted));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + dir.resolve("results.md"), e);
        }
    }

    /** @return e.g. {@code hey (closed loop), vegeta (open model: ...)}: the drivers the cells used */
    public static String drivers(List<CellResult> results, String closedLoop) {
        boolean open = results.stream().anyMatch(r -> r.cell().ratePerSecond() != null);
        boolean closed = results.isEmpty() || results.stream().anyMatch(r -> r.cell().ratePerSecond() == null);
        return (closed ? closedLoop + " (closed loop)" : "") + (open && closed ? ", " : "")
                + (open ? "vegeta (open model: constant arrival rate, latency from each request's due time)" : "");
    }

    /**
     * @return one {@code main_service_jvm:} line per distinct JVM main-service ran with in {@code results} (as it
     *         reported itself at /actuator/info), naming the blocks that used it
     */
    public static List<String> mainServiceJvms(List<CellResult> results) {
        Map<String, List<String>> lines = new LinkedHashMap<>();
        for (CellResult r : results) {
            Deployment d = r.deployment();
            String line = String.format(Locale.ROOT,
                    "options: %s; commonPoolParallelism: %d; carriers: %s; gc: %s; cores: %d",
                    d.jvm().optionsText(), d.parallelism(), d.jvm().carriers(), d.jvm().collectorAndHeap(), d.cores());
            List<String> in = lines.computeIfAbsent(line, k -> new ArrayList<>());
            if (!in.contains(r.cell().block())) {
                in.add(r.cell().block());
            }
        }
        List<String> out = new ArrayList<>();
        lines.forEach((line, in) -> out.add("main_service_jvm: " + line + " (blocks: " + String.join(", ", in) + ")"));
        return out;
    }
}
