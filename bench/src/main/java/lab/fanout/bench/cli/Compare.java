package lab.fanout.bench.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import lab.fanout.bench.report.Bootstrap;
import lab.fanout.bench.report.Comparison;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ./lab compare A B}: two bench results, cell by cell, with a rank test ({@link Comparison}). */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"Compares two ./lab bench results cell by cell, as Go's benchstat does: medians, the change in"
                + " %%, the p-value of the Mann-Whitney U test, and ~ where the difference is not significant at"
                + " α = 0.05 or the samples (repetitions) are too few to tell.",
                "A result compared with itself shows only ~. With --forks, the samples are the forks' medians; a cell"
                        + " whose warm-up hit its cap, or whose main-service spent under 80 %% of its cpuMs, gets no"
                        + " verdict."},
        footer = {"", "Examples:", "  ./lab compare docs/results/quick-a results/20261125-120000",
                "  ./lab compare results/20261125-120000 --by strategy   (each strategy against the first)",
                "  ./lab compare results/20261125-120000 --by profile    (each server profile against the first)",
                "  ./lab compare results/database --by orders_store      (R2DBC against JDBC, the same db pool)",
                "  ./lab compare results/tail --by hedge                 (hedgeAfterMs=… against no hedge; tail cells"
                        + " add their slow share)"})
final class Compare implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "A", description = "results folder (with results.csv) or a results CSV")
    Path a;

    @Parameters(index = "1", paramLabel = "B", arity = "0..1", description = "the other one (not with --by)")
    Path b;

    @Option(names = "--by", paramLabel = "KNOB", description = "compare within A instead: strategy, profile,"
            + " orders_store or hedge (the query's hedgeAfterMs; each against the first one in A, cell by cell)")
    String by;

    @Option(names = "--resamples", paramLabel = "N", defaultValue = "10000", description = "the hierarchical"
            + " bootstrap's resamples for B ÷ A's 95 %% interval (fixed seed; at least 1000; default ${DEFAULT-VALUE})")
    int resamples;

    @Option(names = "--band", paramLabel = "PCT", defaultValue = "3", description = "the band of practical"
            + " equivalence, ±%% around a ratio of 1: decided outside it, ~ inside, unclear across (default ±3)")
    double band;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (by != null && !Comparison.BY.contains(by)) {
            throw new ParameterException(spec.commandLine(), "--by takes " + String.join(" or ", Comparison.BY)
                    + ", not '" + by + "'");
        }
        if ((by == null) == (b == null)) {
            throw new ParameterException(spec.commandLine(),
                    "give two results (A B), or one with --by " + String.join("|", Comparison.BY));
        }
        try {
            Bootstrap bootstrap = new Bootstrap(resamples, band);
            String table = b == null ? Comparison.renderBy(a, by, bootstrap) : Comparison.render(a, b, bootstrap);
            System.out.println("A: " + a + (b == null ? " (by " + by + ")" : "\nB: " + b) + "\n");
            System.out.print(table);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        return 0;
    }
}
