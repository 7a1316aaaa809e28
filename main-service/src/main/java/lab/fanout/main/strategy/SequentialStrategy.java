package lab.fanout.main.strategy;

import java.util.ArrayList;
import java.util.List;

import lab.fanout.main.client.FanoutException;

import org.springframework.stereotype.Component;

/**
 * The calls one after another on the request thread: about three latencies per request (3 x width with
 * {@code width}). A failure ends the request at once; the calls after it are never made.
 * <p>
 * {@code onDeadline=partial}: what it has when the deadline passes. The call in flight then is cut by the deadline's
 * alarm (its connection closed), and the calls after it are never made (each refuses to start past the deadline).
 */
@Component
class SequentialStrategy implements FanoutStrategy {

    @Override
    public StrategyName name() {
        return StrategyName.SEQUENTIAL;
    }

    /** One call at a time on the request thread: there is no second thread to send a copy beside a slow call. */
    @Override
    public boolean hedges() {
        return false;
    }

    @Override
    public Fetched fetch(FanoutCalls calls) {
        boolean partial = calls.onDeadline() == OnDeadline.PARTIAL;
        List<List<?>> results = new ArrayList<>();
        for (FanoutCall<?> call : calls.all()) {
            try {
                results.add(call.fetch());
            } catch (FanoutException e) {
                if (!partial || !FanoutCalls.cutByDeadline(e)) {
                    throw e;
                }
                results.add(null);   // missing: cut at the deadline, or not started after it
            }
        }
        return partial ? calls.arrivedByDeadline(results) : calls.fetched(results);
    }
}
