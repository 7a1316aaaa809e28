package lab.fanout.bench.model;

import java.util.SortedMap;

import org.HdrHistogram.Histogram;

/**
 * What one driver run measured.
 *
 * @param requested         requests the driver was told to send, or -1 when it ran for a duration
 * @param answered          requests with an HTTP answer, any status
 * @param ok                answers with a 2xx status
 * @param errors            error kind to count, e.g. {@code HTTP 504} or {@code transport} (no answer)
 * @param windowSeconds     the run's measured window, s
 * @param latencyMicros     response time of every answered request, µs: closed loop (hey, ab) from the send; open
 *                          model (vegeta) from the moment the request was due, so a stall shows in full (no
 *                          coordinated omission); read back from an old results.csv, rebuilt from its percentiles
 *                          and tagged {@link #FROM_PERCENTILES}
 * @param offeredPerSecond  open model: the offered (arrival) rate, req/s; null for a closed loop
 * @param sendLatencyMicros open model: the same requests from their actual send, µs; null for a closed loop
 * @param slowAnswers       a tail cell read back from results.csv: its answers slower than the cell's slow threshold
 *                          ({@link Tail#slowAboveMs}), which the five percentiles read back cannot give; null when
 *                          {@code latencyMicros} holds every answer (a live run)
 */
public record DriverRun(long requested, long answered, long ok, SortedMap<String, Long> errors, double windowSeconds,
                        Histogram latencyMicros, Double offeredPerSecond, Histogram sendLatencyMicros,
                        Long slowAnswers) {

    /**
     * The {@link Histogram#setTag tag} of a histogram rebuilt from a few percentiles (results.csv read back), not
     * measured: results.json keeps the mark ({@code "source": "percentiles"}), so a figure from it is known as such.
     */
    public static final String FROM_PERCENTILES = "percentiles";

    /** A live open-model run (vegeta): its histograms hold every answer. */
    public DriverRun(long requested, long answered, long ok, SortedMap<String, Long> errors, double windowSeconds,
                     Histogram latencyMicros, Double offeredPerSecond, Histogram sendLatencyMicros) {
        this(requested, answered, ok, errors, windowSeconds, latencyMicros, offeredPerSecond, sendLatencyMicros, null);
    }

    /** A closed-loop run (hey, ab): latency from the send. */
    public DriverRun(long requested, long answered, long ok, SortedMap<String, Long> errors, double windowSeconds,
                     Histogram latencyMicros) {
        this(requested, answered, ok, errors, windowSeconds, latencyMicros, null, null, null);
    }

    /** @return 2xx answers per second over the window, req/s (what hey and ab call Requests/sec, errors left out) */
    public double throughput() {
        return windowSeconds > 0 ? ok / windowSeconds : 0;
    }

    /** @return answers of any status per second, req/s (for sizing the next run) */
    public double answeredPerSecond() {
        return windowSeconds > 0 ? answered / windowSeconds : 0;
    }

    /**
     * @param ms a tail's slow threshold, ms ({@link Tail#slowAboveMs})
     * @return {answers slower than {@code ms}, answers timed}: counted in the histogram, or {@link #slowAnswers} of
     *         {@link #answered} when read back (its threshold is the cell's: {@code ms} must be the same)
     */
    public long[] slowerThan(double ms) {
        if (slowAnswers != null) {
            return new long[] {slowAnswers, answered};
        }
        long n = latencyMicros.getTotalCount();
        return new long[] {n - latencyMicros.getCountBetweenValues(0, (long) (ms * 1000)), n};
    }

    public long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }

    /** @return an empty auto-resizing histogram with 3 significant digits (0.1 % of any value) */
    public static Histogram histogram() {
        return new Histogram(3);
    }
}
