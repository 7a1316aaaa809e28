package lab.fanout.main.server.reactive;

import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import lab.fanout.common.Simulation;
import lab.fanout.main.strategy.FanoutCalls;
import lab.fanout.main.strategy.Hedging;
import lab.fanout.main.strategy.OnDeadline;
import lab.fanout.main.strategy.Pinning;
import lab.fanout.main.strategy.Recycler;
import lab.fanout.main.strategy.StrategyName;
import lab.fanout.main.web.Backoffice;
import lab.fanout.main.web.OrderView;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The same endpoint as {@code server.servlet.BackofficeController}, on Spring WebFlux and Reactor Netty (the
 * {@code netty} profile); the request itself is {@link Backoffice}'s, so the answer, its headers and its problems are
 * the same.
 * <p>
 * This handler runs on a Netty event loop, which must never block. The reactive strategy runs there end to end: its
 * calls block no thread. A blocking strategy's fan-out runs on a new virtual thread
 * ({@link WebFluxServerConfig#blockingFanouts()}), and its answer is written from there; the event loop goes back to
 * its other connections at once. That is what WebFlux's own blocking execution ({@code configureBlockingExecution})
 * does, but WebFlux chooses it per handler method by the method's return type, and here the {@code concurrency}
 * parameter decides.
 */
@RestController
@RequestMapping(Backoffice.PATH)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
class ReactiveBackofficeController {

    private final Backoffice backoffice;
    private final Scheduler blocking;

    ReactiveBackofficeController(Backoffice backoffice, @Qualifier("blockingFanouts") Scheduler blocking) {
        this.backoffice = backoffice;
        this.blocking = blocking;
    }

    /** Parameters as {@code server.servlet.BackofficeController#orders}'s, with the same ranges and 400s. */
    @GetMapping({"/orders", "/orders/byRestTemplate"})
    Mono<ResponseEntity<List<OrderView>>> orders(
            @RequestParam StrategyName concurrency, @Valid Simulation simulation,
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
        if (fanout.async()) {
            return fanout.answerAsync(requestId);
        }
        return Mono.fromCallable(() -> fanout.answer(requestId)).subscribeOn(blocking);
    }
}
