package lab.fanout.bench.report;

import java.util.List;

import org.apache.commons.numbers.combinatorics.BinomialCoefficientDouble;
import org.apache.commons.statistics.inference.MannWhitneyUTest;

/**
 * The rank test behind {@code ./lab compare} and {@code ./lab verdicts}: the two-sided Mann-Whitney U test
 * (commons-statistics-inference) at α = 0.05, and its gate: n against m samples can reach p &lt; α only when the
 * smallest two-sided exact p-value, 2 ÷ C(n + m, n) (no ties), is below α; 3 against 3 never goes below 0.1, 4 against
 * 4 is needed.
 */
final class RankTest {

    static final double ALPHA = 0.05;

    private RankTest() {
    }

    /** @return whether n against m samples can give p &lt; {@link #ALPHA} at all */
    static boolean canReach(int n, int m) {
        return 2 / BinomialCoefficientDouble.value(n + m, n) < ALPHA;
    }

    /** @return the fewest samples per side for which the test can reach p &lt; {@link #ALPHA} */
    static int needed() {
        int n = 1;
        while (!canReach(n, n)) {
            n++;
        }
        return n;
    }

    /** @return the two-sided p-value; 1 where every sample on both sides is the same value (no difference at all) */
    static double p(List<Double> a, List<Double> b) {
        double p = MannWhitneyUTest.withDefaults().test(array(a), array(b)).getPValue();
        return Double.isNaN(p) ? 1 : p;
    }

    private static double[] array(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
