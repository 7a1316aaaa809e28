package lab.fanout.bench.model;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StrategyTest {

    @Test
    void reactiveIsParsedByNameAndAlias() {
        assertThat(Strategy.parse("reactive")).isEqualTo(Strategy.REACTIVE);
        assertThat(Strategy.parse(" WebClient ")).isEqualTo(Strategy.REACTIVE);
        assertThat(Strategy.REACTIVE.proseName()).isEqualTo("reactive");
        assertThat(Strategy.REACTIVE.shape()).isEqualTo(Strategy.Shape.PARALLEL);
    }

    @Test
    void anUnknownNameListsEveryNameAndEveryAlias() {
        assertThatThrownBy(() -> Strategy.parse("loom")).hasMessage("strategy 'loom' is not one of [sequential, "
                + "completableFuture, completableFutureWithThreadTaskExecutor, "
                + "completableFutureWithVirtualTaskExecutor, "
                + "scopeFork, reactive, completableFutureWithBoundedPool] (aliases: seq, cf, commonPool, "
                + "threadPerTask, threads, virtualThreadPerTask, structured, scope, webclient, boundedPool, "
                + "pool, bulkhead)");
    }

    @Test
    void onlyReactiveReleasesItsRequestThread() {
        for (Strategy s : Strategy.values()) {
            assertThat(s.holdsRequestThread()).as(s.toString()).isEqualTo(s != Strategy.REACTIVE);
        }
    }
}
