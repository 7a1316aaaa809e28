package lab.fanout.main.server.reactive;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

import lab.fanout.main.admission.Admission;
import lab.fanout.main.admission.Refusal;
import lab.fanout.main.server.FanoutProblems;
import lab.fanout.main.web.Backoffice;
import reactor.core.publisher.Mono;
import tools.jackson.databind.ObjectMapper;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import org.springframework.web.util.pattern.PathPattern;

/**
 * {@link AdmissionFilter}'s admission control on Spring WebFlux (the {@code netty} profile): the same limit
 * ({@link Admission}), the same overloaded answer (status, {@code Retry-After}, problem+json naming the limit and the
 * count in flight), counted under the route the request would have been served under. An admitted request holds its
 * permit until its answer is complete or its client has gone ({@code doFinally}). No queue-time expiry: Netty queues no
 * request for a thread.
 */
final class ReactiveAdmissionFilter implements WebFilter {

    private static final String API = Backoffice.API + "/";

    private final Admission admission;
    private final long retryAfterSeconds;
    private final HttpStatusCode status;
    private final ObjectMapper json;
    private final Supplier<HandlerMapping> routes;

    /**
     * @param status the overloaded answer's HTTP status, 429 or 503
     * @param routes WebFlux's {@code @RequestMapping} handler mapping, looked up at the first refusal: the refused
     *               request's route template
     */
    ReactiveAdmissionFilter(Admission admission, Duration retryAfter, int status, ObjectMapper json,
                            Supplier<HandlerMapping> routes) {
        this.admission = admission;
        this.retryAfterSeconds = Math.max(1, retryAfter.toSeconds());
        this.status = HttpStatusCode.valueOf(status);
        this.json = json;
        this.routes = routes;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (!exchange.getRequest().getPath().pathWithinApplication().value().startsWith(API)) {
            return chain.filter(exchange);
        }
        Optional<Admission.Ticket> ticket = admission.tryAdmit();
        if (ticket.isEmpty()) {
            int limit = admission.limit().orElseThrow();   // mode off admits every request
            Refusal refusal = Refusal.atLimit(status.value(), limit, admission.inFlight(), retryAfterSeconds);
            return observeRoute(exchange).then(Mono.defer(() -> overloaded(exchange.getResponse(), refusal)));
        }
        return chain.filter(exchange).doFinally(signal -> {
            HttpStatusCode answered = exchange.getResponse().getStatusCode();
            ticket.get().release(answered == null ? HttpStatus.OK.value() : answered.value());
        });
    }

    private Mono<Void> overloaded(ServerHttpResponse response, Refusal refusal) {
        response.setStatusCode(status);
        response.getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds));
        response.getHeaders().setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        String body = json.writeValueAsString(FanoutProblems.members(FanoutProblems.refusal(refusal)));
        return response.writeWith(Mono.just(response.bufferFactory().wrap(body.getBytes(StandardCharsets.UTF_8))));
    }

    /** Sets the route template of the request's handler, if any, on its {@code http.server.requests} observation. */
    private Mono<Void> observeRoute(ServerWebExchange exchange) {
        var observation = ServerRequestObservationContext.findCurrent(exchange.getAttributes());
        if (observation.isEmpty()) {
            return Mono.empty();
        }
        return routes.get().getHandler(exchange)   // on a match sets BEST_MATCHING_PATTERN_ATTRIBUTE
                .doOnNext(handler -> {
                    if (exchange.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE)
                            instanceof PathPattern pattern) {
                        observation.get().setPathPattern(pattern.getPatternString());
                    }
                })
                .onErrorResume(e -> Mono.empty())   // no handler for this method or media type: it stays UNKNOWN
                .then();
    }
}
