package lab.fanout.bench.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import lab.fanout.bench.report.Bootstrap;
import lab.fanout.bench.report.Verdicts;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ./lab verdicts RESULT...}: which approach wins each scenario and figure, only where it is no noise. */
@Command(name = "verdicts", mixinStandardHelpOptions = true,
        description = {"Names, per scenario (a cell's knobs but its strategy and profile) and figure (req/s, p99,"
                + " CPU-ms per request, MiB held in flight), the approach (strategy · profile) that wins, and only"
                + " where it leads the runner-up significantly: exact Mann-Whitney U on the forks' medians,"
                + " Benjamini-Hochberg over all tests at q = 0.05. ~ where the lead is noise; too few forks where"
                + " no p below 0.05 is possible (5 forks or more: ./lab bench --forks 5). Beside it, best ÷"
                + " runner-up with its 95 % hierarchical-bootstrap interval: decided outside ±--band %, ~ inside,"
                + " unclear across; the PNG is coloured by that word.",
                "Results given together join: e.g. one result per profile of the same preset."},
        footer = {"", "Examples:", "  ./lab verdicts docs/results/scale-forks5-20261126.csv --png verdicts.png",
                "  ./lab verdicts docs/results/footprint-virtual-forks3-20261126.csv"
                        + " docs/results/footprint-platform-forks3-20261126.csv"})
final class VerdictsCommand implements Callable<Integer> {

    @Parameters(arity = "1..*", paramLabel = "RESULT", description = "results folders (with results.csv) or results"
            + " CSVs of ./lab bench")
    List<Path> results;

    @Option(names = "--png", paramLabel = "FILE", description = "also draw the matrix as a heatmap PNG there")
    Path png;

    @Option(names = "--resamples", paramLabel = "N", defaultValue = "10000", description = "the hierarchical"
            + " bootstrap's resamples for best ÷ runner-up's 95 %% interval (fixed seed; at least 1000; default"
            + " ${DEFAULT-VALUE})")
    int resamples;

    @Option(names = "--band", paramLabel = "PCT", defaultValue = "3", description = "the band of practical"
            + " equivalence, ±%% around a ratio of 1: decided outside it, ~ inside, unclear across (default ±3)")
    double band;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        try {
            System.out.print(Verdicts.render(results, png, new Bootstrap(resamples, band)));
            if (png != null) {
                System.out.println(png + "  (the matrix as a heatmap)");
            }
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        return 0;
    }
}
