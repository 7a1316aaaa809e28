package lab.fanout.main.admission;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import lab.fanout.common.Problems;
import tools.jackson.databind.ObjectMapper;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The first thing a fan-out request meets, before Spring MVC's dispatch: past the limit on requests in flight
 * ({@link Admission}) it is answered 503 problem+json of type {@code overloaded} at once, with {@code Retry-After},
 * naming the limit and the count in flight, and no downstream is called. A request that waited for a platform request
 * thread past the deadline ({@link QueuedRequests}) is answered so too, without starting: its client has most likely
 * given up, and serving it would only delay the requests behind it.
 * <p>
 * An admitted request holds its permit until it is answered: for the reactive strategy, until its async request
 * completes, not when the request thread is released.
 */
final class AdmissionFilter extends OncePerRequestFilter {

    static final String TYPE_NAME = "overloaded";

    private final Admission admission;
    private final Duration deadline;
    private final long retryAfterSeconds;
    private final ObjectMapper json;

    AdmissionFilter(Admission admission, Duration deadline, Duration retryAfter, ObjectMapper json) {
        this.admission = admission;
        this.deadline = deadline;
        this.retryAfterSeconds = Math.max(1, retryAfter.toSeconds());
        this.json = json;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        OptionalLong queuedAt = QueuedRequests.queuedAt();
        long queuedNanos = queuedAt.isPresent() ? System.nanoTime() - queuedAt.getAsLong() : 0;
        if (queuedNanos > deadline.toNanos()) {
            admission.expired();
            overloaded(response, "The request waited " + queuedNanos / 1_000_000 + " ms for a request thread, past its"
                    + " deadline of " + deadline.toMillis() + " ms, and was not started", Map.of("queuedMs",
                    queuedNanos / 1_000_000, "deadlineMs", deadline.toMillis()));
            return;
        }
        Optional<Admission.Ticket> ticket = admission.tryAdmit();
        if (ticket.isEmpty()) {
            int limit = admission.limit().orElseThrow();   // mode off admits every request
            overloaded(response, "main-service holds " + limit + " requests in flight at most and is at that"
                    + " limit; retry after " + retryAfterSeconds + " s", Map.of("limit", limit,
                    "inFlight", admission.inFlight()));
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

    private void overloaded(HttpServletResponse response, String detail, Map<String, Object> properties)
            throws IOException {
        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("type", Problems.type(TYPE_NAME).toString());
        problem.put("title", "Overloaded");
        problem.put("status", HttpStatus.SERVICE_UNAVAILABLE.value());
        problem.put("detail", detail);
        problem.putAll(properties);
        response.setStatus(HttpStatus.SERVICE_UNAVAILABLE.value());
        response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds));
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.setCharacterEncoding("UTF-8");
        response.getWriter().write(json.writeValueAsString(problem));
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
