package lab.fanout.bench.model;

import java.util.List;

import org.HdrHistogram.Histogram;
import org.apache.commons.statistics.distribution.BinomialDistribution;

/**
 * The bench's one statistics class: median, range, mean and sum of a few repetitions (in the caller's unit), and
 * latency percentiles of an HdrHistogram recorded in µs (returned in ms). Median, min and max skip absent values
 * (null, NaN); a mean or a sum with one absent is absent; no value at all gives null, never 0. {@link #interval}
 * gives the median's confidence interval.
 */
public final class Stats {

    /** The confidence asked of {@link #interval}. */
    public static final double CONFIDENCE = 0.95;

    /**
     * A median with its confidence interval.
     *
     * @param median     the median of the samples, in their unit; null when there is none
     * @param low        the interval's lower end (an order statistic); null when there is no sample
     * @param high       its upper end
     * @param confidence the interval's exact coverage, 0..1: {@link #CONFIDENCE} or more where the samples allow it,
     *                   less for 5 or fewer (min–max then, whose coverage is 1 − 2 × 0.5^n)
     * @param n          how many samples
     */
    public record Estimate(Double median, Double low, Double high, double confidence, int n) {

        /** @return the same estimate in another unit: median and ends × {@code factor} (finite, positive) */
        public Estimate times(double factor) {
            return n == 0 ? this : new Estimate(median * factor, low * factor, high * factor, confidence, n);
        }
    }

    private Stats() {
    }

    /** @return the median (mean of the middle two for an even count), or null */
    public static Double median(List<Double> values) {
        List<Double> v = present(values);
        int n = v.size();
        return n == 0 ? null : n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
    }

    public static Double min(List<Double> values) {
        List<Double> v = present(values);
        return v.isEmpty() ? null : v.getFirst();
    }

    public static Double max(List<Double> values) {
        List<Double> v = present(values);
        return v.isEmpty() ? null : v.getLast();
    }

    /**
     * The distribution-free confidence interval of a median from order statistics (Conover, Practical Nonparametric
     * Statistics, 3rd ed. 1999, §3.2; what Go's benchstat reports): with x(1) ≤ … ≤ x(n), [x(k), x(n+1−k)] covers the
     * true median with probability 1 − 2·P(B ≤ k − 1), B ~ Binomial(n, ½) (commons-statistics). k is the largest
     * that keeps that at {@link #CONFIDENCE} or more; with 5 or fewer samples none does, and min–max is given with its
     * own, lower coverage. No assumption of a normal distribution: throughput across JVM starts is rarely normal.
     *
     * @return the estimate; absent values skipped; for none, all null with n = 0
     */
    public static Estimate interval(List<Double> values) {
        List<Double> v = present(values);
        int n = v.size();
        if (n == 0) {
            return new Estimate(null, null, null, 0, 0);
        }
        BinomialDistribution b = BinomialDistribution.of(n, 0.5);
        int k = 1;
        while (k + 1 <= (n + 1) / 2 && 1 - 2 * b.cumulativeProbability(k) >= CONFIDENCE) {
            k++;
        }
        double coverage = n == 1 ? 0 : 1 - 2 * b.cumulativeProbability(k - 1);
        return new Estimate(median(v), v.get(k - 1), v.get(n - k), coverage, n);
    }

    /** @return the sum, or null when any value is absent (a partial sum would understate) */
    public static Double sumOrNull(List<Double> values) {
        return values.isEmpty() || values.stream().anyMatch(Stats::absent) ? null
                : values.stream().mapToDouble(Double::doubleValue).sum();
    }

    /** @return the arithmetic mean, or null when any value is absent */
    public static Double meanOrNull(List<Double> values) {
        Double sum = sumOrNull(values);
        return sum == null ? null : sum / values.size();
    }

    /**
     * @param micros     response times, µs, or null
     * @param percentile 0..100; 100 gives the largest value
     * @return that percentile in ms (within the histogram's 3 significant digits), NaN when there is none
     */
    public static double percentileMs(Histogram micros, double percentile) {
        if (micros == null || micros.getTotalCount() == 0) {
            return Double.NaN;
        }
        return (percentile >= 100 ? micros.getMaxValue() : micros.getValueAtPercentile(percentile)) / 1000.0;
    }

    private static boolean absent(Double d) {
        return d == null || d.isNaN();
    }

    private static List<Double> present(List<Double> values) {
        return values.stream().filter(d -> !absent(d)).sorted().toList();
    }
}
