package lab.fanout.common;

/**
 * How long a caller will wait for one downstream response, sent with the request so that the downstream can tell
 * whether it finished in time. A relative budget in ms rather than an instant, so that no two clocks need to agree;
 * the same idea as gRPC's {@code grpc-timeout} and Envoy's {@code x-envoy-expected-rq-timeout-ms}. main-service
 * sends it on every downstream call; downstream services count the requests that finish after it ran out.
 */
public final class CallBudget {

    /** The header: whole ms, 0 or more, that the caller waits for the response from the moment it sent the request. */
    public static final String HEADER = "X-Fanout-Budget-Ms";

    private CallBudget() {
    }
}
