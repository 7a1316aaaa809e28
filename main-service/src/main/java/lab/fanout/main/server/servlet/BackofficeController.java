package lab.fanout.main.server.servlet;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import lab.fanout.common.Simulation;
import lab.fanout.main.strategy.AsyncFanoutStrategy;
import lab.fanout.main.strategy.FanoutCalls;
import lab.fanout.main.strategy.FanoutStrategy;
import lab.fanout.main.strategy.Hedging;
import lab.fanout.main.strategy.OnDeadline;
import lab.fanout.main.strategy.Pinning;
import lab.fanout.main.strategy.Recycler;
import lab.fanout.main.strategy.StrategyName;
import lab.fanout.main.web.Backoffice;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /backoffice/api/v1/backoffice/orders?concurrency=<strategy>[&width=..&cpuMs=..&pinning=..&recycler=..&onDeadline=..&latencyMs=..]}:
 * every order joined with its account and products, fetched from the three downstream services by the chosen
 * strategy, in {@code width} calls to each.
 * The seed demo's path {@code .../orders/byRestTemplate} is the same endpoint.
 * <p>
 * Spring MVC on Tomcat (the {@code platform} and {@code virtual} profiles); the request itself is {@link Backoffice}'s.
 * Its headers are on the fan-out's errors too, not on a 400 of binding, which fails before this controller runs.
 * {@code X-Fanout-Request-Thread} names the request thread that ran this handler, also for the reactive strategy,
 * whose answer is written later from an async dispatch.
 * <p>
 * The blocking strategies answer on the request thread, as they always have. An {@link AsyncFanoutStrategy} answers
 * with a {@code Mono}: Spring MVC starts an async request, releases the request thread, and writes the answer, or the
 * problem, when the Mono ends.
 */
@RestController
@RequestMapping(Backoffice.PATH)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
class BackofficeController {

    private final Backoffice backoffice;

    BackofficeController(Backoffice backoffice) {
        this.backoffice = backoffice;
    }

    /**
     * @param width calls per downstream, 1..{@value FanoutCalls#MAX_WIDTH} (default 1): each fetches one slice of the
     *              downstream's catalogue, so the answer is the same whatever the width and the request makes 3 x width
     *              calls; out of range it is a 400 (binding fails before this runs)
     * @param hedging {@code hedgeAfterMs}: a slow call's second copy after that many ms, or after the downstream's
     *                recent p95 ({@code p95}); not given: no hedging. A 400 for a strategy that cannot hedge
     *                ({@link FanoutStrategy#hedges()}), or a value that is neither
     * @param cpuMs   CPU-bound work after the join, CPU-ms per request, 0..{@value Backoffice#MAX_CPU_MS} (default 0): real
     *                computation ({@code web.CpuWork}) on the thread that joins the calls (the request thread; for
     *                reactive, the I/O reactor thread that completes the join); out of range a 400
     * @param pinning what each downstream call holds while it blocks ({@link Pinning}: {@code none}, the default,
     *                {@code synchronized} or {@code native}); another value is a 400 naming these, and so is any value
     *                but {@code none} with the reactive strategy, whose calls block no thread
     * @param recycler where each downstream call takes its 16 KiB work buffer from ({@link Recycler}: {@code none}, the
     *                 default, {@code threadLocal} or {@code pool}); another value is a 400 naming these. With the
     *                 reactive strategy, which has no thread per call, the buffer is taken on the subscribing thread
     * @param onDeadline {@code fail} (the default): 504 when the deadline runs out first; {@code partial}: 200 with the
     *                   catalogues that arrived and {@value Backoffice#MISSING_HEADER} naming the others; another value
     *                   is a 400 naming these two
     * @param requestId {@code X-Request-Id}: the id bound for the calls' log lines ({@code client.RequestContext}); a
     *                  new one when absent or not 1-64 plain characters
     * @return the answer (blocking strategies) or a {@code Mono} of it (an {@link AsyncFanoutStrategy})
     */
    @GetMapping({"/orders", "/orders/byRestTemplate"})
    Object orders(@RequestParam StrategyName concurrency, @Valid Simulation simulation,
                  @RequestParam(defaultValue = "1") @Min(value = 1, message = Backoffice.WIDTH_RANGE)
                  @Max(value = FanoutCalls.MAX_WIDTH, message = Backoffice.WIDTH_RANGE) int width,
                  @RequestParam(name = "hedgeAfterMs", required = false) @Nullable Hedging hedging,
                  @RequestParam(defaultValue = "0") @Min(value = 0, message = Backoffice.CPU_RANGE)
                  @Max(value = Backoffice.MAX_CPU_MS, message = Backoffice.CPU_RANGE) int cpuMs,
                  @RequestParam(defaultValue = "none") Pinning pinning,
                  @RequestParam(defaultValue = "none") Recycler recycler,
                  @RequestParam(defaultValue = "fail") OnDeadline onDeadline,
                  @RequestHeader(name = Backoffice.REQUEST_ID_HEADER, required = false) @Nullable String requestId) {
        Backoffice.Fanout fanout = backoffice.begin(concurrency, simulation, width, hedging, cpuMs, pinning, recycler,
                onDeadline);
        return fanout.async() ? fanout.answerAsync(requestId) : fanout.answer(requestId);
    }
}
