package lab.fanout.main.strategy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

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
 * latency knobs and, if {@code faultTarget} names its downstream (or is not given), the fault knobs. A call that
 * finishes after {@link #answered} is counted as wasted ({@code fanout_calls_wasted_total}).
 */
public final class FanoutCalls {

    private final DownstreamClient client;
    private final Simulation simulation;
    private final Deadline deadline;
    private final Map<Downstream, Duration> finished = new ConcurrentHashMap<>();
    /** Calls that ended before the deadline: a strategy may ask after cancelled calls have ended too. */
    private final Set<Downstream> endedInTime = ConcurrentHashMap.newKeySet();
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

    /** Marks the request as answered by {@code strategy}: calls still running are wasted when they finish. */
    public void answered(StrategyName strategy) {
        answeredBy = strategy;
    }

    /**
     * @param cause what the strategy caught when its wait ran out, or null
     * @return a 504 that names the calls still unanswered when the deadline ran out
     */
    public FanoutException deadlineExceeded(@Nullable Throwable cause) {
        List<Downstream> waiting = Arrays.stream(Downstream.values()).filter(d -> !endedInTime.contains(d)).toList();
        if (waiting.isEmpty() && !finished.isEmpty()) {
            // every call ended a moment before the strategy's own wait ran out: the slowest is the one it waited for
            waiting = List.of(finished.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey());
        }
        String names = waiting.stream().map(Downstream::serviceName).collect(Collectors.joining(", "));
        return new FanoutException(FanoutException.Kind.DEADLINE_EXCEEDED, waiting.isEmpty() ? null : waiting.getFirst(),
                "The request's deadline of " + deadline.budget().toMillis() + " ms ran out"
                        + (waiting.isEmpty() ? "" : " while waiting for " + names), cause);
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
            finished.put(downstream, Duration.ofNanos(System.nanoTime() - start));
            if (!deadline.expired()) {
                endedInTime.add(downstream);
            }
            StrategyName strategy = answeredBy;
            if (strategy != null) {
                client.wasted(strategy.toString(), downstream);
            }
        }
    }
}
