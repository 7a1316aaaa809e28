package lab.fanout.main.client;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import lab.fanout.common.CallBudget;
import lab.fanout.common.Simulation;
import lab.fanout.common.Slice;
import lab.fanout.main.config.FanoutProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import org.springframework.core.ParameterizedTypeReference;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * One GET of a downstream catalogue: blocking ({@link #fetch}, on the shared pooled Apache HttpClient, on whatever
 * thread the strategy chose) or reactive ({@link #fetchAsync}, on HttpClient's async client). Every failure leaves
 * as a {@link FanoutException} naming the downstream, translated the same way for both ({@link DownstreamFailures}).
 * No blocking call outlives its request's deadline ({@link Deadline}); a reactive one ends when its subscriber
 * cancels it. Each tells the downstream how long it will wait ({@link CallBudget}).
 */
@Component
public class DownstreamClient {

    /** DEBUG: one line per call, made where the call is made, with the context that reached it (RequestContext). */
    private static final Logger log = LoggerFactory.getLogger(DownstreamClient.class);

    private final RestClient rest;
    private final WebClient web;
    private final Map<Downstream, String> catalogueUrls = new EnumMap<>(Downstream.class);
    /** The query part of a URI template per set of knobs and slice parameters: at most 2^10 sets, each built once. */
    private final Map<Set<String>, String> queryTemplates = new ConcurrentHashMap<>();
    private final FanoutCallMeters meters;
    private final DownstreamBreakers breakers;

    DownstreamClient(RestClient downstreamRestClient, WebClient downstreamWebClient, FanoutProperties properties,
                     FanoutCallMeters meters, DownstreamBreakers breakers) {
        this.rest = downstreamRestClient;
        this.web = downstreamWebClient;
        for (Downstream downstream : Downstream.values()) {
            catalogueUrls.put(downstream, downstream.catalogueUrl(properties.downstreams()).toString());
        }
        this.meters = meters;
        this.breakers = breakers;
    }

    /**
     * @param slice      the part of the catalogue to fetch ({@link Slice#WHOLE}: all of it, without slice parameters)
     * @param type       the element type of the catalogue's JSON array
     * @param simulation forwarded as query parameters, as given: the caller picks the ones for this downstream
     * @param exchange   this call's exchange, which the deadline's alarm, or the caller, may cancel from any thread
     * @return the catalogue, or the slice of it, never null
     * @throws FanoutException for any failure: DOWNSTREAM_ERROR (also when the exchange was cancelled),
     *                         DOWNSTREAM_TIMEOUT, POOL_EXHAUSTED, DEADLINE_EXCEEDED, or CIRCUIT_OPEN when the
     *                         downstream's breaker refuses the call ({@link DownstreamBreakers})
     */
    public <T> List<T> fetch(Downstream downstream, Slice slice, ParameterizedTypeReference<List<T>> type,
                             Simulation simulation, Deadline deadline, Exchange exchange) {
        if (deadline.expired()) {
            throw deadline.exceeded(List.of(downstream), null);
        }
        DownstreamBreakers.Permit permit = breakers.acquire(downstream);
        Map<String, Object> query = query(slice, simulation);
        logCall(downstream, slice);
        meters.started();
        List<T> body;
        try {
            body = deadline.guard(exchange, () -> rest.get().uri(template(downstream, query), query)
                    .attribute(DownstreamObservationConvention.DOWNSTREAM, downstream) // client_name tag
                    // the downstream counts the calls it finishes after this budget (downstream_requests_late_total)
                    .header(CallBudget.HEADER, String.valueOf(deadline.remaining().toMillis()))
                    .retrieve().body(type));
        } catch (RuntimeException e) {
            // cancelled by its caller (a hedged call's loser, a failed sibling's scope), not by a fault: no warning
            boolean cancelled = (exchange.cancelled() || Thread.currentThread().isInterrupted()) && !deadline.expired();
            FanoutException failure = cancelled ? DownstreamFailures.cancelled(downstream, e)
                    : DownstreamFailures.of(downstream, deadline, e);
            permit.failed(failure, cancelled);
            throw failure;
        } finally {
            meters.ended();
        }
        if (body == null) {
            FanoutException failure = DownstreamFailures.emptyBody(downstream);
            permit.failed(failure, false);
            throw failure;
        }
        permit.succeeded();
        return body;
    }

    /**
     * The same call as {@link #fetch}, as a cold {@code Mono}: the call starts on subscription and runs on
     * HttpClient's I/O reactor threads (Reactor Netty's event loops with {@code fanout.reactive.client=reactor-netty});
     * cancelling the subscription aborts it and closes its connection ({@link CancellableConnector}, or Reactor Netty
     * itself). The deadline is the subscriber's to enforce ({@code Mono.timeout}).
     *
     * @return the catalogue, or an error signal that is always a {@link FanoutException}: DOWNSTREAM_ERROR,
     *         DOWNSTREAM_TIMEOUT, POOL_EXHAUSTED, CIRCUIT_OPEN, or DEADLINE_EXCEEDED if the deadline had run out
     *         before it started
     */
    public <T> Mono<List<T>> fetchAsync(Downstream downstream, Slice slice, ParameterizedTypeReference<List<T>> type,
                                        Simulation simulation, Deadline deadline) {
        return Mono.defer(() -> {
            if (deadline.expired()) {
                return Mono.error(deadline.exceeded(List.of(downstream), null));
            }
            DownstreamBreakers.Permit permit = breakers.acquire(downstream);
            Map<String, Object> query = query(slice, simulation);
            logCall(downstream, slice);
            meters.started();
            return web.get().uri(template(downstream, query), query)
                    .attribute(DownstreamObservationConvention.DOWNSTREAM, downstream)
                    .header(CallBudget.HEADER, String.valueOf(deadline.remaining().toMillis()))
                    .retrieve().bodyToMono(type)
                    .switchIfEmpty(Mono.error(() -> DownstreamFailures.emptyBody(downstream)))
                    .onErrorMap(e -> !(e instanceof Error), e -> DownstreamFailures.of(downstream, deadline, e))
                    .doOnSuccess(body -> permit.succeeded())
                    .doOnError(FanoutException.class, failure -> permit.failed(failure, false))
                    .doOnCancel(permit::cancelled)
                    .doFinally(signal -> meters.ended());
        });
    }

    /** The MDC (traceId, spanId, requestId) is the log event's; the ScopedValue and the ThreadLocal are read here. */
    private static void logCall(Downstream downstream, Slice slice) {
        if (log.isDebugEnabled()) {
            log.debug("GET {} slice {}/{}: {}", downstream.serviceName(), slice.index(), slice.count(),
                    RequestContext.seenHere());
        }
    }

    /** @return the fan-out's call meters: hedging's counters and the recent latency per downstream */
    public FanoutCallMeters meters() {
        return meters;
    }

    /** @return the circuit breakers, one per downstream */
    public DownstreamBreakers breakers() {
        return breakers;
    }

    /** Called by the strategy's bookkeeping for a call that finished after its request had been answered. */
    public void wasted(String strategy, Downstream downstream) {
        meters.wasted(strategy, downstream.serviceName());
    }

    /** @return the slice's parameters, then the knobs' (a fixed order per set of names: see {@link #template}) */
    private static Map<String, Object> query(Slice slice, Simulation simulation) {
        Map<String, Object> query = slice.asQueryParameters();
        query.putAll(simulation.asQueryParameters());
        return query;
    }

    /**
     * @return a URI template, not a built URI, so that http.client.requests gets a low-cardinality uri tag; built once
     * per set of knobs (the names come in a fixed order, {@link Simulation#asQueryParameters})
     */
    private String template(Downstream downstream, Map<String, Object> query) {
        String queryTemplate = queryTemplates.get(query.keySet());
        if (queryTemplate == null) {
            queryTemplate = query.keySet().stream().map(name -> name + "={" + name + "}")
                    .collect(Collectors.joining("&", query.isEmpty() ? "" : "?", ""));
            queryTemplates.putIfAbsent(Set.copyOf(query.keySet()), queryTemplate);
        }
        return catalogueUrls.get(downstream) + queryTemplate;
    }
}
