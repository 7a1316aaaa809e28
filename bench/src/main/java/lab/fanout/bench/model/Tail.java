package lab.fanout.bench.model;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The tail a cell's query asks the downstreams for ({@code tailRate}, {@code tailMs}), the fan-out width and the
 * hedging, with what "The Tail at Scale" (Dean and Barroso, CACM 2013) expects of them: a request of N independent
 * calls, each slow with probability p, is slow with probability 1 − (1 − p)^N.
 *
 * @param width     calls per downstream ({@code width}, default 1)
 * @param tailRate  p, the share of calls that take {@code tailMs} more, 0..1
 * @param tailMs    the extra latency of a slow call, ms
 * @param calls     N: calls that may be slow, 3 × width, or width when {@code faultTarget} names one downstream
 * @param hedge     {@code hedgeAfterMs} as given ({@code 100}, {@code p95}), or {@code off}
 */
public record Tail(int width, double tailRate, int tailMs, int calls, String hedge) {

    /** @return a query's parameters, e.g. {@code width=3&cpuMs=5} → {width=3, cpuMs=5}; the last of a repeated one */
    public static Map<String, String> params(String query) {
        return Arrays.stream(query.split("&")).map(kv -> kv.split("=", 2)).filter(kv -> kv.length == 2)
                .collect(Collectors.toMap(kv -> kv[0], kv -> kv[1], (a, b) -> b));
    }

    /** @return the tail of a query such as {@code width=3&tailRate=0.01&tailMs=1000}; empty without a tailRate */
    public static Optional<Tail> of(String query) {
        Map<String, String> p = params(query);
        if (!p.containsKey("tailRate") || !p.containsKey("tailMs")) {
            return Optional.empty();
        }
        int width = Integer.parseInt(p.getOrDefault("width", "1"));
        int calls = p.containsKey("faultTarget") ? width : ServiceDefaults.DOWNSTREAM_COUNT * width;
        return Optional.of(new Tail(width, Double.parseDouble(p.get("tailRate")), Integer.parseInt(p.get("tailMs")),
                calls, p.getOrDefault("hedgeAfterMs", "off")));
    }

    /** @return e.g. {@code width=3 hedge=p95}: what tells the cells of one tail apart */
    public String label() {
        return "width=" + width + " hedge=" + hedge;
    }

    /** @return 1 − (1 − p)^N: the share of requests with at least one slow call, 0..1 */
    public double expectedSlowShare() {
        return 1 - Math.pow(1 - tailRate, calls);
    }

    /**
     * @return 1 − (1 − p²)^N: the share of slow requests when every slow call is hedged and its copy is slow
     *         independently with p, so that a call stays slow only when both copies are, 0..1
     */
    public double expectedSlowShareHedged() {
        return 1 - Math.pow(1 - tailRate * tailRate, calls);
    }

    public boolean hedged() {
        return !hedge.equals("off");
    }

    /**
     * @param latencyMs the calls' latency without the tail, ms
     * @return the response time above which a request counts as slow, ms: halfway into the tail, latency +
     *         tailMs ÷ 2, far above a fast request (about the latency) and below a slow one (latency + tailMs)
     */
    public double slowAboveMs(int latencyMs) {
        return latencyMs + tailMs / 2.0;
    }
}
