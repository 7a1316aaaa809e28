package lab.fanout.main.client;

import java.net.URI;

import lab.fanout.common.Problems;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/**
 * Why a fan-out request failed, rendered as problem+json by the shared {@code ProblemAdvice}. The problem names
 * the downstream service ({@code downstream}) and, once the controller adds it, the strategy ({@code strategy}).
 */
public final class FanoutException extends ErrorResponseException {

    /** The failures a caller can tell apart: each has its own status and problem type (README, "Errors"). */
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
        INTERRUPTED(HttpStatus.SERVICE_UNAVAILABLE, "interrupted", "Interrupted");

        private final HttpStatus status;
        private final URI type;
        private final String title;

        Kind(HttpStatus status, String typeName, String title) {
            this.status = status;
            this.type = Problems.type(typeName);
            this.title = title;
        }
    }

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
