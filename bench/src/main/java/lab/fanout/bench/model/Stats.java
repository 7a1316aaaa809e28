package lab.fanout.bench.model;

import java.util.List;

import org.HdrHistogram.Histogram;

/**
 * The bench's one statistics class: median, range, mean and sum of a few repetitions (in the caller's unit), and
 * latency percentiles of an HdrHistogram recorded in µs (returned in ms). Median, min and max skip absent values
 * (null, NaN); a mean or a sum with one absent is absent; no value at all gives null, never 0.
 */
public final class Stats {

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
