package lab.fanout.bench.report;

import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import lab.fanout.bench.model.Stats;

/** Number formats of the report: "n/a" for an absent figure, never 0. */
final class Fmt {

    private Fmt() {
    }

    /** Requests per second: 2 decimals below 10, 1 below 100, else none (the seed's 1.64 and 66.58 stay readable). */
    static String rate(Double v) {
        if (v == null || v.isNaN()) {
            return "n/a";
        }
        if (v.isInfinite()) {
            return "∞";
        }
        return String.format(Locale.ROOT, v < 10 ? "%.2f" : v < 100 ? "%.1f" : "%.0f", v);
    }

    static String num(Double v, int decimals) {
        return v == null || v.isNaN() ? "n/a" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    /**
     * @param decimals as {@link #num}; -1: as {@link #rate}
     * @return e.g. {@code 482 (478–490 · 75 %)}: the median, its interval and the interval's coverage; {@code 482
     *         (n=1)} for one sample, which has no interval; n/a for none
     */
    static String estimate(Stats.Estimate e, int decimals) {
        return estimate(e, decimals, -1);
    }

    /**
     * The compact form for a table row whose Req./Sec. already states the coverage of {@code rowN} samples.
     *
     * @param rowN how many samples the row's other figures have
     * @return e.g. {@code 412 (398–430)} when the figure has {@code rowN} samples (so the same coverage), else as
     *         {@link #estimate(Stats.Estimate, int)}
     */
    static String estimate(Stats.Estimate e, int decimals, int rowN) {
        Function<Double, String> f = v -> decimals < 0 ? rate(v) : num(v, decimals);
        if (e.n() < 2) {
            return e.n() == 0 ? "n/a" : f.apply(e.median()) + " (n=1)";
        }
        return f.apply(e.median()) + " (" + f.apply(e.low()) + "–" + f.apply(e.high())
                + (e.n() == rowN ? "" : " · " + Math.round(100 * e.confidence()) + " %") + ")";
    }

    static String errors(long count, Map<String, Long> kinds) {
        return count == 0 ? "0" : count + " (" + kinds.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue())
                .collect(Collectors.joining(", ")) + ")";
    }
}
