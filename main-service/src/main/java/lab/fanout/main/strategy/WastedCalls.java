package lab.fanout.main.strategy;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import lab.fanout.main.client.Deadline;
import lab.fanout.main.client.DownstreamClient;
import org.jspecify.annotations.Nullable;

/**
 * One request's wasted calls ({@code fanout_calls_wasted_total}): calls that end after the request's answer was
 * decided, so that their result or failure reaches nobody. The answer is decided when a strategy gives up at the
 * deadline ({@link #decidedAtDeadline}: at the deadline's instant, whichever of the strategy's wait and the deadline's
 * alarm, which expire together, fires first), else when the controller has the answer ({@link #answered}). Each call
 * is counted at most once, by whichever of its end and the decision comes second, so identical requests count the
 * same.
 */
final class WastedCalls {

    private final DownstreamClient client;
    private final Deadline deadline;
    /** When each call ended ({@link System#nanoTime()}). */
    private final Map<FanoutCall<?>, Long> endedAt = new ConcurrentHashMap<>();
    private final Set<FanoutCall<?>> counted = ConcurrentHashMap.newKeySet();
    private volatile boolean atDeadline;
    /** Written before {@link #answeredBy}, read after it. */
    private volatile long decidedAt;
    private volatile @Nullable StrategyName answeredBy;

    WastedCalls(DownstreamClient client, Deadline deadline) {
        this.client = client;
        this.deadline = deadline;
    }

    void decidedAtDeadline() {
        atDeadline = true;
    }

    /** Once; later marks do nothing. Calls that ended after the decision, and calls still running, are wasted. */
    void answered(StrategyName strategy) {
        if (answeredBy != null) {
            return;
        }
        decidedAt = atDeadline ? deadline.nanoTime() : System.nanoTime();
        answeredBy = strategy;
        endedAt.forEach((call, end) -> {
            if (end - decidedAt > 0) {
                count(call);
            }
        });
    }

    /** @param end when the call ended, on {@link System#nanoTime()}'s clock */
    void ended(FanoutCall<?> call, long end) {
        endedAt.put(call, end);
        if (answeredBy != null && end - decidedAt > 0) {
            count(call);
        }
    }

    private void count(FanoutCall<?> call) {
        StrategyName strategy = answeredBy;
        if (strategy != null && counted.add(call)) {
            client.wasted(strategy.toString(), call.downstream());
        }
    }
}
