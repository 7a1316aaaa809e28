package lab.fanout.main.strategy;

import java.util.ArrayList;
import java.util.List;

import org.springframework.stereotype.Component;

/**
 * The calls one after another on the request thread: about three latencies per request (3 x width with
 * {@code width}). A failure ends the request at once; the calls after it are never made.
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
        List<List<?>> results = new ArrayList<>();
        for (FanoutCall<?> call : calls.all()) {
            results.add(call.fetch());
        }
        return calls.fetched(results);
    }
}
