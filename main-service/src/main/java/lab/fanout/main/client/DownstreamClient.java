package lab.fanout.main.client;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.stream.Collectors;

import lab.fanout.common.CallBudget;
import lab.fanout.common.Simulation;
import lab.fanout.main.config.FanoutProperties;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.client5.http.impl.classic.RequestFailedException;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;
import org.apache.hc.core5.http.NoHttpResponseException;
import org.jspecify.annotations.Nullable;

import org.springframework.core.ParameterizedTypeReference;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;
import org.springframework.web.client.RestClientResponseException;

/**
 * One blocking GET of a downstream catalogue, on the shared pooled Apache HttpClient. Runs on whatever thread the
 * strategy chose; every failure leaves as a {@link FanoutException} naming the downstream. No call outlives its
 * request's deadline ({@link Deadline}), and each tells the downstream how long it will wait
 * ({@link CallBudget}).
 */
@Component
public class DownstreamClient {

    private static final Log log = LogFactory.getLog(DownstreamClient.class);

    private final RestClient rest;
    private final FanoutProperties.Downstreams urls;
    private final FanoutCallMeters meters;

    DownstreamClient(RestClient downstreamRestClient, FanoutProperties properties, FanoutCallMeters meters) {
        this.rest = downstreamRestClient;
        this.urls = properties.downstreams();
        this.meters = meters;
    }

    /**
     * @param type       the element type of the catalogue's JSON array
     * @param simulation forwarded as query parameters, as given: the caller picks the ones for this downstream
     * @return the catalogue, never null
     * @throws FanoutException for any failure: DOWNSTREAM_ERROR, DOWNSTREAM_TIMEOUT, POOL_EXHAUSTED or
     *                         DEADLINE_EXCEEDED
     */
    public <T> List<T> fetch(Downstream downstream, ParameterizedTypeReference<List<T>> type, Simulation simulation,
                             Deadline deadline) {
        if (deadline.expired()) {
            throw deadline.exceeded(List.of(downstream), null);
        }
        Map<String, Object> query = simulation.asQueryParameters();
        // a URI template, not a built URI, so that http.client.requests gets a low-cardinality uri tag
        String template = downstream.catalogueUrl(urls) + query.keySet().stream()
                .map(name -> name + "={" + name + "}").collect(Collectors.joining("&", query.isEmpty() ? "" : "?", ""));
        meters.started();
        List<T> body;
        try {
            body = deadline.guard(() -> rest.get().uri(template, query)
                    .attribute(DownstreamObservationConvention.DOWNSTREAM, downstream) // client_name tag
                    // the downstream counts the calls it finishes after this budget (downstream_requests_late_total)
                    .header(CallBudget.HEADER, String.valueOf(deadline.remaining().toMillis()))
                    .retrieve().body(type));
        } catch (RestClientResponseException e) {
            throw new FanoutException(FanoutException.Kind.DOWNSTREAM_ERROR, downstream,
                    downstream.serviceName() + " answered " + e.getStatusCode().value(), e);
        } catch (RestClientException e) {
            // ResourceAccessException: no response; else an I/O failure while reading the body (timeout, reset,
            // cut short by the deadline's alarm), or a body that is not a catalogue
            IOException io = ioCause(e);
            if (io != null) {
                throw translate(downstream, deadline, io, e);
            }
            throw new FanoutException(FanoutException.Kind.DOWNSTREAM_ERROR, downstream,
                    downstream.serviceName() + " sent a body that is not its catalogue", e);
        } catch (RuntimeException e) {
            // HttpClient's own state errors: an alarm's cancel that lands while the exchange is still connecting
            // throws IllegalStateException "Endpoint not acquired / already released"; never a 500
            if (deadline.expired()) {
                throw deadline.exceeded(List.of(downstream), e);
            }
            if (e instanceof CancellationException || Thread.currentThread().isInterrupted()) {
                throw cancelled(downstream, e);
            }
            log.warn("call to " + downstream.serviceName() + " failed: " + e);   // the type stays out of the 502
            throw new FanoutException(FanoutException.Kind.DOWNSTREAM_ERROR, downstream,
                    downstream.serviceName() + " failed before it answered", e);
        } finally {
            meters.ended();
        }
        if (body == null) {
            throw new FanoutException(FanoutException.Kind.DOWNSTREAM_ERROR, downstream,
                    downstream.serviceName() + " answered with an empty body", null);
        }
        return body;
    }

    /** Called by the strategy's bookkeeping for a call that finished after its request had been answered. */
    public void wasted(String strategy, Downstream downstream) {
        meters.wasted(strategy, downstream.serviceName());
    }

    /**
     * I/O failures: once the deadline has run out, any of them is the deadline's (its alarm cancelled the call,
     * or a timeout cut short by the deadline fired); before it, which timeout fired decides the status.
     */
    private static FanoutException translate(Downstream downstream, Deadline deadline, IOException cause,
                                             RestClientException e) {
        String name = downstream.serviceName();
        if (deadline.expired()) {
            return deadline.exceeded(List.of(downstream), e);
        }
        if (cause instanceof ConnectionRequestTimeoutException) {
            return new FanoutException(FanoutException.Kind.POOL_EXHAUSTED, downstream,
                    "No pooled connection to " + name + " could be leased in time: the pool is saturated", e);
        }
        if (cause instanceof ConnectTimeoutException || cause instanceof ConnectException) {
            return new FanoutException(FanoutException.Kind.DOWNSTREAM_ERROR, downstream,
                    name + " could not be reached", e);
        }
        if (cause instanceof SocketTimeoutException) {
            return new FanoutException(FanoutException.Kind.DOWNSTREAM_TIMEOUT, downstream,
                    name + " sent no response within the response timeout", e);
        }
        // an interrupted virtual thread's socket read fails with SocketException "Closed by interrupt": a sibling's
        // cancellation (scopeFork), not a downstream's fault
        if (cause instanceof InterruptedIOException || cause instanceof RequestFailedException
                || Thread.currentThread().isInterrupted()) {
            return cancelled(downstream, e);
        }
        if (cause instanceof NoHttpResponseException) {
            return new FanoutException(FanoutException.Kind.DOWNSTREAM_ERROR, downstream,
                    name + " closed the connection without a response", e);
        }
        log.warn("call to " + name + " failed: " + cause);   // the type stays out of the 502 (a fixed text)
        return new FanoutException(FanoutException.Kind.DOWNSTREAM_ERROR, downstream,
                name + " reset or broke the connection", e);
    }

    private static FanoutException cancelled(Downstream downstream, RuntimeException e) {
        return new FanoutException(FanoutException.Kind.DOWNSTREAM_ERROR, downstream,
                "The call to " + downstream.serviceName() + " was cancelled", e);
    }

    private static @Nullable IOException ioCause(Throwable e) {
        for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
            if (cause instanceof IOException io) {
                return io;
            }
        }
        return null;
    }
}
