package lab.fanout.main.client;

import java.net.URI;
import java.time.Duration;

import lab.fanout.common.Problems;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/**
 * Why a fan-out request failed, rendered as problem+json by the shared {@code ProblemAdvice}. The problem names
 * the downstream service ({@code downstream}) and, once the controller adds it, the strategy ({@code strategy}).
 */
public final class FanoutException extends ErrorResponseException {

    /** The failures a caller can tell apart: each has its own status and problem type (docs/knobs.md, "Errors"). */
    public enum Kind {
        /** The downstream answered with an error status, reset the connection, or could not be reached. */
        DOWNSTREAM_ERROR(HttpStatus.BAD_GATEWAY, "downstream-error", "Downstream error"),
        /** The downstream sent no response within the per-call response timeout. */
        DOWNSTREAM_TIMEOUT(HttpStatus.GATEWAY_TIMEOUT, "downstream-timeout", "Downstream timeout"),
        /** No pooled connection could be leased within the pool-acquire timeout: the pool is saturated. */
        POOL_EXHAUSTED(HttpStatus.SERVICE_UNAVAILABLE, "pool-exhausted", "Connection pool exhausted"),
        /** The whole request's deadline ran out. */
        DEADLINE_EXCEEDED(HttpStatus.GATEWAY_TIMEOUT, "deadline-exceeded", "Deadline exceeded"),
        /** The downstream's circuit breaker is open: recent calls failed or were slow, so the call is not made. */
        CIRCUIT_OPEN(HttpStatus.SERVICE_UNAVAILABLE, "circuit-open", "Circuit breaker open"),
        /** The request thread was interrupted while it waited for its calls (the service is stopping). */
        INTERRUPTED(HttpStatus.SERVICE_UNAVAILABLE, "interrupted", "Interrupted"),
        /** The JVM could not start a platform thread for a call: the process is at its thread limit. */
        THREAD_LIMIT(HttpStatus.SERVICE_UNAVAILABLE, "thread-limit", "Thread limit reached"),
        /**
         * The bounded pool refused a call, its threads busy and its queue full: the bulkhead at the calls, a sibling of
         * admission control's {@code overloaded} at the door, with {@code Retry-After} as that one.
         */
        BULKHEAD_FULL(HttpStatus.SERVICE_UNAVAILABLE, "bulkhead-full", "Bulkhead full");

        private final HttpStatus status;
        private final URI type;
        private final String title;

        Kind(HttpStatus status, String typeName, String title) {
            this.status = status;
            this.type = Problems.type(typeName);
            this.title = title;
        }
    }

    /** The start of the JVM's message when {@code pthread_create} fails ({@code Thread.start}). */
    private static final String NO_NATIVE_THREAD = "unable to create native thread";

    private final Kind kind;

    public FanoutException(Kind kind, @Nullable Downstream downstream, String detail, @Nullable Throwable cause) {
        super(kind.status, problem(kind, downstream, detail), cause);
        this.kind = kind;
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
        full.getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(Math.max(1, retryAfter.toSeconds())));
        return full;
    }

    public Kind kind() {
        return kind;
    }

    private static ProblemDetail problem(Kind kind, @Nullable Downstream downstream, String detail) {
        ProblemDetail problem = Problems.of(kind.status, kind.type, kind.title, detail);
        if (downstream != null) {
            problem.setProperty("downstream", downstream.serviceName());
        }
        return problem;
    }
}
