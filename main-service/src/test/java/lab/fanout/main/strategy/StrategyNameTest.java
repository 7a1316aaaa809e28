package lab.fanout.main.strategy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class StrategyNameTest {

    /** The seed demo's {@code ab} lines must keep working: these exact names. */
    @Test
    void toStringIsTheSeedsParameterValue() {
        assertThat(StrategyName.values()).extracting(Object::toString).containsExactly("sequential",
                "completableFuture", "completableFutureWithThreadTaskExecutor",
                "completableFutureWithVirtualTaskExecutor", "scopeFork", "reactive",
                "completableFutureWithBoundedPool");
    }

    @ParameterizedTest
    @EnumSource(StrategyName.class)
    void acceptsItsOwnNameAndEveryAliasInAnyCase(StrategyName strategy) {
        assertThat(StrategyName.fromParameter(strategy.toString())).isEqualTo(strategy);
        assertThat(StrategyName.fromParameter(strategy.toString().toUpperCase())).isEqualTo(strategy);
        for (String alias : strategy.aliases()) {
            assertThat(StrategyName.fromParameter(alias)).isEqualTo(strategy);
        }
    }

    @ParameterizedTest
    @CsvSource({"seq, SEQUENTIAL", "cf, COMPLETABLE_FUTURE", "threads, THREAD_PER_TASK",
            "virtualThreadPerTask, VIRTUAL_THREAD_PER_TASK", "scope, SCOPE_FORK", "webclient, REACTIVE", "pool, BOUNDED_POOL",
            "boundedPool, BOUNDED_POOL", "bulkhead, BOUNDED_POOL"})
    void knowsTheShortAliases(String alias, StrategyName strategy) {
        assertThat(StrategyName.fromParameter(alias)).isEqualTo(strategy);
    }

    /** A strategy's name never reads as a request-thread profile's (virtual, platform, netty): one name, one thing. */
    @ParameterizedTest
    @CsvSource({"virtual", "platform", "netty"})
    void aProfileNameIsNoStrategy(String profile) {
        assertThatIllegalArgumentException().isThrownBy(() -> StrategyName.fromParameter(profile))
                .withMessageStartingWith("'" + profile + "' is not one of [sequential, ");
    }

    @Test
    void rejectsAnUnknownNameListingTheValidOnes() {
        assertThatIllegalArgumentException().isThrownBy(() -> StrategyName.fromParameter("fast"))
                .withMessage("'fast' is not one of [sequential, completableFuture, "
                        + "completableFutureWithThreadTaskExecutor, completableFutureWithVirtualTaskExecutor, scopeFork, "
                        + "reactive, completableFutureWithBoundedPool]");
    }
}
