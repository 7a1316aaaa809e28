package lab.fanout.main.web;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import lab.fanout.common.BadParameterException;
import lab.fanout.common.PollerMode;
import lab.fanout.common.Simulation;
import lab.fanout.main.client.Deadline;
import lab.fanout.main.client.Downstream;
import lab.fanout.main.client.DownstreamClient;
import lab.fanout.main.client.FanoutException;
import lab.fanout.main.client.RequestContext;
import lab.fanout.main.config.FanoutProperties;
import lab.fanout.main.strategy.AsyncFanoutStrategy;
import lab.fanout.main.strategy.FanoutCalls;
import lab.fanout.main.strategy.FanoutStrategy;
import lab.fanout.main.strategy.Fetched;
import lab.fanout.main.strategy.Hedging;
import lab.fanout.main.strategy.OnDeadline;
import lab.fanout.main.strategy.Pinning;
import lab.fanout.main.strategy.Recycler;
import lab.fanout.main.strategy.StrategyName;
import lab.fanout.main.strategy.StrategyRegistry;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;

/**
 * One request of {@code GET /backoffice/api/v1/backoffice/orders}, whichever server runs it: the checks of parameters
 * that only go wrong together, the refusal while a breaker is open, the chosen strategy's fan-out, and the answer or
 * the problem with its headers. The web layers (Spring MVC's {@code server.servlet.BackofficeController} on Tomcat,
 * WebFlux's {@code server.reactive.ReactiveBackofficeController} on Reactor Netty) only bind the query and hand the
 * result to their server, so the two answer alike.
 * <p>
 * Headers: {@code Server-Timing} (each call's duration and the total, in ms), {@code X-Fanout-Strategy} and
 * {@code X-Fanout-Request-Thread} ({@code virtual} or {@code platform}: the thread that ran the fan-out's start), on the
 * fan-out's errors too; with {@code cpuMs} above 0, {@code X-Fanout-Cpu-Thread}: the name of the thread that spent it
 * ({@code virtual} for an unnamed virtual thread). With {@code onDeadline=partial}, a 200 that lacks a downstream's
 * catalogue carries {@code X-Fanout-Missing}: the downstreams whose calls had not answered by the deadline, e.g.
 * {@code accounts} or {@code orders, accounts} ({@link OrderView#join} shows the gaps as null accounts and products).
 */
@Component
public class Backoffice {

    /** The fan-out API's root, the part admission control covers; no trailing slash. */
    public static final String API = "/backoffice/api";
    /** The controllers' mapping, both servers'. */
    public static final String PATH = API + "/v1/backoffice";
    /** The fan-out endpoint. */
    public static final String ORDERS = PATH + "/orders";

    public static final String STRATEGY_HEADER = "X-Fanout-Strategy";
    public static final String THREAD_HEADER = "X-Fanout-Request-Thread";
    public static final String CPU_THREAD_HEADER = "X-Fanout-Cpu-Thread";
    /** Under {@code onDeadline=partial}: the downstreams missing from a 200, by their Server-Timing names. */
    public static final String MISSING_HEADER = "X-Fanout-Missing";
    /** The caller's request id, if any: bound for the fan-out's calls and their log lines ({@link RequestContext}). */
    public static final String REQUEST_ID_HEADER = "X-Request-Id";
    /** The messages of the {@code width} and {@code cpuMs} range constraints, the same on every server. */
    public static final String WIDTH_RANGE = "must be between 1 and " + FanoutCalls.MAX_WIDTH;
    /** CPU-ms per request at most ({@link CpuWork}). */
    public static final int MAX_CPU_MS = CpuWork.MAX_MS;
    public static final String CPU_RANGE = "must be between 0 and " + CpuWork.MAX_MS + " (CPU-ms per request)";

    private final StrategyRegistry strategies;
    private final DownstreamClient client;
    private final Duration deadline;

    Backoffice(StrategyRegistry strategies, DownstreamClient client, FanoutProperties properties) {
        this.strategies = strategies;
        this.client = client;
        this.deadline = properties.deadline();
    }

    /**
     * Checks the parameters and the breakers; the clock of {@code Server-Timing}'s total and of the deadline starts
     * here. Parameters as bound by the web layer (ranges: {@code server.servlet.BackofficeController#orders}).
     *
     * @param hedging null: no hedging
     * @param recycler where each call takes its work buffer from ({@link Recycler}); any value with any strategy
     * @param onDeadline {@code fail}: 504 at the deadline; {@code partial}: 200 with what arrived
     * @return the fan-out, not started yet
     * @throws BadParameterException 400 for hedging with a strategy that cannot hedge, or pinning with one that blocks
     *                               no thread
     * @throws FanoutException       503 {@code breaker-open} while a downstream's breaker is open (no call is made)
     */
    public Fanout begin(StrategyName concurrency, Simulation simulation, int width, @Nullable Hedging hedging,
                        int cpuMs, Pinning pinning, Recycler recycler, OnDeadline onDeadline) {
        FanoutStrategy strategy = strategies.get(concurrency);
        if (hedging != null && !strategy.hedges()) {
            throw new BadParameterException("hedgeAfterMs: " + concurrency + " makes one call at a time and cannot"
                    + " send a second copy of a slow one; hedge with one of " + hedgingStrategies());
        }
        if (pinning != Pinning.NONE && strategy instanceof AsyncFanoutStrategy) {
            throw new BadParameterException("pinning: " + concurrency + " blocks no thread while its calls run, so"
                    + " nothing can pin; only " + Pinning.NONE + " goes with it. Pin with one of "
                    + blockingStrategies());
        }
        Fanout fanout = new Fanout(concurrency, strategy, new FanoutCalls(client, simulation, Deadline.after(deadline),
                width, hedging == null ? Hedging.OFF : hedging, pinning, recycler, onDeadline, concurrency.toString()),
                cpuMs);
        try {
            client.breakers().refuseIfAnyOpen();   // the answer needs every downstream: no call while one is open
        } catch (FanoutException e) {
            fanout.calls.answered(concurrency);
            throw fanout.problem(e, Thread.currentThread().isVirtual());
        }
        return fanout;
    }

    private List<StrategyName> hedgingStrategies() {
        return Arrays.stream(StrategyName.values()).filter(name -> strategies.get(name).hedges()).toList();
    }

    private List<StrategyName> blockingStrategies() {
        return Arrays.stream(StrategyName.values())
                .filter(name -> !(strategies.get(name) instanceof AsyncFanoutStrategy)).toList();
    }

    /**
     * A checked request: {@link #answer(String)} or, for an {@link #async()} strategy, {@link #answerAsync(String)}.
     */
    public static final class Fanout {

        private final StrategyName name;
        private final FanoutStrategy strategy;
        private final FanoutCalls calls;
        private final int cpuMs;
        private final long start = System.nanoTime();

        private Fanout(StrategyName name, FanoutStrategy strategy, FanoutCalls calls, int cpuMs) {
            this.name = name;
            this.strategy = strategy;
            this.calls = calls;
            this.cpuMs = cpuMs;
        }

        /**
         * @return whether the strategy blocks no thread ({@link AsyncFanoutStrategy}): answer with
         *         {@link #answerAsync(String)}
         */
        public boolean async() {
            return strategy instanceof AsyncFanoutStrategy;
        }

        /**
         * Runs a blocking strategy's fan-out on the calling thread with the request id bound
         * ({@link RequestContext#call}), then the {@code cpuMs} work.
         *
         * @param requestId the caller's {@code X-Request-Id}, or null ({@link RequestContext#requestId})
         *
         * @return 200 with every order joined ({@link OrderView#join}); under {@code onDeadline=partial} with what
         *         arrived by the deadline and {@value #MISSING_HEADER}
         * @throws FanoutException a failed or late downstream, as problem+json with the headers
         */
        public ResponseEntity<List<OrderView>> answer(@Nullable String requestId) {
            boolean virtual = Thread.currentThread().isVirtual();
            Fetched fetched;
            try {
                fetched = RequestContext.call(RequestContext.requestId(requestId), () -> strategy.fetch(calls));
            } catch (FanoutException e) {
                throw problem(e, virtual);
            } finally {
                calls.answered(name);
            }
            return answer(fetched, virtual);
        }

        /**
         * The async strategy's fan-out, started when subscribed. {@code cpuMs} runs on {@link Schedulers#parallel()},
         * not on the thread that completes the join (an event loop or HttpClient 5's I/O thread), as Reactor's
         * reference guide says for CPU-bound work ("Threading and Schedulers"): a loop spending it would stall every
         * connection it serves. {@code X-Fanout-Request-Thread} names the thread that calls this. The request id rides
         * in the Mono's Reactor context ({@link RequestContext#carriedBy}).
         *
         * @param requestId the caller's {@code X-Request-Id}, or null ({@link RequestContext#requestId})
         *
         * @return a Mono of the answer, or of the {@link FanoutException} problem
         */
        public Mono<ResponseEntity<List<OrderView>>> answerAsync(@Nullable String requestId) {
            boolean virtual = Thread.currentThread().isVirtual();
            Mono<Fetched> fetched = RequestContext.carriedBy(RequestContext.requestId(requestId),
                    ((AsyncFanoutStrategy) strategy).fetchAsync(calls));
            return (cpuMs > 0 ? fetched.publishOn(Schedulers.parallel()) : fetched)
                    .map(joined -> answer(joined, virtual))
                    .onErrorMap(FanoutException.class, e -> problem(e, virtual))
                    .doFinally(signal -> calls.answered(name));   // also when the caller went away (cancel)
        }

        private ResponseEntity<List<OrderView>> answer(Fetched fetched, boolean virtual) {
            HttpHeaders headers = headers(virtual);
            if (!fetched.missing().isEmpty()) {
                calls.answeredPartially();
                headers.set(MISSING_HEADER, fetched.missing().stream().sorted().map(Downstream::timingName)
                        .collect(Collectors.joining(", ")));
            }
            if (cpuMs == 0) {
                return ResponseEntity.ok().headers(headers).body(OrderView.join(fetched));
            }
            CpuWork.spend(cpuMs);
            String thread = Thread.currentThread().getName();
            headers.set(CPU_THREAD_HEADER, thread.isEmpty() && Thread.currentThread().isVirtual() ? "virtual" : thread);
            return ResponseEntity.ok().headers(headers).body(OrderView.join(fetched));
        }

        private FanoutException problem(FanoutException e, boolean virtual) {
            e.property("strategy", name.toString());
            if (calls.pinning() != Pinning.NONE) {
                e.property("pinning", calls.pinning().toString());
                if (e.kind() == FanoutException.Kind.DEADLINE_EXCEEDED) {
                    calls.pinning().deadlineHint(PollerMode.effective()).ifPresent(e::appendDetail);
                }
            }
            headers(virtual).toSingleValueMap().forEach(e::header);
            return e;
        }

        private HttpHeaders headers(boolean virtual) {
            HttpHeaders headers = new HttpHeaders();
            headers.set("Server-Timing", calls.serverTiming(Duration.ofNanos(System.nanoTime() - start)));
            headers.set(STRATEGY_HEADER, name.toString());
            headers.set(THREAD_HEADER, virtual ? "virtual" : "platform");
            return headers;
        }
    }
}
