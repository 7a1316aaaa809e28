package lab.fanout.main.admission;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.SequencedMap;

/**
 * A request refused by admission, the same on every server: its status, a detail and the members that say why (the
 * limit and the count in flight, or how long the request queued). Server-free: each server's adapter answers it as
 * problem+json of type {@value #TYPE_NAME} through {@code server.FanoutProblems.refusal}.
 *
 * @param status  the answer's HTTP status, 429 or 503 ({@code fanout.admission.refusal-status})
 * @param members extension members written after {@code detail}, in this order; copied, unmodifiable
 */
public record Refusal(int status, String detail, SequencedMap<String, Object> members) {

    /** The problem type's name, {@code .../problems/overloaded}. */
    public static final String TYPE_NAME = "overloaded";

    /** The problem's title. */
    public static final String TITLE = "Overloaded";

    public Refusal {
        members = Collections.unmodifiableSequencedMap(new LinkedHashMap<>(members));
    }

    /**
     * @param status            the answer's HTTP status, 429 or 503
     * @param limit             the limit on requests in flight
     * @param inFlight          the requests in flight when this one was refused
     * @param retryAfterSeconds the answer's {@code Retry-After}, in seconds
     * @return the refusal of a request at the limit: members {@code limit}, {@code inFlight}
     */
    public static Refusal atLimit(int status, int limit, int inFlight, long retryAfterSeconds) {
        SequencedMap<String, Object> members = new LinkedHashMap<>();
        members.put("limit", limit);
        members.put("inFlight", inFlight);
        return new Refusal(status, "main-service holds " + limit + " requests in flight at most and is at that limit;"
                + " retry after " + retryAfterSeconds + " s", members);
    }

    /**
     * @param status     the answer's HTTP status, 429 or 503
     * @param queuedMs   how long the request waited to run (for a request thread or a carrier), in milliseconds
     * @param deadlineMs the request's deadline ({@code fanout.deadline}), in milliseconds
     * @return the refusal of a request that waited past its deadline to run: members {@code queuedMs},
     *         {@code deadlineMs}
     */
    public static Refusal queuedPastDeadline(int status, long queuedMs, long deadlineMs) {
        SequencedMap<String, Object> members = new LinkedHashMap<>();
        members.put("queuedMs", queuedMs);
        members.put("deadlineMs", deadlineMs);
        return new Refusal(status, "The request waited " + queuedMs + " ms to run (for a request thread or a"
                + " carrier), past its deadline of " + deadlineMs + " ms, and was not started", members);
    }
}
