package lab.fanout.bench.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import lab.fanout.bench.model.CellResult;
import lab.fanout.bench.report.Report;
import lab.fanout.bench.report.ResultsJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ./lab report RESULT}: a result's tables written anew from its results.json ({@link Report#rewrite}). */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Writes a ./lab bench result's tables anew from its results.json, with today's report code, as"
                + " a run would write them now; keeps from the markdown it replaces what it does not hold:"
                + " title, intro (command, machine, load average, target, forks), each block's knobs header and"
                + " chart links. Beside ./lab charts, which draws the charts anew.",
                "Refused: the overload preset's report (overload.csv)."},
        footer = {"", "Examples:", "  ./lab report results/20261126-120000      (its results.md, in place)",
                "  ./lab report docs/results/scale-forks5-20261126.json   (scale-forks5-20261126.md beside it)",
                "  ./lab report docs/results/scale-forks5-20261126.json --out /tmp/scale.md"})
final class Rewrite implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "RESULT", description = "results folder (results.json and results.md) or a"
            + " committed NAME.json with its markdown beside it (same name, .md)")
    Path result;

    @Option(names = "--out", paramLabel = "FILE", description = "where the markdown goes (default: over the one it"
            + " is read from)")
    Path out;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        Path markdown = Files.isDirectory(result) ? result.resolve("results.md")
                : result.resolveSibling(result.getFileName().toString().replaceFirst("\\.(json|csv)$", "") + ".md");
        if (!Files.isRegularFile(markdown)) {
            throw new ParameterException(spec.commandLine(), markdown + " does not exist: ./lab report keeps the"
                    + " title, intro and chart links of the markdown it rewrites (for a new result run ./lab bench)");
        }
        Path target = out == null ? markdown : out;
        try {
            List<CellResult> cells = ResultsJson.cells(result);
            Files.writeString(target, Report.rewrite(Files.readString(markdown), cells));
            System.out.println(target + "  (" + cells.size() + " cells from " + (Files.isRegularFile(ResultsJson
                    .beside(result)) ? ResultsJson.beside(result) : result) + ")");
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), markdown + ": " + e.getMessage());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot rewrite " + target + ": " + e.getMessage(), e);
        }
        return 0;
    }
}
