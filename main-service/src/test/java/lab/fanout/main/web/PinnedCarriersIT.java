package lab.fanout.main.web;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;

import io.micrometer.core.instrument.MeterRegistry;
import lab.fanout.main.strategy.StrategyName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The carrier bound of {@code pinning=native} (gh-23 item 5): a call made from inside a native frame keeps its virtual
 * thread's carrier for the whole call, so at most carriers calls run at once, carriers ÷ latency calls per second. N
 * concurrent requests of 3 calls of latency L on C carriers then take at least ceil(3N ÷ C) x L, where {@code none} or
 * {@code synchronized} take about L, and platform threads (thread-per-task) are not held back.
 * <p>
 * Needs a JVM of its own (failsafe's, main-service/pom.xml): 2 carriers whatever the machine, and platform-thread
 * socket pollers ({@code -Djdk.pollerMode=1}); with the default virtual-thread pollers every pinned read waits out
 * its timeout instead (PinningIntegrationTest). Elsewhere it is skipped.
 */
@EnabledIfSystemProperty(named = "jdk.pollerMode", matches = "1",
        disabledReason = "needs -Djdk.pollerMode=1 (failsafe)")
@EnabledIfSystemProperty(named = "jdk.virtualThreadScheduler.parallelism", matches = "2",
        disabledReason = "needs -Djdk.virtualThreadScheduler.parallelism=2 (failsafe)")
class PinnedCarriersIT extends FanoutIntegrationTest {

    private static final int CARRIERS = 2;
    private static final int LATENCY_MS = 200;
    /** Concurrent requests: 36 calls, 18 rounds of 2 at 200 ms when pinned, 3.6 s. */
    private static final int REQUESTS = 12;
    private static final long PINNED_BOUND_MS = (long) Math.ceilDiv(3 * REQUESTS, CARRIERS) * LATENCY_MS;

    @Autowired
    MeterRegistry registry;

    /**
     * The lower bound holds by construction: each pinned call holds a carrier for at least the downstream's latency.
     * The upper bound only says the calls did run in carrier-sized rounds, not one at a time or stalled.
     */
    @ParameterizedTest
    @EnumSource(value = StrategyName.class, names = {"VIRTUAL_THREAD_PER_TASK", "SCOPE_FORK"})
    void nativeRunsAtMostCarriersCallsAtOnceAndEachPinnedCallIsCounted(StrategyName strategy) throws Exception {
        serveAll(LATENCY_MS);
        long pinnedBefore = pinnedEvents();

        Duration took = burst("concurrency=" + strategy + "&pinning=native");

        assertThat(took).as("36 calls on 2 pinned carriers, 200 ms each")
                .isGreaterThanOrEqualTo(Duration.ofMillis(PINNED_BOUND_MS))
                .isLessThan(Duration.ofMillis(3 * PINNED_BOUND_MS));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(pinnedEvents() - pinnedBefore)
                .as("Micrometer's pinned events: one per call at least").isGreaterThanOrEqualTo(3 * REQUESTS));
    }

    /** The controls: the same burst unpinned (synchronized), or pinned on platform threads, overlaps all its calls. */
    @Test
    void synchronizedAndPlatformThreadsAreNotHeldToTheCarriers() throws Exception {
        serveAll(LATENCY_MS);

        assertThat(burst("concurrency=" + StrategyName.VIRTUAL_THREAD_PER_TASK + "&pinning=synchronized"))
                .isLessThan(Duration.ofMillis(PINNED_BOUND_MS / 2));
        assertThat(burst("concurrency=" + StrategyName.SCOPE_FORK + "&pinning=synchronized"))
                .isLessThan(Duration.ofMillis(PINNED_BOUND_MS / 2));
        assertThat(burst("concurrency=" + StrategyName.THREAD_PER_TASK + "&pinning=native"))
                .isLessThan(Duration.ofMillis(PINNED_BOUND_MS / 2));
    }

    /**
     * @return how long {@link #REQUESTS} concurrent requests took, from the first sent to the last answered, each
     *         answered 200. The client runs on platform threads: the test's own virtual threads would queue for the
     *         carriers that main-service's pinned calls hold.
     */
    private Duration burst(String query) throws Exception {
        long start = System.nanoTime();
        List<Answer> answers;
        try (ExecutorService clients = Executors.newFixedThreadPool(REQUESTS)) {
            List<Future<Answer>> sent = IntStream.range(0, REQUESTS)
                    .mapToObj(i -> clients.submit(() -> backoffice(query))).toList();
            answers = sent.stream().map(answer -> {
                try {
                    return answer.get();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }).toList();
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(answers).allSatisfy(answer -> assertThat(answer).hasStatusOk());
        return took;
    }

    private long pinnedEvents() {
        return registry.find("jvm.threads.virtual.pinned").timer().count();
    }
}
