package lab.fanout.main.strategy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import lab.fanout.common.Simulation;
import lab.fanout.main.client.CatalogueJson.Account;
import lab.fanout.main.client.CatalogueJson.Order;
import lab.fanout.main.client.CatalogueJson.Product;
import lab.fanout.main.client.Deadline;
import lab.fanout.main.client.Downstream;
import lab.fanout.main.client.DownstreamClient;
import lab.fanout.main.client.FanoutException;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.core.ParameterizedTypeReference;

/**
 * The three downstream calls of one backoffice request, callable from any thread. Each call records its duration
 * for the {@code Server-Timing} header; the calls share the request's {@link Deadline}. Each call forwards the
 * latency knobs and, if {@code faultTarget} names its downstream (or is not given), the fault knobs. Calls that end
 * after the answer are counted as wasted ({@link WastedCalls}). Each call also exists as a cold {@code Mono}
 * ({@link #ordersAsync()}, ...) for the reactive strategy, with the same bookkeeping: a cancelled call ends when it is
 * cancelled.
 */
public final class FanoutCalls {

    private final DownstreamClient client;
    private final Simulation simulation;
    private final Deadline deadline;
    private final Map<Downstream, Duration> finished = new ConcurrentHashMap<>();
    /** Calls that ended before the deadline: a strategy may ask after cancelled calls have ended too. */
    private final Set<Downstream> endedInTime = ConcurrentHashMap.newKeySet();
    private final WastedCalls wasted;

    public FanoutCalls(DownstreamClient client, Simulation simulation, Deadline deadline) {
        this.client = client;
        this.simulation = simulation;
        this.deadline = deadline;
        this.wasted = new WastedCalls(client, deadline);
    }

    public List<Order> orders() {
        return call(Downstream.ORDERS, new ParameterizedTypeReference<>() { });
    }

    public List<Product> products() {
        return call(Downstream.PRODUCTS, new ParameterizedTypeReference<>() { });
    }

    public List<Account> accounts() {
        return call(Downstream.ACCOUNTS, new ParameterizedTypeReference<>() { });
    }

    /** @return {@link #orders()} as a cold Mono, on HttpClient's async client; its error is a FanoutException */
    public Mono<List<Order>> ordersAsync() {
        return callAsync(Downstream.ORDERS, new ParameterizedTypeReference<>() { });
    }

    /** @return {@link #products()} as a cold Mono, on HttpClient's async client; its error is a FanoutException */
    public Mono<List<Product>> productsAsync() {
        return callAsync(Downstream.PRODUCTS, new ParameterizedTypeReference<>() { });
    }

    /** @return {@link #accounts()} as a cold Mono, on HttpClient's async client; its error is a FanoutException */
    public Mono<List<Account>> accountsAsync() {
        return callAsync(Downstream.ACCOUNTS, new ParameterizedTypeReference<>() { });
    }

    public Deadline deadline() {
        return deadline;
    }

    /**
     * Marks the request as answered by {@code strategy} (once; later calls do nothing): calls that ended after the
     * decision, and calls still running, are wasted; the deadline's alarm is disarmed once no call runs.
     */
    public void answered(StrategyName strategy) {
        wasted.answered(strategy);
        deadline.answered();
    }

    /**
     * For a strategy whose own wait ran out: the answer was decided at the deadline, so calls cut by the deadline's
     * alarm at the same instant are wasted whichever fired first.
     *
     * @param cause what the strategy caught when its wait ran out, or null
     * @return a 504 that names the calls still unanswered when the deadline ran out
     */
    public FanoutException deadlineExceeded(@Nullable Throwable cause) {
        wasted.decidedAtDeadline();
        List<Downstream> waiting = Arrays.stream(Downstream.values()).filter(d -> !endedInTime.contains(d)).toList();
        if (waiting.isEmpty() && !finished.isEmpty()) {
            // every call ended a moment before the strategy's own wait ran out: the slowest is the one it waited for
            waiting = List.of(finished.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey());
        }
        return deadline.exceeded(waiting, cause);
    }

    /**
     * For a strategy whose wait was interrupted. The interrupt is handled by ending the request: the flag is not set
     * again, because the request thread goes on to write this answer, which an interrupted thread's socket write
     * would fail to do.
     *
     * @return a 503 {@code interrupted}, naming no downstream
     */
    public FanoutException interrupted(InterruptedException cause) {
        return new FanoutException(FanoutException.Kind.INTERRUPTED, null,
                "The request was interrupted before its downstream calls ended (the service may be stopping)", cause);
    }

    /**
     * @return the header value, e.g. {@code orders;dur=201.2, products;dur=200.7, total;dur=203.9}: one entry per call
     * that finished (successfully or not), then the whole request's time
     */
    public String serverTiming(Duration total) {
        List<String> entries = new ArrayList<>();
        for (Downstream downstream : Downstream.values()) {
            Duration took = finished.get(downstream);   // read once: a call may finish while this runs
            if (took != null) {
                entries.add(timing(downstream.timingName(), took));
            }
        }
        entries.add(timing("total", total));
        return String.join(", ", entries);
    }

    private static String timing(String name, Duration duration) {
        return String.format(Locale.ROOT, "%s;dur=%.1f", name, duration.toNanos() / 1e6);
    }

    private <T> List<T> call(Downstream downstream, ParameterizedTypeReference<List<T>> type) {
        long start = System.nanoTime();
        try {
            return client.fetch(downstream, type, simulation.forTarget(downstream.timingName()), deadline);
        } finally {
            ended(downstream, start);
        }
    }

    private <T> Mono<List<T>> callAsync(Downstream downstream, ParameterizedTypeReference<List<T>> type) {
        return Mono.defer(() -> {
            long start = System.nanoTime();
            AtomicBoolean recorded = new AtomicBoolean();
            Runnable end = () -> {
                if (recorded.compareAndSet(false, true)) {
                    ended(downstream, start);
                }
            };
            // before the value or error travels on (doFinally would run after Mono.zip had emitted, and the last
            // call would be missing from Server-Timing), or when the call is cancelled
            return client.fetchAsync(downstream, type, simulation.forTarget(downstream.timingName()), deadline)
                    .doOnTerminate(end).doOnCancel(end);
        });
    }

    private void ended(Downstream downstream, long start) {
        long end = System.nanoTime();
        finished.put(downstream, Duration.ofNanos(end - start));
        if (!deadline.expired()) {
            endedInTime.add(downstream);
        }
        wasted.ended(downstream, end);
    }
}
