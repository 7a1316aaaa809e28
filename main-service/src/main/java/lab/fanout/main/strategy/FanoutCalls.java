package lab.fanout.main.strategy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import lab.fanout.common.Simulation;
import lab.fanout.main.client.Catalogue.Account;
import lab.fanout.main.client.Catalogue.Order;
import lab.fanout.main.client.Catalogue.Product;
import lab.fanout.main.client.Deadline;
import lab.fanout.main.client.Downstream;
import lab.fanout.main.client.DownstreamClient;
import lab.fanout.main.client.FanoutException;
import org.jspecify.annotations.Nullable;

import org.springframework.core.ParameterizedTypeReference;

/**
 * The three downstream calls of one backoffice request, callable from any thread. Each call records its duration
 * for the {@code Server-Timing} header; the calls share the request's {@link Deadline}. Each call forwards the
 * latency knobs and, if {@code faultTarget} names its downstream (or is not given), the fault knobs.
 * <p>
 * Wasted calls ({@code fanout_calls_wasted_total}): a call that ends after its request's answer was decided, so its
 * result or failure reaches nobody. The answer is decided when the strategy gives up at the deadline
 * ({@link #deadlineExceeded}: decided at the deadline's instant, whichever of the strategy's wait and the watchdog's
 * alarm, which expire together, fires first), else when the controller has the answer ({@link #answered}). Each
 * call is counted at most once, by whichever of the call's end and the decision comes second, so that identical
 * requests count the same.
 */
public final class FanoutCalls {

    private final DownstreamClient client;
    private final Simulation simulation;
    private final Deadline deadline;
    private final Map<Downstream, Duration> finished = new ConcurrentHashMap<>();
    /** Calls that ended before the deadline: a strategy may ask after cancelled calls have ended too. */
    private final Set<Downstream> endedInTime = ConcurrentHashMap.newKeySet();
    /** When each call ended ({@link System#nanoTime()}), for the wasted count. */
    private final Map<Downstream, Long> endedAt = new ConcurrentHashMap<>();
    private final Set<Downstream> countedWasted = ConcurrentHashMap.newKeySet();
    private volatile boolean gaveUpAtDeadline;
    /** Written before {@link #answeredBy}, read after it. */
    private volatile long decidedAt;
    private volatile @Nullable StrategyName answeredBy;

    public FanoutCalls(DownstreamClient client, Simulation simulation, Deadline deadline) {
        this.client = client;
        this.simulation = simulation;
        this.deadline = deadline;
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

    public Deadline deadline() {
        return deadline;
    }

    /**
     * Marks the request as answered by {@code strategy} (once; later calls do nothing): calls that ended after the
     * decision, and calls still running, are wasted.
     */
    public void answered(StrategyName strategy) {
        if (answeredBy != null) {
            return;
        }
        decidedAt = gaveUpAtDeadline ? deadline.nanoTime() : System.nanoTime();
        answeredBy = strategy;
        deadline.answered();
        endedAt.forEach((downstream, end) -> {
            if (end - decidedAt > 0) {
                wasted(downstream);
            }
        });
    }

    /**
     * For a strategy whose own wait ran out: the answer was decided at the deadline, so calls cut by the watchdog at
     * the same instant are wasted whichever fired first.
     *
     * @param cause what the strategy caught when its wait ran out, or null
     * @return a 504 that names the calls still unanswered when the deadline ran out
     */
    public FanoutException deadlineExceeded(@Nullable Throwable cause) {
        gaveUpAtDeadline = true;
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
            long end = System.nanoTime();
            finished.put(downstream, Duration.ofNanos(end - start));
            if (!deadline.expired()) {
                endedInTime.add(downstream);
            }
            endedAt.put(downstream, end);
            if (answeredBy != null && end - decidedAt > 0) {
                wasted(downstream);
            }
        }
    }

    private void wasted(Downstream downstream) {
        StrategyName strategy = answeredBy;
        if (strategy != null && countedWasted.add(downstream)) {
            client.wasted(strategy.toString(), downstream);
        }
    }
}
