package lab.fanout.main.client;

import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import lab.fanout.common.Simulation;
import lab.fanout.main.config.DownstreamObservationConvention;
import lab.fanout.main.config.FanoutProperties;
import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.client5.http.impl.classic.RequestFailedException;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;

import org.springframework.core.ParameterizedTypeReference;
import org.springframework.stereotype.Component;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;
import org.springframework.web.client.RestClientResponseException;

/**
 * One blocking GET of a downstream catalogue, on the shared pooled Apache HttpClient. Runs on whatever thread the
 * strategy chose; every failure leaves as a {@link FanoutException} naming the downstream.
 */
@Component
public class DownstreamClient {

    private final RestClient rest;
    private final FanoutProperties.Downstreams urls;

    DownstreamClient(RestClient downstreamRestClient, FanoutProperties properties) {
        this.rest = downstreamRestClient;
        this.urls = properties.downstreams();
    }

    /**
     * @param type       the element type of the catalogue's JSON array
     * @param simulation forwarded as query parameters
     * @return the catalogue, never null
     * @throws FanoutException for any failure: DOWNSTREAM_ERROR, DOWNSTREAM_TIMEOUT, POOL_EXHAUSTED or
     *                         DEADLINE_EXCEEDED
     */
    public <T> List<T> fetch(Downstream downstream, ParameterizedTypeReference<List<T>> type, Simulation simulation,
                             Deadline deadline) {
        if (deadline.expired()) {
            throw deadlineExceeded(downstream, deadline, null);
        }
        Map<String, Object> query = simulation.asQueryParameters();
        // a URI template, not a built URI, so that http.client.requests gets a low-cardinality uri tag
        String template = downstream.catalogueUrl(urls) + query.keySet().stream()
                .map(name -> name + "={" + name + "}").collect(Collectors.joining("&", query.isEmpty() ? "" : "?", ""));
        try {
            List<T> body = deadline.bind(() -> rest.get().uri(template, query)
                    .attribute(DownstreamObservationConvention.DOWNSTREAM, downstream) // client_name tag
                    .retrieve().body(type));
            if (body == null) {
                throw new FanoutException(FanoutException.Kind.DOWNSTREAM_ERROR, downstream,
                        downstream.serviceName() + " answered with an empty body", null);
            }
            return body;
        } catch (RestClientResponseException e) {
            throw new FanoutException(FanoutException.Kind.DOWNSTREAM_ERROR, downstream,
                    downstream.serviceName() + " answered " + e.getStatusCode().value(), e);
        } catch (ResourceAccessException e) {
            throw translate(downstream, deadline, e);
        } catch (RestClientException e) {
            throw new FanoutException(FanoutException.Kind.DOWNSTREAM_ERROR, downstream,
                    downstream.serviceName() + " sent a body that is not its catalogue", e);
        }
    }

    /** I/O failures: which timeout fired decides the status; a timeout cut short by the deadline is the deadline's. */
    private static FanoutException translate(Downstream downstream, Deadline deadline, ResourceAccessException e) {
        Throwable cause = e.getCause();
        String name = downstream.serviceName();
        if (cause instanceof ConnectionRequestTimeoutException) {
            return deadline.expired() ? deadlineExceeded(downstream, deadline, e)
                    : new FanoutException(FanoutException.Kind.POOL_EXHAUSTED, downstream,
                    "No pooled connection to " + name + " could be leased in time: the pool is saturated", e);
        }
        if (cause instanceof ConnectTimeoutException || cause instanceof ConnectException) {
            return new FanoutException(FanoutException.Kind.DOWNSTREAM_ERROR, downstream,
                    name + " could not be reached", e);
        }
        if (cause instanceof SocketTimeoutException) {
            return deadline.expired() ? deadlineExceeded(downstream, deadline, e)
                    : new FanoutException(FanoutException.Kind.DOWNSTREAM_TIMEOUT, downstream,
                    name + " sent no response within the response timeout", e);
        }
        if (cause instanceof InterruptedIOException || cause instanceof RequestFailedException) {
            return new FanoutException(FanoutException.Kind.DOWNSTREAM_ERROR, downstream,
                    "The call to " + name + " was cancelled", e);
        }
        return new FanoutException(FanoutException.Kind.DOWNSTREAM_ERROR, downstream,
                name + " failed: " + (cause != null ? cause.getClass().getSimpleName() : "I/O error"), e);
    }

    static FanoutException deadlineExceeded(Downstream downstream, Deadline deadline, Throwable cause) {
        return new FanoutException(FanoutException.Kind.DEADLINE_EXCEEDED, downstream,
                "The request's deadline of " + deadline.budget().toMillis() + " ms ran out while waiting for "
                        + downstream.serviceName(), cause);
    }
}
