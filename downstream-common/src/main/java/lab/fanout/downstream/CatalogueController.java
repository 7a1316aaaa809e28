package lab.fanout.downstream;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import lab.fanout.common.BadParameterException;
import lab.fanout.common.CallBudget;
import lab.fanout.common.Simulation;
import lab.fanout.common.Slice;
import org.jspecify.annotations.Nullable;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;

/**
 * {@code GET {path}} (the whole catalogue, or one {@link Slice} of it) and {@code GET {path}/{id}}: the catalogue, after the simulated latency, with the faults the
 * request's {@link Simulation} knobs or {@code downstream.faults.*} ask for ({@link FaultPlan}).
 * Request threads are virtual (see downstream-defaults.yml), so a sleeping request holds no platform thread. Where
 * the catalogue is kept, and so where the latency is spent, is the {@link CatalogueStore}'s business; a
 * {@link NonBlockingCatalogueStore} is answered asynchronously (a {@link DeferredResult}): the request's thread is
 * released while the store works, and a new virtual thread writes the answer.
 * <p>
 * Before answering, it looks whether the caller is still there ({@link AbandonedAndLateMeters}): a caller that gave up has
 * closed the connection, and the answer is dropped and counted as abandoned. A request that carries the caller's
 * budget ({@link CallBudget}) stops {@link #BUDGET_GRACE} after it runs out, whatever latency or dribble it was asked
 * for: the connection is closed without an answer and the request counts as late.
 */
@RestController
class CatalogueController {

    /** A dribbled body arrives in this many writes, spread evenly over the dribble time. */
    static final int DRIBBLE_CHUNKS = 10;

    /** How long past the caller's budget a request may still run before it is stopped (see serve). */
    static final Duration BUDGET_GRACE = Duration.ofSeconds(1);

    private static final String SLICE_RANGE = "must be between 0 and " + (Slice.MAX_COUNT - 1);
    private static final String SLICES_RANGE = "must be between 1 and " + Slice.MAX_COUNT;

    private static final long NO_BUDGET = TimeUnit.HOURS.toNanos(1);

    /**
     * An asynchronous answer's container timeout, ms: none (0). The store's stage ends by itself (its pool's acquire
     * timeout, the caller's budget, its read timeout); Tomcat's default of 30 s would cut a longer latency short.
     */
    private static final long NO_CONTAINER_TIMEOUT = 0;

    private final CatalogueStore store;
    private final DownstreamProperties properties;
    private final AbandonedAndLateMeters meters;
    private final DownstreamMetrics metrics;

    CatalogueController(CatalogueStore store, DownstreamProperties properties, AbandonedAndLateMeters meters,
                        DownstreamMetrics metrics) {
        this.store = store;
        this.properties = properties;
        this.meters = meters;
        this.metrics = metrics;
    }

    /**
     * @param slice  which part of {@code slices} to serve (0-based; {@link Slice}), default 0
     * @param slices how many parts the catalogue is cut into, 1..{@value Slice#MAX_COUNT}, default 1 (the whole)
     * @return null when answered on the request's thread; with a {@link NonBlockingCatalogueStore}, the answer to
     *         come (completed once written, or with the exception to render as problem+json)
     * @throws BadParameterException when {@code slice} is not below {@code slices}
     */
    @GetMapping(path = "${downstream.path}", produces = MediaType.APPLICATION_JSON_VALUE)
    @Nullable DeferredResult<Void> all(@Valid Simulation simulation,
             @RequestParam(name = Slice.INDEX_PARAMETER, defaultValue = "0")
             @Min(value = 0, message = SLICE_RANGE) @Max(value = Slice.MAX_COUNT - 1, message = SLICE_RANGE) int slice,
             @RequestParam(name = Slice.COUNT_PARAMETER, defaultValue = "1")
             @Min(value = 1, message = SLICES_RANGE) @Max(value = Slice.MAX_COUNT, message = SLICES_RANGE) int slices,
             @RequestHeader(name = CallBudget.HEADER, required = false) @Nullable Long budgetMs,
             HttpServletRequest request, HttpServletResponse response) throws InterruptedException {
        Slice part;
        try {
            part = new Slice(slice, slices);
        } catch (IllegalArgumentException e) {
            throw new BadParameterException(e.getMessage());
        }
        return serve(simulation, budgetMs, request, response, new CatalogueStore.Part(part));
    }

    /** One item by its {@code id}; 404 problem+json if none has it. @return as {@link #all} */
    @GetMapping(path = "${downstream.path}/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    @Nullable DeferredResult<Void> one(@PathVariable String id, @Valid Simulation simulation,
             @RequestHeader(name = CallBudget.HEADER, required = false) @Nullable Long budgetMs,
             HttpServletRequest request, HttpServletResponse response) throws InterruptedException {
        return serve(simulation, budgetMs, request, response, new CatalogueStore.Item(id));
    }

    private @Nullable DeferredResult<Void> serve(Simulation simulation, @Nullable Long budgetMs,
                                                 HttpServletRequest request, HttpServletResponse response,
                                                 CatalogueStore.Query what) throws InterruptedException {
        long received = System.nanoTime();
        // the caller stops waiting when its budget runs out, so work past it holds this request and the caller's
        // connection for nothing; the grace lets the caller's own timeout fire first, so that it reads as a timeout
        // (no budget, or a huge one: an hour, longer than any simulation; nanoTime instants compare by difference)
        long budget = budgetMs == null ? NO_BUDGET : Math.min(NO_BUDGET, TimeUnit.MILLISECONDS.toNanos(Math.max(0, budgetMs)));
        long giveUpAt = received + budget + BUDGET_GRACE.toNanos();
        FaultPlan plan = FaultPlan.draw(simulation, properties, ThreadLocalRandom.current());
        Exchange exchange = new Exchange(what, plan, received, budgetMs, giveUpAt, response);
        // a request drawn to fail reads nothing, but waits its delay (a tail) where a read would have waited
        CatalogueStore.Query read = plan.close() || plan.errorStatus() != null ? null : what;
        if (store instanceof NonBlockingCatalogueStore nonBlocking) {
            ConnectionControl connection = ConnectionControl.of(request);
            DeferredResult<Void> answer = new DeferredResult<>(NO_CONTAINER_TIMEOUT);
            nonBlocking.fetchLater(read, plan.delay(), giveUpAt).whenComplete((fetched, failure) -> Thread.ofVirtual()
                    .name("catalogue-answer").start(() -> answerLater(exchange, connection, fetched, failure, answer)));
            return answer;   // the request's thread goes back now; answerLater writes once the store is done
        }
        try {
            answer(exchange, ConnectionControl.of(request), store.fetch(read, plan.delay(), giveUpAt));
        } finally {
            countIfLate(exchange);
        }
        return null;
    }

    /** The rest of {@link #serve} for a {@link NonBlockingCatalogueStore}, on a virtual thread of its own. */
    private void answerLater(Exchange exchange, ConnectionControl connection, CatalogueStore.@Nullable Fetched fetched,
                             @Nullable Throwable failure, DeferredResult<Void> answer) {
        Throwable outcome = failure instanceof CompletionException wrapped && wrapped.getCause() != null
                ? wrapped.getCause() : failure;
        if (outcome == null && fetched != null) {
            try {
                answer(exchange, connection, fetched);
            } catch (InterruptedException | RuntimeException e) {
                outcome = e;
            }
        }
        countIfLate(exchange);
        metrics.asyncAnswerEnded();   // here, not in an interceptor: a closed connection may get no ASYNC dispatch
        if (outcome == null) {
            answer.setResult(null);   // answered (or closed): nothing left for Spring MVC to render
        } else {
            answer.setErrorResult(outcome);   // rendered by the exception handlers, as when thrown
        }
    }

    private void answer(Exchange exchange, ConnectionControl connection, CatalogueStore.Fetched fetched)
            throws InterruptedException {
        FaultPlan plan = exchange.plan();
        metrics.recordSimulatedIo(fetched.io());
        if (!fetched.inTime()) {
            connection.closeNow();   // counted as late below
        } else if (connection.callerHasClosed()) {
            meters.abandoned();
            connection.closeNow();
        } else if (plan.close()) {
            connection.closeNow();
        } else if (plan.errorStatus() != null) {
            throw new InjectedFaultException(plan.errorStatus());
        } else if (fetched.json() == null) {
            // a part is always an array, perhaps empty: only an item can be missing
            CatalogueStore.Query what = exchange.what();
            throw new UnknownIdException(properties.path(), what instanceof CatalogueStore.Item item ? item.id()
                    : what.toString());
        } else if (!write(fetched.json(), plan.dribble(), exchange.giveUpAt(), exchange.response())) {
            meters.abandoned();
            connection.closeNow();
        }
    }

    private void countIfLate(Exchange exchange) {
        // a negative budget had run out on arrival; toNanos saturates instead of overflowing
        Long budgetMs = exchange.budgetMs();
        if (budgetMs != null && System.nanoTime() - exchange.received() > TimeUnit.MILLISECONDS.toNanos(budgetMs)) {
            meters.late();
        }
    }

    /** One request's particulars, from its arrival to its answer. */
    private record Exchange(CatalogueStore.Query what, FaultPlan plan, long received, @Nullable Long budgetMs,
                            long giveUpAt, HttpServletResponse response) {
    }

    /** @return false if the caller closed the connection while the body was being written, or the budget ran out */
    private static boolean write(byte[] body, Duration dribble, long giveUpAt, HttpServletResponse response)
            throws InterruptedException {
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        response.setContentLength(body.length);
        int chunks = dribble.isPositive() ? Math.min(DRIBBLE_CHUNKS, body.length) : 1;
        try {
            OutputStream out = response.getOutputStream();
            for (int i = 0; i < chunks; i++) {
                if (i > 0 && !DownstreamMetrics.sleepUntil(System.nanoTime() + dribble.dividedBy(chunks - 1).toNanos(),
                        giveUpAt)) {
                    return false;
                }
                int from = i * body.length / chunks;
                int to = (i + 1) * body.length / chunks;
                out.write(body, from, to - from);
                if (chunks > 1) {
                    out.flush();
                }
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
