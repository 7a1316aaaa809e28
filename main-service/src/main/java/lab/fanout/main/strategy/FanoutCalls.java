package lab.fanout.main.strategy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import lab.fanout.common.Simulation;
import lab.fanout.common.Slice;
import lab.fanout.main.client.CatalogueJson.Account;
import lab.fanout.main.client.CatalogueJson.Order;
import lab.fanout.main.client.CatalogueJson.Product;
import lab.fanout.main.client.Deadline;
import lab.fanout.main.client.Downstream;
import lab.fanout.main.client.DownstreamClient;
import lab.fanout.main.client.FanoutException;
import org.jspecify.annotations.Nullable;

import org.springframework.core.ParameterizedTypeReference;

/**
 * The downstream calls of one backoffice request, callable from any thread: {@code width} calls to each of the three
 * downstreams, each fetching one {@link Slice} of its catalogue ({@link #all()}), 3 x width in all; width 1 is one
 * call to each for the whole catalogue. Each call records its duration for the {@code Server-Timing} header; the
 * calls share the request's {@link Deadline}. Each call forwards the latency knobs and, if {@code faultTarget} names
 * its downstream (or is not given), the fault knobs. Calls that end after the answer are counted as wasted
 * ({@link WastedCalls}). Each call ({@link FanoutCall}) also exists as a cold {@code Mono} for the reactive strategy,
 * with the same bookkeeping: a cancelled call ends when it is cancelled.
 */
public final class FanoutCalls {

    /** The largest {@code width}: calls per downstream per request. */
    public static final int MAX_WIDTH = Slice.MAX_COUNT;

    private static final ParameterizedTypeReference<List<Order>> ORDERS = new ParameterizedTypeReference<>() { };
    private static final ParameterizedTypeReference<List<Product>> PRODUCTS = new ParameterizedTypeReference<>() { };
    private static final ParameterizedTypeReference<List<Account>> ACCOUNTS = new ParameterizedTypeReference<>() { };

    private final DownstreamClient client;
    private final Simulation simulation;
    private final Deadline deadline;
    private final int width;
    private final Hedging hedging;
    private final Pinning pinning;
    private final Recycler recycler;
    private final OnDeadline onDeadline;
    /** The strategy's name for the hedging meters' tag. */
    private final String strategy;
    /** Per downstream, the adaptive hedge's delay, read once per request (empty: do not hedge). */
    private final Map<Downstream, Optional<Duration>> hedgeDelays = new ConcurrentHashMap<>();
    private final List<FanoutCall<?>> all;
    /** Per downstream, the longest of its calls that ended: what the request waited for. */
    private final Map<Downstream, Duration> finished = new ConcurrentHashMap<>();
    /** Calls that ended before the deadline: a strategy may ask after cancelled calls have ended too. */
    private final Set<FanoutCall<?>> endedInTime = ConcurrentHashMap.newKeySet();
    private final WastedCalls wasted;

    /**
     * One call to each downstream, for its whole catalogue, unhedged, unpinned (for tests: the hedging meters say
     * "none").
     */
    public FanoutCalls(DownstreamClient client, Simulation simulation, Deadline deadline) {
        this(client, simulation, deadline, 1, Hedging.OFF, Pinning.NONE, OnDeadline.FAIL, "none");
    }

    /** As the constructor below, with no work buffers ({@link Recycler#NONE}). */
    public FanoutCalls(DownstreamClient client, Simulation simulation, Deadline deadline, int width, Hedging hedging,
                       Pinning pinning, OnDeadline onDeadline, String strategy) {
        this(client, simulation, deadline, width, hedging, pinning, Recycler.NONE, onDeadline, strategy);
    }

    /**
     * @param width    calls per downstream, 1..{@value #MAX_WIDTH}: each fetches one of {@code width} slices
     * @param hedging  whether a slow call gets a second copy; the strategy races the two its own way
     * @param pinning  what each blocking call holds while it blocks ({@link FanoutCall#fetch}); not the reactive calls
     * @param recycler where each call, blocking or reactive, takes its work buffer from
     * @param onDeadline a 504 at the deadline, or the calls that arrived ({@link #arrivedByDeadline})
     * @param strategy the strategy's name, for the hedging meters
     * @throws IllegalArgumentException if width is outside 1..{@value #MAX_WIDTH}
     */
    public FanoutCalls(DownstreamClient client, Simulation simulation, Deadline deadline, int width, Hedging hedging,
                       Pinning pinning, Recycler recycler, OnDeadline onDeadline, String strategy) {
        this.client = client;
        this.simulation = simulation;
        this.deadline = deadline;
        this.width = width;
        this.hedging = hedging;
        this.pinning = pinning;
        this.recycler = recycler;
        this.onDeadline = onDeadline;
        this.strategy = strategy;
        this.wasted = new WastedCalls(client, deadline);
        List<FanoutCall<?>> calls = new ArrayList<>();
        for (int i = 0; i < width; i++) {
            calls.add(new FanoutCall<>(this, Downstream.ORDERS, new Slice(i, width), ORDERS));
        }
        for (int i = 0; i < width; i++) {
            calls.add(new FanoutCall<>(this, Downstream.PRODUCTS, new Slice(i, width), PRODUCTS));
        }
        for (int i = 0; i < width; i++) {
            calls.add(new FanoutCall<>(this, Downstream.ACCOUNTS, new Slice(i, width), ACCOUNTS));
        }
        this.all = List.copyOf(calls);
    }

    /** @return every call of the request, 3 x width: orders' slices in order, then products', then accounts' */
    public List<FanoutCall<?>> all() {
        return all;
    }

    /** @return calls per downstream */
    public int width() {
        return width;
    }

    /**
     * @param results each call's body, in the order of {@link #all()}
     * @return the three catalogues, each the concatenation of its slices: the same whatever the width
     */
    public Fetched fetched(List<?> results) {
        if (results.size() != all.size()) {
            throw new IllegalArgumentException(all.size() + " results expected, got " + results.size());
        }
        return new Fetched(concat(results, 0), concat(results, width), concat(results, 2 * width));
    }

    /**
     * For {@link OnDeadline#PARTIAL}: the answer decided at the deadline with what had arrived.
     *
     * @param results each call's body in the order of {@link #all()}, null for a call that had not answered by the
     *                deadline (the strategy cancels those, or says why it cannot)
     * @return the catalogues of the calls that answered, {@link Fetched#missing()} naming the downstreams of the others
     */
    public Fetched arrivedByDeadline(List<?> results) {
        if (results.size() != all.size()) {
            throw new IllegalArgumentException(all.size() + " results expected, got " + results.size());
        }
        Set<Downstream> missing = EnumSet.noneOf(Downstream.class);
        for (int i = 0; i < results.size(); i++) {
            if (results.get(i) == null) {
                missing.add(all.get(i).downstream());
            }
        }
        if (!missing.isEmpty()) {
            wasted.decidedAtDeadline();
        }
        return new Fetched(concat(results, 0), concat(results, width), concat(results, 2 * width), Set.copyOf(missing));
    }

    /** @return what the request does when its deadline runs out before every call has answered */
    public OnDeadline onDeadline() {
        return onDeadline;
    }

    /**
     * @param failure what a call threw, maybe wrapped (ExecutionException, CompletionException, FailedException)
     * @return whether it is the deadline's: the call was cut by the deadline's alarm or started after it (504
     *         {@code deadline-exceeded}), so that under {@link OnDeadline#PARTIAL} it is missing, not a failure
     */
    public static boolean cutByDeadline(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof FanoutException e) {
                return e.kind() == FanoutException.Kind.DEADLINE_EXCEEDED;
            }
        }
        return false;
    }

    @SuppressWarnings("unchecked")   // results.get(i) is what all().get(i), whose type the constructor fixed, returned
    private <T> List<T> concat(List<?> results, int from) {
        List<T> items = new ArrayList<>();
        for (int i = from; i < from + width; i++) {
            if (results.get(i) != null) {   // null: missing at the deadline (arrivedByDeadline)
                items.addAll((List<T>) results.get(i));
            }
        }
        return items;
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

    /** Counts a 200 that lacks some downstream's catalogue ({@code onDeadline=partial}). */
    public void answeredPartially() {
        client.meters().partialAnswer(strategy);
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
        List<Downstream> waiting = Arrays.stream(Downstream.values())
                .filter(d -> all.stream().anyMatch(call -> call.downstream() == d && !endedInTime.contains(call)))
                .toList();
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
     * @return the header value, e.g. {@code orders;dur=201.2, products;dur=200.7, total;dur=203.9}: one entry per
     * downstream with a call that finished (successfully or not), the longest of its calls, then the whole request's
     * time; with width above 1 each downstream's entry says so, e.g. {@code orders;dur=201.2;desc="slowest of 4 calls"}
     */
    public String serverTiming(Duration total) {
        List<String> entries = new ArrayList<>();
        String desc = width == 1 ? "" : ";desc=\"slowest of " + width + " calls\"";
        for (Downstream downstream : Downstream.values()) {
            Duration took = finished.get(downstream);   // read once: a call may finish while this runs
            if (took != null) {
                entries.add(timing(downstream.timingName(), took) + desc);
            }
        }
        entries.add(timing("total", total));
        return String.join(", ", entries);
    }

    private static String timing(String name, Duration duration) {
        return String.format(Locale.ROOT, "%s;dur=%.1f", name, duration.toNanos() / 1e6);
    }

    DownstreamClient client() {
        return client;
    }

    /** @return what to forward to {@code downstream}: the latency knobs, and the fault knobs if it is targeted */
    Simulation simulationFor(Downstream downstream) {
        return simulation.forTarget(downstream.timingName());
    }

    /** @return what each blocking call holds while it blocks */
    public Pinning pinning() {
        return pinning;
    }

    /** @return where each call takes its work buffer from */
    public Recycler recycler() {
        return recycler;
    }

    /** @return the strategy's name, for the hedging meters */
    String strategy() {
        return strategy;
    }

    /** @return how long a call to {@code downstream} may run before its second copy is sent; empty: no hedge */
    Optional<Duration> hedgeDelay(Downstream downstream) {
        return switch (hedging) {
            case Hedging.Off off -> Optional.empty();
            case Hedging.After after -> Optional.of(after.delay());
            case Hedging.RecentP95 p95 -> hedgeDelays.computeIfAbsent(downstream, d -> client.meters().recentP95(d));
        };
    }

    /** A call ended (its winning attempt, or its only one): Server-Timing, the deadline's 504 and wasted calls. */
    void ended(FanoutCall<?> call, long start) {
        long end = System.nanoTime();
        finished.merge(call.downstream(), Duration.ofNanos(end - start), (a, b) -> a.compareTo(b) >= 0 ? a : b);
        if (!deadline.expired()) {
            endedInTime.add(call);
        }
        wasted.ended(call, end);
    }
}
