package lab.fanout.main.strategy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import lab.fanout.common.Simulation;
import lab.fanout.main.client.Deadline;
import lab.fanout.main.client.FanoutException;
import lab.fanout.main.client.ScriptedDownstreamClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static lab.fanout.main.client.Downstream.ACCOUNTS;
import static lab.fanout.main.client.Downstream.ORDERS;
import static lab.fanout.main.client.Downstream.PRODUCTS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.InstanceOfAssertFactories.map;
import static org.awaitility.Awaitility.await;

/**
 * The bounded pool's rule for a request it refuses ({@link CompletableFutureStrategy}): 503 {@code bulkhead-full}
 * naming the pool, and nothing of the request left behind. A request hands its calls over one by one, so the pool can take
 * its first calls and refuse a later one: then a call still queued is taken back out of the queue and never runs, and
 * a call already running is cancelled and awaited. The pool here has 2 threads and a queue of 1, and another
 * request's call ({@link #holdOneThread}) holds one thread until the test ends.
 */
class BoundedPoolTest {

    private final ScriptedDownstreamClient downstreams = new ScriptedDownstreamClient();
    private final BoundedPool pool = new BoundedPool("testPool", 2, 1, Duration.ofSeconds(2));
    private final CompletableFutureStrategy strategy = new CompletableFutureStrategy(StrategyName.BOUNDED_POOL, pool);
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void closePool() {
        release.countDown();
        strategy.close();
    }

    @Test
    void aRequestRefusedAtItsThirdCallTakesItsQueuedCallBackAndAwaitsItsRunningOne() {
        holdOneThread();
        // orders runs on the second thread, products waits in the queue, accounts finds both full
        answerAll(Duration.ofMillis(300));

        FanoutException failure = catchThrowableOfType(FanoutException.class, () -> strategy.fetch(calls()));

        assertOverloaded(failure);
        assertThat(downstreams.running()).as("calls of the request still running at its answer").isZero();
        assertThat(pool.getQueue()).as("calls of the request still queued at its answer").isEmpty();
        release.countDown();
        await().atMost(Duration.ofSeconds(5)).until(() -> pool.getActiveCount() == 0);
        assertThat(downstreams.started()).as("calls made: products was taken out of the queue").containsExactly(ORDERS);
        assertThat(pool.rejected()).isEqualTo(1);
    }

    @Test
    void aRequestRefusedAtItsFirstCallMakesNoneAndTheNextOneIsServedOnceThereIsRoom() {
        holdOneThread();
        holdOneThread();
        holdOneThread();   // queued: threads and queue full
        answerAll(Duration.ZERO);

        FanoutException failure = catchThrowableOfType(FanoutException.class, () -> strategy.fetch(calls()));

        assertThat(failure.kind()).isEqualTo(FanoutException.Kind.BULKHEAD_FULL);
        assertThat(failure.properties()).containsEntry("downstream", "orders-service");
        assertThat(downstreams.started()).isEmpty();
        release.countDown();
        await().atMost(Duration.ofSeconds(5)).until(() -> pool.getActiveCount() == 0);
        assertThat(strategy.fetch(calls()).orders()).as("served again").isEmpty();
    }

    private void assertOverloaded(FanoutException failure) {
        assertThat(failure.kind()).isEqualTo(FanoutException.Kind.BULKHEAD_FULL);
        assertThat(failure.kind().status()).isEqualTo(503);
        assertThat(failure.kind().type().toString()).isEqualTo("https://fanout-lab.dev/problems/bulkhead-full");
        assertThat(failure.headers().get("Retry-After")).isEqualTo("2");
        assertThat(failure.properties()).containsEntry("downstream", "accounts-service");
        assertThat(failure.properties()).extractingByKey("pool")
                .asInstanceOf(map(String.class, Object.class))
                .containsAllEntriesOf(Map.of("name", "testPool", "threads", 2, "queueCapacity", 1, "queued", 1));
    }

    /** Another request's call on the pool, until the test ends or {@link #release} is counted down. */
    private void holdOneThread() {
        pool.execute(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    private FanoutCalls calls() {
        return new FanoutCalls(downstreams, new Simulation(null, null), Deadline.after(Duration.ofSeconds(5)));
    }

    private void answerAll(Duration after) {
        downstreams.answer(ORDERS, List.of(), after).answer(PRODUCTS, List.of(), after)
                .answer(ACCOUNTS, List.of(), after);
    }
}
