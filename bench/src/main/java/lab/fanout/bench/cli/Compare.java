package lab.fanout.bench.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import lab.fanout.bench.report.Comparison;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code ./lab compare A B}: two bench results, cell by cell, with a rank test ({@link Comparison}). */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"Compares two ./lab bench results cell by cell, as Go's benchstat does: medians, the change in"
                + " %, the p-value of the Mann-Whitney U test, and ~ where the difference is not significant at"
                + " α = 0.05 or the samples (repetitions) are too few to tell.",
                "A result compared with itself shows only ~."},
        footer = {"", "Example:", "  ./lab compare docs/results/quick-a results/20261125-120000"})
final class Compare implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "A", description = "results folder (with results.csv) or a results CSV")
    Path a;

    @Parameters(index = "1", paramLabel = "B", description = "the other one")
    Path b;

    @Override
    public Integer call() {
        System.out.println("A: " + a + "\nB: " + b + "\n");
        System.out.print(Comparison.render(a, b));
        return 0;
    }
}
