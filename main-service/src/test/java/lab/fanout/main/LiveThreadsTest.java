package lab.fanout.main;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.StructuredTaskScope;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The leak check of the integration tests must be able to fail: it sees live virtual threads and scopes. */
class LiveThreadsTest {

    @Test
    void seesALiveVirtualThreadByNameUntilItEnds() throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        Thread thread = Thread.ofVirtual().name("fanout-virtual-", 99).start(() -> await(release));

        assertThat(LiveThreads.matching("fanout-virtual-")).singleElement().asString().contains("'fanout-virtual-99'");

        release.countDown();
        thread.join();
        assertThat(LiveThreads.matching("fanout-virtual-")).isEmpty();
    }

    @Test
    void seesTheUnnamedThreadsOfAStructuredTaskScopeByTheScopesName() throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        try (var scope = StructuredTaskScope.open(StructuredTaskScope.Joiner.awaitAll(),
                config -> config.withName("fanout"))) {
            scope.fork(() -> await(release));

            assertThat(LiveThreads.matching("fanout/")).hasSize(1);

            release.countDown();
            scope.join();
        }
        assertThat(LiveThreads.matching("fanout/")).isEmpty();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
