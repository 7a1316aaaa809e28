package lab.fanout.bench.model;

import java.util.List;
import java.util.Objects;

/** Median and range of a few repetitions; nulls (a figure that was absent) are skipped, all-null gives null. */
public final class Stats {

    private Stats() {
    }

    /** @return the median (mean of the middle two for an even count), or null when no value is present */
    public static Double median(List<Double> values) {
        List<Double> v = present(values);
        if (v.isEmpty()) {
            return null;
        }
        int n = v.size();
        return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
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
        return values.stream().anyMatch(Objects::isNull) || values.isEmpty() ? null
                : values.stream().mapToDouble(Double::doubleValue).sum();
    }

    private static List<Double> present(List<Double> values) {
        return values.stream().filter(Objects::nonNull).filter(d -> !d.isNaN()).sorted().toList();
    }
}
