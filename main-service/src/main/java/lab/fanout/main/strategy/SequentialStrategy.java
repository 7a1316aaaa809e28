package lab.fanout.main.strategy;

import org.springframework.stereotype.Component;

/**
 * The three calls one after another on the request thread: about three latencies per request. A failure ends the
 * request at once; the calls after it are never made.
 */
@Component
class SequentialStrategy implements FanoutStrategy {

    @Override
    public StrategyName name() {
        return StrategyName.SEQUENTIAL;
    }

    @Override
    public Fetched fetch(FanoutCalls calls) {
        return new Fetched(calls.orders(), calls.products(), calls.accounts());
    }
}
