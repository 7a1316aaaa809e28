package lab.fanout.main.client;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeoutException;

import io.netty.handler.timeout.ReadTimeoutException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.client5.http.impl.classic.RequestFailedException;
import org.apache.hc.core5.http.ConnectionClosedException;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;
import org.apache.hc.core5.http.NoHttpResponseException;
import org.jspecify.annotations.Nullable;
import reactor.netty.channel.AbortedException;
import reactor.netty.http.client.PrematureCloseException;

import org.springframework.core.codec.CodecException;
import org.springframework.web.client.RestClientException;
import org.springframework.web.client.RestClientResponseException;
import org.springframework.web.reactive.function.client.WebClientException;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import org.springframework.web.reactive.function.client.WebClientResponseException;

/**
 * What a failed downstream call means to the caller, for the blocking client (RestClient) and the reactive one
 * (WebClient) alike, and for either client under WebClient (HttpClient 5's async client or Reactor Netty's,
 * {@code fanout.reactive.client}): one translation, so that all answer the same status and the same fixed text for
 * the same fault (docs/knobs.md, "Errors"). The Java exception stays in the log, never in the problem.
 */
final class DownstreamFailures {

    private static final Log log = LogFactory.getLog(DownstreamFailures.class);

    private DownstreamFailures() {
    }

    /**
     * @param failure what the client threw or signalled
     * @return the failure as a problem naming {@code downstream}: DOWNSTREAM_ERROR, DOWNSTREAM_TIMEOUT,
     *         POOL_EXHAUSTED or DEADLINE_EXCEEDED
     */
    static FanoutException of(Downstream downstream, Deadline deadline, Throwable failure) {
        String name = downstream.serviceName();
        if (failure instanceof FanoutException fanout) {
            return fanout;
        }
        Integer status = errorStatus(failure);
        if (status != null) {
            return new FanoutException(FanoutException.Kind.DOWNSTREAM_ERROR, downstream, name + " answered " + status,
                    failure);
        }
        if (failure instanceof RestClientException || failure instanceof WebClientException) {
            // no response; else an I/O failure while reading the body (timeout, reset, cut short by the deadline's
            // alarm), or a body that is not a catalogue. WebClient wraps a failure to read the body in a
            // WebClientResponseException carrying the 200 it had received, and an async pool's lease timeout,
            // which is no IOException, in a WebClientRequestException
            IOException io = cause(failure, IOException.class);
            if (io != null) {
                return io(downstream, deadline, io, failure);
            }
            FanoutException reactorNetty = reactorNetty(downstream, deadline, failure);
            if (reactorNetty != null) {
                return reactorNetty;
            }
            // HttpClient 5's lease timeout, and Reactor Netty's (PoolAcquireTimeoutException): both TimeoutExceptions
            if (failure instanceof WebClientRequestException && cause(failure, TimeoutException.class) != null) {
                return deadline.expired() ? deadline.exceeded(List.of(downstream), failure)
                        : poolExhausted(downstream, failure);
            }
        }
        if (failure instanceof CodecException && cause(failure, ReadTimeoutException.class) != null) {
            return deadline.expired() ? deadline.exceeded(List.of(downstream), failure)
                    : responseTimeout(downstream, failure);
        }
        if (failure instanceof RestClientException || failure instanceof WebClientException
                || failure instanceof CodecException) {
            return new FanoutException(FanoutException.Kind.DOWNSTREAM_ERROR, downstream,
                    name + " sent a body that is not its catalogue", failure);
        }
        // HttpClient's own state errors: an alarm's cancel that lands while the exchange is still connecting
        // throws IllegalStateException "Endpoint not acquired / already released"; never a 500
        if (deadline.expired()) {
            return deadline.exceeded(List.of(downstream), failure);
        }
        if (failure instanceof CancellationException || Thread.currentThread().isInterrupted()) {
            return cancelled(downstream, failure);
        }
        log.warn("call to " + name + " failed: " + failure);   // the type stays out of the 502
        return new FanoutException(FanoutException.Kind.DOWNSTREAM_ERROR, downstream,
                name + " failed before it answered", failure);
    }

    /** @return the problem for a call that answered 2xx with no body */
    static FanoutException emptyBody(Downstream downstream) {
        return new FanoutException(FanoutException.Kind.DOWNSTREAM_ERROR, downstream,
                downstream.serviceName() + " answered with an empty body", null);
    }

    /** @return the error status the downstream answered, or null if it answered none (or a 2xx it failed to send) */
    private static @Nullable Integer errorStatus(Throwable failure) {
        if (failure instanceof RestClientResponseException e) {
            return e.getStatusCode().value();
        }
        if (failure instanceof WebClientResponseException e && e.getStatusCode().isError()) {
            return e.getStatusCode().value();
        }
        return null;
    }

    /**
     * I/O failures: once the deadline has run out, any of them is the deadline's (its alarm cancelled the call,
     * or a timeout cut short by the deadline fired); before it, which timeout fired decides the status.
     */
    private static FanoutException io(Downstream downstream, Deadline deadline, IOException cause, Throwable failure) {
        String name = downstream.serviceName();
        if (deadline.expired()) {
            return deadline.exceeded(List.of(downstream), failure);
        }
        // the lease's own timeout, or the pool's: a pool with requests pending fails an expired one at its next
        // release, with DeadlineTimeoutException, before that request's own wait times out; HttpClient wraps it in
        // RequestFailedException, as it does an interrupt (seen at 10x the bound: 502 "cancelled" for a full pool)
        if (cause instanceof ConnectionRequestTimeoutException
                || cause instanceof RequestFailedException && cause(cause, TimeoutException.class) != null) {
            return poolExhausted(downstream, failure);
        }
        if (cause instanceof ConnectTimeoutException || cause instanceof ConnectException) {
            return new FanoutException(FanoutException.Kind.DOWNSTREAM_ERROR, downstream,
                    name + " could not be reached", failure);
        }
        if (cause instanceof SocketTimeoutException) {
            return responseTimeout(downstream, failure);
        }
        // an interrupted virtual thread's socket read fails with SocketException "Closed by interrupt": a sibling's
        // cancellation (scopeFork), not a downstream's fault
        if (cause instanceof InterruptedIOException || cause instanceof RequestFailedException
                || Thread.currentThread().isInterrupted()) {
            return cancelled(downstream, failure);
        }
        // the async client reports a connection closed before the response's head as ConnectionClosedException,
        // Reactor Netty as PrematureCloseException ("BEFORE response"; during the body it is a broken connection)
        if (cause instanceof NoHttpResponseException || (failure instanceof WebClientRequestException
                && (cause instanceof ConnectionClosedException || cause instanceof PrematureCloseException))) {
            return new FanoutException(FanoutException.Kind.DOWNSTREAM_ERROR, downstream,
                    name + " closed the connection without a response", failure);
        }
        log.warn("call to " + name + " failed: " + cause);   // the type stays out of the 502 (a fixed text)
        return new FanoutException(FanoutException.Kind.DOWNSTREAM_ERROR, downstream,
                name + " reset or broke the connection", failure);
    }

    /**
     * Reactor Netty's failures that are no IOException: its response timeout, Netty's {@link ReadTimeoutException}
     * (before the response's head, or between two reads of its body), and a connection closed before the request
     * could be sent ({@link AbortedException}). Its others are IOExceptions ({@code io}): a refused or timed-out
     * connect (ConnectException), {@link PrematureCloseException}, a reset.
     *
     * @return the problem, or null if the failure is none of them
     */
    private static @Nullable FanoutException reactorNetty(Downstream downstream, Deadline deadline, Throwable failure) {
        boolean timedOut = cause(failure, ReadTimeoutException.class) != null;
        if (!timedOut && cause(failure, AbortedException.class) == null) {
            return null;
        }
        if (deadline.expired()) {
            return deadline.exceeded(List.of(downstream), failure);
        }
        return timedOut ? responseTimeout(downstream, failure) : new FanoutException(
                FanoutException.Kind.DOWNSTREAM_ERROR, downstream,
                downstream.serviceName() + " reset or broke the connection", failure);
    }

    private static FanoutException responseTimeout(Downstream downstream, Throwable failure) {
        return new FanoutException(FanoutException.Kind.DOWNSTREAM_TIMEOUT, downstream,
                downstream.serviceName() + " sent no response within the response timeout", failure);
    }

    private static FanoutException poolExhausted(Downstream downstream, Throwable failure) {
        return new FanoutException(FanoutException.Kind.POOL_EXHAUSTED, downstream,
                "No pooled connection to " + downstream.serviceName() + " could be leased in time: the pool is saturated",
                failure);
    }

    /** @return the problem for a call that was cancelled: a sibling's failure or a lost hedging race */
    static FanoutException cancelled(Downstream downstream, Throwable failure) {
        return new FanoutException(FanoutException.Kind.DOWNSTREAM_ERROR, downstream,
                "The call to " + downstream.serviceName() + " was cancelled", failure);
    }

    private static <T extends Throwable> @Nullable T cause(Throwable failure, Class<T> type) {
        for (Throwable cause = failure.getCause(); cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return type.cast(cause);
            }
        }
        return null;
    }
}
