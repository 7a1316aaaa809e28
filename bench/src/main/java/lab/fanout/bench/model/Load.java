package lab.fanout.bench.model;

import java.net.URI;

/**
 * One run of a load driver against one URL.
 *
 * @param url             the full request URL, query included
 * @param concurrency     clients (hey -c, ab -c), each sending its next request when its last one is answered; for
 *                        vegeta only its initial workers
 * @param requests        total requests (a multiple of {@code concurrency}), or null to run for {@code durationSeconds}
 * @param durationSeconds how long to send, s, when {@code requests} is null
 * @param ratePerSecond   open model: the offered rate, req/s, sent at a constant arrival rate by vegeta; null for a
 *                        closed loop
 * @param timeoutSeconds  per-request timeout, s (hey -t, ab -s); 0 = none
 */
public record Load(URI url, int concurrency, Integer requests, Integer durationSeconds, Double ratePerSecond,
                   int timeoutSeconds) {

    public Load {
        if ((requests == null) == (durationSeconds == null)) {
            throw new IllegalArgumentException("give requests or durationSeconds, not both or neither");
        }
        if (requests != null && requests < concurrency) {
            throw new IllegalArgumentException("requests " + requests + " < concurrency " + concurrency);
        }
    }

    /** @return {@code requests} rounded to a multiple of {@code concurrency}, at least one per client */
    public static int roundedRequests(double requests, int concurrency) {
        return concurrency * (int) Math.max(1, Math.round(requests / concurrency));
    }
}
