package lab.fanout.main.strategy;

import reactor.core.publisher.Mono;

/**
 * A strategy whose calls need no waiting thread: the controller returns {@link #fetchAsync}'s {@code Mono} to Spring
 * MVC, which releases the request thread and answers from an async dispatch when the Mono ends. The blocking
 * strategies keep the synchronous {@link #fetch}, unchanged, so that their measurements stay comparable.
 */
public interface AsyncFanoutStrategy extends FanoutStrategy {

    /**
     * @return a cold Mono of the three catalogues; nothing runs until it is subscribed, and cancelling it cancels
     *         the calls still running
     */
    Mono<Fetched> fetchAsync(FanoutCalls calls);
}
