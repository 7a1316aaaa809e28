package lab.fanout.main.web;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import lab.fanout.common.BadParameterException;
import lab.fanout.common.PollerMode;
import lab.fanout.common.Simulation;
import lab.fanout.main.client.Deadline;
import lab.fanout.main.client.DownstreamClient;
import lab.fanout.main.client.FanoutException;
import lab.fanout.main.config.FanoutProperties;
import lab.fanout.main.strategy.AsyncFanoutStrategy;
import lab.fanout.main.strategy.FanoutCalls;
import lab.fanout.main.strategy.FanoutStrategy;
import lab.fanout.main.strategy.Fetched;
import lab.fanout.main.strategy.Hedging;
import lab.fanout.main.strategy.Pinning;
import lab.fanout.main.strategy.StrategyName;
import lab.fanout.main.strategy.StrategyRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /backoffice/api/v1/backoffice/orders?concurrency=<strategy>[&width=..&cpuMs=..&pinning=..&latencyMs=..]}:
 * every order joined with its account and products, fetched from the three downstream services by the chosen
 * strategy, in {@code width} calls to each.
 * The seed demo's path {@code .../orders/byRestTemplate} is the same endpoint.
 * <p>
 * Headers: {@code Server-Timing} (each call's duration and the total, in ms), {@code X-Fanout-Strategy} and
 * {@code X-Fanout-Request-Thread} ({@code virtual} or {@code platform}), on the fan-out's errors too (not on a 400:
 * binding fails before this controller runs). {@code X-Fanout-Request-Thread} names the thread that ran this handler,
 * also for the reactive strategy, whose answer is written later from an async dispatch.
 * <p>
 * The blocking strategies answer on the request thread, as they always have. An {@link AsyncFanoutStrategy} answers
 * with a {@code Mono}: Spring MVC starts an async request, releases the request thread, and writes the answer, or the
 * problem, when the Mono ends.
 */
@RestController
@RequestMapping("/backoffice/api/v1/backoffice")
class BackofficeController {

    static final String STRATEGY_HEADER = "X-Fanout-Strategy";
    static final String THREAD_HEADER = "X-Fanout-Request-Thread";
    private static final String WIDTH_RANGE = "must be between 1 and " + FanoutCalls.MAX_WIDTH;
    private static final String CPU_RANGE = "must be between 0 and " + CpuWork.MAX_MS + " (CPU-ms per request)";

    private final StrategyRegistry strategies;
    private final DownstreamClient client;
    private final Duration deadline;

    BackofficeController(StrategyRegistry strategies, DownstreamClient client, FanoutProperties properties) {
        this.strategies = strategies;
        this.client = client;
        this.deadline = properties.deadline();
    }

    /**
     * @param width calls per downstream, 1..{@value FanoutCalls#MAX_WIDTH} (default 1): each fetches one slice of the
     *              downstream's catalogue, so the answer is the same whatever the width and the request makes 3 x width
     *              calls; out of range it is a 400 (binding fails before this runs)
     * @param hedging {@code hedgeAfterMs}: a slow call's second copy after that many ms, or after the downstream's
     *                recent p95 ({@code p95}); not given: no hedging. A 400 for a strategy that cannot hedge
     *                ({@link FanoutStrategy#hedges()}), or a value that is neither
     * @param cpuMs   CPU-bound work after the join, CPU-ms per request, 0..{@value CpuWork#MAX_MS} (default 0): real
     *                computation ({@link CpuWork}) on the thread that joins the calls (the request thread; for
     *                reactive, the I/O reactor thread that completes the join); out of range a 400
     * @param pinning what each downstream call holds while it blocks ({@link Pinning}: {@code none}, the default,
     *                {@code synchronized} or {@code native}); another value is a 400 naming these, and so is any value
     *                but {@code none} with the reactive strategy, whose calls block no thread
     * @return the answer (blocking strategies) or a {@code Mono} of it (an {@link AsyncFanoutStrategy})
     */
    @GetMapping({"/orders", "/orders/byRestTemplate"})
    Object orders(@RequestParam StrategyName concurrency, @Valid Simulation simulation,
                  @RequestParam(defaultValue = "1") @Min(value = 1, message = WIDTH_RANGE)
                  @Max(value = FanoutCalls.MAX_WIDTH, message = WIDTH_RANGE) int width,
                  @RequestParam(name = "hedgeAfterMs", required = false) @Nullable Hedging hedging,
                  @RequestParam(defaultValue = "0") @Min(value = 0, message = CPU_RANGE)
                  @Max(value = CpuWork.MAX_MS, message = CPU_RANGE) int cpuMs,
                  @RequestParam(defaultValue = "none") Pinning pinning) {
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
        long start = System.nanoTime();
        boolean virtual = Thread.currentThread().isVirtual();
        FanoutCalls calls = new FanoutCalls(client, simulation, Deadline.after(deadline), width,
                hedging == null ? Hedging.OFF : hedging, pinning, concurrency.toString());
        try {
            client.breakers().refuseIfAnyOpen();   // the answer needs every downstream: no call while one is open
        } catch (FanoutException e) {
            calls.answered(concurrency);
            throw problem(e, concurrency, calls, start, virtual);
        }
        if (strategy instanceof AsyncFanoutStrategy async) {
            return async.fetchAsync(calls)
                    .map(fetched -> answer(concurrency, calls, start, virtual, fetched, cpuMs))
                    .onErrorMap(FanoutException.class, e -> problem(e, concurrency, calls, start, virtual))
                    .doFinally(signal -> calls.answered(concurrency));   // also when the caller went away (cancel)
        }
        Fetched fetched;
        try {
            fetched = strategy.fetch(calls);
        } catch (FanoutException e) {
            throw problem(e, concurrency, calls, start, virtual);
        } finally {
            calls.answered(concurrency);
        }
        return answer(concurrency, calls, start, virtual, fetched, cpuMs);
    }

    private List<StrategyName> hedgingStrategies() {
        return Arrays.stream(StrategyName.values()).filter(name -> strategies.get(name).hedges()).toList();
    }

    private List<StrategyName> blockingStrategies() {
        return Arrays.stream(StrategyName.values())
                .filter(name -> !(strategies.get(name) instanceof AsyncFanoutStrategy)).toList();
    }

    private static ResponseEntity<List<OrderView>> answer(StrategyName strategy, FanoutCalls calls, long start,
                                                          boolean virtual, Fetched fetched, int cpuMs) {
        if (cpuMs > 0) {
            CpuWork.spend(cpuMs);
        }
        return ResponseEntity.ok().headers(headers(strategy, calls, start, virtual)).body(OrderView.join(fetched));
    }

    private static FanoutException problem(FanoutException e, StrategyName strategy, FanoutCalls calls, long start,
                                           boolean virtual) {
        e.getBody().setProperty("strategy", strategy.toString());
        if (calls.pinning() != Pinning.NONE) {
            e.getBody().setProperty("pinning", calls.pinning().toString());
            if (e.kind() == FanoutException.Kind.DEADLINE_EXCEEDED) {
                calls.pinning().deadlineHint(PollerMode.effective())
                        .ifPresent(hint -> e.getBody().setDetail(e.getBody().getDetail() + ". " + hint));
            }
        }
        e.getHeaders().addAll(headers(strategy, calls, start, virtual));
        return e;
    }

    private static HttpHeaders headers(StrategyName strategy, FanoutCalls calls, long start, boolean virtual) {
        HttpHeaders headers = new HttpHeaders();
        headers.set("Server-Timing", calls.serverTiming(Duration.ofNanos(System.nanoTime() - start)));
        headers.set(STRATEGY_HEADER, strategy.toString());
        headers.set(THREAD_HEADER, virtual ? "virtual" : "platform");
        return headers;
    }
}
