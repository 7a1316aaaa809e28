package lab.fanout.main.strategy;

/**
 * One way to run a backoffice request's three downstream calls. Every strategy returns the same {@link Fetched} for
 * the same data; they differ in which threads run the calls and in what happens to the sibling calls when one
 * fails or the deadline runs out (docs/strategies.md).
 */
public interface FanoutStrategy {

    StrategyName name();

    /**
     * @return whether the strategy can race a second copy of a slow call ({@link Hedging}): each does it with its
     *         own cancellation idiom; {@code sequential} cannot, making one call at a time
     */
    boolean hedges();

    /**
     * @return the three catalogues; a hedged call's answer is its first successful copy. Under
     *         {@link OnDeadline#PARTIAL}, when the deadline runs out first, the ones that arrived, the late calls
     *         cancelled, {@link Fetched#missing()} naming the others
     * @throws lab.fanout.main.client.FanoutException the first failure of a call, or DEADLINE_EXCEEDED when the
     *                                                request's deadline runs out first under {@link OnDeadline#FAIL}
     */
    Fetched fetch(FanoutCalls calls);
}
