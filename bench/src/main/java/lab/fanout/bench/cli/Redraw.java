package lab.fanout.bench.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

import lab.fanout.bench.model.CellResult;
import lab.fanout.bench.overload.OverloadPreset;
import lab.fanout.bench.report.Charts;
import lab.fanout.bench.report.ResultsJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ./lab charts RESULT}: a result's charts drawn anew from its results.json ({@link ResultsJson#cells}), or the
 * overload preset's from its overload.csv.
 */
@Command(name = "charts", mixinStandardHelpOptions = true,
        description = {"Draws a ./lab bench result's charts anew from its results.json, with today's chart code, as a"
                + " run would draw them now: throughput and bound, latency percentiles, efficiency, memory; or the"
                + " overload preset's from its overload.csv: goodput and admitted p99 against offered load.",
                "Not drawn: the open-vs-closed picture (it needs each closed cell's clients"
                        + " ceiling, not in a migrated result)."},
        footer = {"", "Examples:", "  ./lab charts results/20261126-120000      (into that folder)",
                "  ./lab charts docs/results/scale-forks5-20261126.json --out /tmp/scale",
                "  ./lab charts docs/results/overload-virtual-forks3-20261127.csv --out /tmp/overload"})
final class Redraw implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "RESULT", description = "results folder (with results.json or overload.csv),"
            + " a committed NAME.json, or an overload CSV")
    Path result;

    @Option(names = "--out", paramLabel = "DIR", description = "where the PNGs go, named <block>-<chart>.png"
            + " (default: the results folder; needed for a CSV file, whose folder may hold other results' charts)")
    Path out;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (out == null && !Files.isDirectory(result)) {
            throw new ParameterException(spec.commandLine(), "give --out DIR for a CSV file: its charts are named"
                    + " <block>-<chart>.png and would overwrite another result's beside it");
        }
        Path dir = out == null ? result : out;
        Optional<Path> overloadCsv = OverloadPreset.overloadCsv(result);
        if (overloadCsv.isPresent()) {
            return overload(overloadCsv.get(), dir);
        }
        List<CellResult> cells;
        try {
            cells = ResultsJson.cells(result);
            Files.createDirectories(dir);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir + ": " + e.getMessage(), e);
        }
        Charts.initialize();
        cells.stream().collect(Collectors.groupingBy(r -> r.cell().block(), LinkedHashMap::new, Collectors.toList()))
                .forEach((block, rows) -> {
                    for (String png : Charts.write(dir, block, rows)) {
                        System.out.println(dir.resolve(png) + "  (" + block + ", " + rows.size() + " cells)");
                    }
                });
        return 0;
    }

    private Integer overload(Path csv, Path dir) {
        try {
            Files.createDirectories(dir);
            Charts.initialize();
            OverloadPreset.redraw(csv, dir).forEach((png, cells) -> System.out.println(png + "  (overload, "
                    + cells + " cells)"));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir + ": " + e.getMessage(), e);
        }
        return 0;
    }
}
