package lab.fanout.bench.model;

import java.util.SortedMap;

import org.HdrHistogram.Histogram;

/**
 * What one driver run measured.
 *
 * @param requested      requests the driver was told to send, or -1 when it ran for a duration (then requests lost
 *                       to transport errors cannot be counted from hey's CSV)
 * @param answered       requests with an HTTP answer, any status
 * @param ok             answers with a 2xx status
 * @param errors         error kind to count, e.g. {@code HTTP 504} or {@code transport}
 * @param windowSeconds  from the first request's start to the last answer, s
 * @param latencyMicros  response time of every answered request, µs (the driver's own CPU is measured from /proc
 *                       around the run: lab.fanout.bench.metrics.MachineCpu). Closed loop (hey, ab): from the send.
 *                       Open model (vegeta): from the moment the request was due, so a stall of the server or of
 *                       the driver itself shows in full (no coordinated omission)
 * @param offeredPerSecond  open model: the offered (arrival) rate, req/s; null for a closed loop
 * @param sendLatencyMicros open model: the same requests from their actual send, µs (vegeta's own latency); null for
 *                          a closed loop, where it is {@code latencyMicros}
 */
public record DriverRun(long requested, long answered, long ok, SortedMap<String, Long> errors, double windowSeconds,
                        Histogram latencyMicros, Double offeredPerSecond, Histogram sendLatencyMicros) {

    /** A closed-loop run (hey, ab): latency from the send. */
    public DriverRun(long requested, long answered, long ok, SortedMap<String, Long> errors, double windowSeconds,
                     Histogram latencyMicros) {
        this(requested, answered, ok, errors, windowSeconds, latencyMicros, null, null);
    }

    /** @return "open" (constant arrival rate, vegeta) or "closed" (each client waits for its answer: hey, ab) */
    public String model() {
        return offeredPerSecond == null ? "closed" : "open";
    }

    /** @return successful requests per second over the window (what hey and ab call Requests/sec, errors left out) */
    public double throughput() {
        return windowSeconds > 0 ? ok / windowSeconds : 0;
    }

    /** @return answered requests per second, errors included (for sizing the next run) */
    public double answeredPerSecond() {
        return windowSeconds > 0 ? answered / windowSeconds : 0;
    }

    public long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }

    public static Histogram histogram() {
        return new Histogram(3);   // auto-resizing, 3 significant digits: 0.1 % of any value
    }
}
