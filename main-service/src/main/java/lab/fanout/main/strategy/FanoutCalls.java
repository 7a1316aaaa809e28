package lab.fanout.main.strategy;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
 * for the {@code Server-Timing} header; the calls share the request's {@link Deadline}.
 */
public final class FanoutCalls {

    private final DownstreamClient client;
    private final Simulation simulation;
    private final Deadline deadline;
    private final Map<Downstream, Duration> finished = new ConcurrentHashMap<>();

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
     * @param cause what the strategy caught when its wait ran out, or null
     * @return a 504 that names the calls still unanswered when the deadline ran out; if every call has ended, the
     * slowest, the one that used up the budget. Every call has ended when scopeFork's {@code join()} throws (it
     * returns only after the calls it interrupted have ended), and, in a race, when a CompletableFuture strategy's
     * wait runs out just after the slow call's own timeout, capped at the deadline, has fired
     */
    public FanoutException deadlineExceeded(@Nullable Throwable cause) {
        List<Downstream> blamed = Arrays.stream(Downstream.values()).filter(d -> !finished.containsKey(d)).toList();
        if (blamed.isEmpty()) {
            blamed = List.of(Collections.max(finished.entrySet(), Map.Entry.comparingByValue()).getKey());
        }
        String names = blamed.stream().map(Downstream::serviceName).collect(Collectors.joining(", "));
        return new FanoutException(FanoutException.Kind.DEADLINE_EXCEEDED, blamed.getFirst(),
                "The request's deadline of " + deadline.budget().toMillis() + " ms ran out while waiting for " + names,
                cause);
    }

    /**
     * @return the header value, e.g. {@code orders;dur=201.2, products;dur=200.7, total;dur=203.9}: one entry per call
     * that finished (successfully or not), then the whole request's time
     */
    public String serverTiming(Duration total) {
        return Arrays.stream(Downstream.values()).filter(finished::containsKey)
                .map(d -> timing(d.timingName(), finished.get(d)))
                .collect(Collectors.joining(", ", "", finished.isEmpty() ? "" : ", "))
                + timing("total", total);
    }

    private static String timing(String name, Duration duration) {
        return String.format(Locale.ROOT, "%s;dur=%.1f", name, duration.toNanos() / 1e6);
    }

    private <T> List<T> call(Downstream downstream, ParameterizedTypeReference<List<T>> type) {
        long start = System.nanoTime();
        try {
            return client.fetch(downstream, type, simulation, deadline);
        } finally {
            finished.put(downstream, Duration.ofNanos(System.nanoTime() - start));
        }
    }
}
