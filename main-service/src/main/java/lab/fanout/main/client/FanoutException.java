package lab.fanout.main.client;

import java.net.URI;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import lab.fanout.common.Problems;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Why a fan-out request failed: a domain failure with no server type (issue 71 item 3). Each server adapter renders it
 * as problem+json through {@code lab.fanout.main.server.FanoutProblems}, so both servers answer the same bytes. The
 * problem names the downstream service ({@code downstream}) and, once the controller adds it, the strategy
 * ({@code strategy}); {@link #headers()} are the answer's headers (e.g. {@code Retry-After}).
 */
public final class FanoutException extends RuntimeException {

    /** The failures a caller can tell apart: each has its own status and problem type (docs/knobs.md, "Errors"). */
    public enum Kind {
        /** The downstream answered with an error status, reset the connection, or could not be reached. */
        DOWNSTREAM_ERROR(502, "downstream-error", "Downstream error"),
        /** The downstream sent no response within the per-call response timeout. */
        DOWNSTREAM_TIMEOUT(504, "downstream-timeout", "Downstream timeout"),
        /** No pooled connection could be leased within the pool-acquire timeout: the pool is saturated. */
        POOL_EXHAUSTED(503, "pool-exhausted", "Connection pool exhausted"),
        /** The whole request's deadline ran out. */
        DEADLINE_EXCEEDED(504, "deadline-exceeded", "Deadline exceeded"),
        /** The downstream's circuit breaker is open: recent calls failed or were slow, so the call is not made. */
        CIRCUIT_OPEN(503, "circuit-open", "Circuit breaker open"),
        /** The request thread was interrupted while it waited for its calls (the service is stopping). */
        INTERRUPTED(503, "interrupted", "Interrupted"),
        /** The JVM could not start a platform thread for a call: the process is at its thread limit. */
        THREAD_LIMIT(503, "thread-limit", "Thread limit reached"),
        /**
         * The bounded pool refused a call, its threads busy and its queue full: the bulkhead at the calls, a sibling of
         * admission control's {@code overloaded} at the door, with {@code Retry-After} as that one.
         */
        BULKHEAD_FULL(503, "bulkhead-full", "Bulkhead full");

        private final int status;
        private final String typeName;
        private final String title;

        Kind(int status, String typeName, String title) {
            this.status = status;
            this.typeName = typeName;
            this.title = title;
        }

        /** @return the HTTP status code the problem is answered with (502, 503 or 504) */
        public int status() {
            return status;
        }

        /** @return the problem type's URI (docs/knobs.md, "Errors") */
        public URI type() {
            return Problems.type(typeName);
        }

        /** @return the problem's title */
        public String title() {
            return title;
        }
    }

    /** The start of the JVM's message when {@code pthread_create} fails ({@code Thread.start}). */
    private static final String NO_NATIVE_THREAD = "unable to create native thread";

    private final Kind kind;
    private String detail;
    /** The problem's extension members, in the order they are added (and rendered). */
    private final Map<String, Object> properties = new LinkedHashMap<>();
    private final Map<String, String> headers = new LinkedHashMap<>();

    public FanoutException(Kind kind, @Nullable Downstream downstream, String detail, @Nullable Throwable cause) {
        super(detail, cause);
        this.kind = kind;
        this.detail = detail;
        if (downstream != null) {
            properties.put("downstream", downstream.serviceName());
        }
    }

    /**
     * @param failure what a call threw (strategies get it wrapped in an ExecutionException or FailedException)
     * @return the failure itself if it is a FanoutException, else a DOWNSTREAM_ERROR around it, with a fixed detail
     *         (the cause is logged, never shown)
     * @throws Error the failure itself when it is one (an OutOfMemoryError is not a 502)
     */
    public static FanoutException from(Throwable failure) {
        if (failure instanceof Error error) {
            throw error;
        }
        if (failure instanceof FanoutException fanout) {
            return fanout;
        }
        LogFactory.getLog(FanoutException.class).warn("a downstream call failed: " + failure);
        return new FanoutException(Kind.DOWNSTREAM_ERROR, null, "A downstream call failed", failure);
    }

    /**
     * @param error     what starting a platform thread for the call threw
     * @param downstream the call's downstream
     * @return 503 {@code thread-limit} naming the cause: the operating system refused a thread (its limit on a
     *         user's processes, {@code ulimit -u}; a pids cgroup, as a container's {@code --pids-limit}; no memory for
     *         a thread stack)
     * @throws OutOfMemoryError {@code error} itself when it is not the JVM's "unable to create native thread" (a full
     *                          heap is not a 503)
     */
    public static FanoutException threadLimit(OutOfMemoryError error, Downstream downstream) {
        String message = error.getMessage();
        if (message == null || !message.contains(NO_NATIVE_THREAD)) {
            throw error;
        }
        LogFactory.getLog(FanoutException.class).warn("no platform thread for a call to " + downstream.serviceName()
                + ": " + error);
        return new FanoutException(Kind.THREAD_LIMIT, downstream, "No platform thread could be started for the call"
                + " to " + downstream.serviceName() + ": the JVM reported '" + NO_NATIVE_THREAD + "' (the process is"
                + " at its thread limit: ulimit -u, a pids cgroup, or no memory for a thread stack). The request's"
                + " calls already started were cancelled; strategies that need no new platform thread still answer.",
                error);
    }

    /**
     * @param refused    the call the pool refused; the calls started before it are the caller's to cancel
     * @param detail     which pool and why, for the caller
     * @param retryAfter the {@code Retry-After} header, whole seconds (at least 1)
     * @return 503 {@code bulkhead-full} naming {@code refused}'s downstream, with {@code Retry-After}; the caller adds
     *         the pool ({@code pool} property)
     */
    public static FanoutException bulkheadFull(Downstream refused, String detail, Duration retryAfter,
                                               Throwable cause) {
        FanoutException full = new FanoutException(Kind.BULKHEAD_FULL, refused, detail, cause);
        full.header("Retry-After", Long.toString(Math.max(1, retryAfter.toSeconds())));
        return full;
    }

    public Kind kind() {
        return kind;
    }

    /** @return the problem's detail, for the caller */
    public String detail() {
        return detail;
    }

    /** @param more appended to the detail after ". " (a hint on what to change) */
    public void appendDetail(String more) {
        detail = detail + ". " + more;
    }

    /** @return the problem's extension members by name (read-only), in the order they were added */
    public Map<String, Object> properties() {
        return Collections.unmodifiableMap(properties);
    }

    /** Adds or replaces the problem member {@code name}; the value is rendered as JSON (a String, number or Map). */
    public void property(String name, Object value) {
        properties.put(name, value);
    }

    /** @return the answer's headers by name (read-only), one value each */
    public Map<String, String> headers() {
        return Collections.unmodifiableMap(headers);
    }

    /** Sets the answer's header {@code name}. */
    public void header(String name, String value) {
        headers.put(name, value);
    }

    @Override
    public String getMessage() {
        return detail;
    }
}
