package lab.fanout.main.strategy;

/**
 * One way to run a backoffice request's three downstream calls. Every strategy returns the same {@link Fetched} for
 * the same data; they differ in which threads run the calls and in what happens to the sibling calls when one
 * fails or the deadline runs out (README, "Strategies").
 */
public interface FanoutStrategy {

    StrategyName name();

    /**
     * @return the three catalogues
     * @throws lab.fanout.main.client.FanoutException the first failure of a call, or DEADLINE_EXCEEDED when the
     *                                                request's deadline runs out first
     */
    Fetched fetch(FanoutCalls calls);
}
