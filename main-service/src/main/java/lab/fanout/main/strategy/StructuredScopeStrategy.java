package lab.fanout.main.strategy;

import java.util.concurrent.StructuredTaskScope;
import java.util.concurrent.StructuredTaskScope.Joiner;

import lab.fanout.main.client.FanoutException;

import org.springframework.stereotype.Component;

/**
 * {@link StructuredTaskScope} (JDK 25 preview, JEP 505): each call forked on its own virtual thread, joined with
 * the request's remaining deadline as the scope's timeout.
 * <p>
 * Siblings: the first failed call cancels the scope, which interrupts the other calls; a virtual thread blocked
 * in a socket read is interruptible, so the call stops at once, its connection is closed, and the request fails
 * without waiting for the slowest sibling. A timeout cancels them the same way. When {@code fetch} returns or
 * throws, no call of the request is still running.
 */
@Component
class StructuredScopeStrategy implements FanoutStrategy {

    @Override
    public StrategyName name() {
        return StrategyName.SCOPE_FORK;
    }

    @Override
    public Fetched fetch(FanoutCalls calls) {
        try (var scope = StructuredTaskScope.open(Joiner.awaitAllSuccessfulOrThrow(),
                config -> config.withTimeout(calls.deadline().remaining()).withName("fanout"))) {
            var orders = scope.fork(calls::orders);
            var products = scope.fork(calls::products);
            var accounts = scope.fork(calls::accounts);
            scope.join();
            return new Fetched(orders.get(), products.get(), accounts.get());
        } catch (StructuredTaskScope.FailedException e) {
            throw FanoutException.from(e.getCause());
        } catch (StructuredTaskScope.TimeoutException e) {
            throw calls.deadlineExceeded(e);
        } catch (InterruptedException e) {
            throw calls.interrupted(e);   // the scope's close has cancelled the calls
        }
    }
}
