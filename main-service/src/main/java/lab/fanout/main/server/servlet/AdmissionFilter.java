package lab.fanout.main.server.servlet;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import lab.fanout.main.admission.Admission;
import lab.fanout.main.admission.Refusal;
import lab.fanout.main.server.FanoutProblems;
import tools.jackson.databind.ObjectMapper;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.filter.ServerHttpObservationFilter;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.util.ServletRequestPathUtils;

/**
 * The first thing a fan-out request meets, before Spring MVC's dispatch: past the limit on requests in flight
 * ({@link Admission}) it is answered problem+json of type {@code overloaded} at once, status 429 (or 503,
 * {@code fanout.admission.refusal-status}), with {@code Retry-After}, naming the limit and the count in flight, and no
 * downstream is called. 429 by default because Tomcat closes the connection after any 503 ({@code Http11Processor.
 * statusDropsConnection}), whatever the application asks: a client refused many times would reconnect each time. A request that waited for a platform request
 * thread past the deadline ({@link QueuedRequests}) is answered so too, without starting: its client has most likely
 * given up, and serving it would only delay the requests behind it.
 * <p>
 * An admitted request holds its permit until it is answered: for the reactive strategy, until its async request
 * completes, not when the request thread is released.
 * <p>
 * A refused request never reaches Spring MVC, so nothing would give its {@code http.server.requests} observation a
 * route: its {@code uri} tag would read {@code UNKNOWN}. The filter asks Spring MVC's handler mapping for the route
 * template the request would have been served under and sets it on the observation, as Spring MVC does on a match;
 * a request that matches no route keeps {@code UNKNOWN} (its raw path would be a series per path).
 */
final class AdmissionFilter extends OncePerRequestFilter {

    private final Admission admission;
    private final Duration deadline;
    private final long retryAfterSeconds;
    private final int status;
    private final ObjectMapper json;
    private final Supplier<HandlerMapping> routes;

    /**
     * @param status the overloaded answer's HTTP status, 429 or 503
     * @param routes Spring MVC's {@code @RequestMapping} handler mapping, looked up at the first refusal
     */
    AdmissionFilter(Admission admission, Duration deadline, Duration retryAfter, int status, ObjectMapper json,
                    Supplier<HandlerMapping> routes) {
        this.admission = admission;
        this.deadline = deadline;
        this.retryAfterSeconds = Math.max(1, retryAfter.toSeconds());
        this.status = status;
        this.json = json;
        this.routes = routes;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        OptionalLong queuedAt = QueuedRequests.takeQueuedAt();
        long queuedNanos = queuedAt.isPresent() ? System.nanoTime() - queuedAt.getAsLong() : 0;
        queuedAt.ifPresent(at -> admission.queued(queuedNanos));
        if (queuedNanos > deadline.toNanos() && admission.limit().isPresent()) {   // mode off: the baseline, no shedding
            admission.expired();
            overloaded(request, response, Refusal.queuedPastDeadline(status, queuedNanos / 1_000_000,
                    deadline.toMillis()));
            return;
        }
        Optional<Admission.Ticket> ticket = admission.tryAdmit();
        if (ticket.isEmpty()) {
            int limit = admission.limit().orElseThrow();   // mode off admits every request
            overloaded(request, response, Refusal.atLimit(status, limit, admission.inFlight(), retryAfterSeconds));
            return;
        }
        try {
            chain.doFilter(request, response);
        } catch (IOException | ServletException | RuntimeException | Error e) {
            ticket.get().release(HttpStatus.INTERNAL_SERVER_ERROR.value());   // rendered later, by the error valve
            throw e;
        }
        if (request.isAsyncStarted()) {
            request.getAsyncContext().addListener(new ReleaseWhenComplete(ticket.get()));
        } else {
            ticket.get().release(response.getStatus());
        }
    }

    private void overloaded(HttpServletRequest request, HttpServletResponse response, Refusal refusal)
            throws IOException {
        observeRoute(request);
        response.setStatus(status);
        response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds));
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.setCharacterEncoding("UTF-8");
        response.getWriter().write(json.writeValueAsString(FanoutProblems.members(FanoutProblems.refusal(refusal))));
    }

    /** Sets the route template of the request's handler, if any, on its {@code http.server.requests} observation. */
    private void observeRoute(HttpServletRequest request) {
        var observation = ServerHttpObservationFilter.findObservationContext(request);
        if (observation.isEmpty()) {
            return;
        }
        if (!ServletRequestPathUtils.hasParsedRequestPath(request)) {
            ServletRequestPathUtils.parseAndCache(request);   // what DispatcherServlet does before its handler mappings
        }
        try {
            routes.get().getHandler(request);   // on a match sets BEST_MATCHING_PATTERN_ATTRIBUTE
        } catch (Exception e) {
            return;   // no handler for this method or media type: it stays UNKNOWN
        }
        if (request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE) instanceof String pattern) {
            observation.get().setPathPattern(pattern);
        }
    }

    /** Releases the permit when the async request ends, however it ends (answer, timeout, error, client gone). */
    private static final class ReleaseWhenComplete implements AsyncListener {

        private final Admission.Ticket ticket;
        private final AtomicBoolean released = new AtomicBoolean();

        ReleaseWhenComplete(Admission.Ticket ticket) {
            this.ticket = ticket;
        }

        @Override
        public void onComplete(AsyncEvent event) {
            if (released.compareAndSet(false, true)) {
                ticket.release(((HttpServletResponse) event.getSuppliedResponse()).getStatus());
            }
        }

        @Override
        public void onTimeout(AsyncEvent event) {
            // onComplete follows once the timeout's answer is written
        }

        @Override
        public void onError(AsyncEvent event) {
            // onComplete follows
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
            // a new async cycle of the same request: this listener is not carried over, so keep the permit on it
            event.getAsyncContext().addListener(this);
        }
    }
}
