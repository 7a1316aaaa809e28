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

    /** The intro line of a markdown {@link #rewrite} wrote. */
    static final String REWRITTEN = "Tables: written anew from the CSV by `./lab report`, with the report code of the"
            + " commit that holds this file (the run's own tables came from the code of its day)";

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

    /**
     * A committed result's markdown as today's table code renders it from its CSV ({@code ./lab report}), keeping
     * what the CSV does not hold, read from the old markdown: the title, the intro (command, machine, load average,
     * target, forks, notes), an interruption, each block's knobs header (main-service's JVM as it reported itself:
     * collectors, heap, carriers) and its chart links.
     *
     * @param markdown the result's markdown as a run (or an earlier rewrite) wrote it
     * @throws IllegalArgumentException when {@code markdown} is not a {@code ./lab bench} report (no {@code # } title
     *                                  on its first line)
     */
    public static String rewrite(String markdown, List<CellResult> results) {
        List<String> lines = markdown.lines().toList();
        if (lines.isEmpty() || !lines.getFirst().startsWith("# ")) {
            throw new IllegalArgumentException("not a ./lab bench report (its first line is no '# ' title)");
        }
        List<String> intro = new ArrayList<>(lines.stream().skip(2).takeWhile(line -> !line.isBlank())
                .map(line -> line.endsWith("  ") ? line.substring(0, line.length() - 2) : line).toList());
        if (!intro.contains(REWRITTEN)) {
            intro.add(REWRITTEN);
        }
        Map<String, List<String>> charts = new LinkedHashMap<>();
        String block = null;
        for (String line : lines) {
            if (line.startsWith("## ")) {
                block = line.substring(3).strip();
            } else if (block != null && line.startsWith("![")) {
                charts.computeIfAbsent(block, b -> new ArrayList<>())
                        .add(line.substring(line.indexOf("](") + 2, line.lastIndexOf(')')));
            }
        }
        String rendered = ResultsMarkdown.render(lines.getFirst().substring(2), intro, results, charts,
                markdown.contains(ResultsMarkdown.INTERRUPTED));
        for (String name : blocks(lines)) {
            String old = header(markdown, name);
            String now = header(rendered, name);
            if (old != null && now != null) {
                rendered = rendered.replace(now, old);
            }
        }
        return rendered;
    }

    private static List<String> blocks(List<String> lines) {
        return lines.stream().filter(line -> line.startsWith("## ")).map(line -> line.substring(3).strip()).toList();
    }

    /** @return block {@code name}'s heading with its fenced knobs header, or null when the markdown has none */
    private static String header(String markdown, String name) {
        int start = markdown.indexOf("\n## " + name + "\n\n```\n");
        int end = start < 0 ? -1 : markdown.indexOf("```\n", markdown.indexOf("```\n", start) + 4);
        return end < 0 ? null : markdown.substring(start, end + 4);
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
