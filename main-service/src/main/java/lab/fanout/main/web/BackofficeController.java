package lab.fanout.main.web;

import java.time.Duration;
import java.util.List;

import jakarta.validation.Valid;

import lab.fanout.common.Simulation;
import lab.fanout.main.client.Deadline;
import lab.fanout.main.client.DownstreamClient;
import lab.fanout.main.client.FanoutException;
import lab.fanout.main.config.FanoutProperties;
import lab.fanout.main.strategy.FanoutCalls;
import lab.fanout.main.strategy.Fetched;
import lab.fanout.main.strategy.StrategyName;
import lab.fanout.main.strategy.StrategyRegistry;

import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /backoffice/api/v1/backoffice/orders?concurrency=<strategy>[&latencyMs=..&jitterMs=..]}: every order
 * joined with its account and products, fetched from the three downstream services by the chosen strategy.
 * The seed demo's path {@code .../orders/byRestTemplate} is the same endpoint.
 * <p>
 * Headers: {@code Server-Timing} (each call's duration and the total, in ms), {@code X-Fanout-Strategy} and
 * {@code X-Fanout-Request-Thread} ({@code virtual} or {@code platform}), on the fan-out's errors too (not on a 400:
 * binding fails before this controller runs).
 */
@RestController
@RequestMapping("/backoffice/api/v1/backoffice")
class BackofficeController {

    static final String STRATEGY_HEADER = "X-Fanout-Strategy";
    static final String THREAD_HEADER = "X-Fanout-Request-Thread";

    private final StrategyRegistry strategies;
    private final DownstreamClient client;
    private final Duration deadline;

    BackofficeController(StrategyRegistry strategies, DownstreamClient client, FanoutProperties properties) {
        this.strategies = strategies;
        this.client = client;
        this.deadline = properties.deadline();
    }

    @GetMapping({"/orders", "/orders/byRestTemplate"})
    ResponseEntity<List<OrderView>> orders(@RequestParam StrategyName concurrency, @Valid Simulation simulation) {
        long start = System.nanoTime();
        FanoutCalls calls = new FanoutCalls(client, simulation, Deadline.after(deadline));
        Fetched fetched;
        try {
            fetched = strategies.get(concurrency).fetch(calls);
        } catch (FanoutException e) {
            e.getBody().setProperty("strategy", concurrency.toString());
            e.getHeaders().addAll(headers(concurrency, calls, start));
            throw e;
        } finally {
            calls.answered(concurrency);
        }
        return ResponseEntity.ok().headers(headers(concurrency, calls, start)).body(OrderView.join(fetched));
    }

    private static HttpHeaders headers(StrategyName strategy, FanoutCalls calls, long start) {
        HttpHeaders headers = new HttpHeaders();
        headers.set("Server-Timing", calls.serverTiming(Duration.ofNanos(System.nanoTime() - start)));
        headers.set(STRATEGY_HEADER, strategy.toString());
        headers.set(THREAD_HEADER, Thread.currentThread().isVirtual() ? "virtual" : "platform");
        return headers;
    }
}
