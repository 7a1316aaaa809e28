package lab.fanout.main.web;

import java.lang.management.ManagementFactory;
import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jdk.management.VirtualThreadSchedulerMXBean;
import lab.fanout.common.PollerMode;
import lab.fanout.main.client.Downstream;
import lab.fanout.main.strategy.FanoutCalls;
import lab.fanout.main.strategy.StrategyName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpStatus;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code pinning} (gh-23 item 5) in this JVM's own poller mode, JDK 25's default on Linux (virtual-thread pollers): a
 * bad value is a 400 naming the valid ones; {@code synchronized} changes nothing, not the answer, not the calls'
 * overlap, and pins nothing; {@code native} pins each call (Micrometer's {@code jvm.threads.virtual.pinned}); and once
 * every carrier is pinned in a socket read, the stall (no poller can run to wake the reads) ends at the deadline with a
 * 504, after which main-service serves again. The carrier bound itself needs platform-thread pollers and a JVM of its
 * own: {@link PinnedCarriersIT}.
 * <p>
 * The same deadline as DeadlineIntegrationTest, so that the two share one Spring context: 850 ms, below the 5 s
 * response timeout, which is then capped at the time left.
 */
@TestPropertySource(properties = {"fanout.deadline=850ms", "fanout.response-timeout=5s"})
class PinningIntegrationTest extends FanoutIntegrationTest {

    private static final int DEADLINE_MS = 850;
    private static final int RESPONSE_TIMEOUT_MS = 5000;
    /** The carriers: the virtual-thread scheduler's parallelism. */
    private static final int CARRIERS =
            ManagementFactory.getPlatformMXBean(VirtualThreadSchedulerMXBean.class).getParallelism();

    @Autowired
    MeterRegistry registry;

    @Test
    void answers400NamingTheValidValuesForAnUnknownPinning() {
        Answer answer = backoffice("concurrency=" + StrategyName.VIRTUAL_THREAD_PER_TASK + "&pinning=monitor");

        assertThat(answer).hasStatus(HttpStatus.BAD_REQUEST);
        assertThat(answer).bodyJson().extractingPath("$.type").isEqualTo(PROBLEMS + "bad-parameter");
        assertThat(answer).bodyJson().extractingPath("$.detail")
                .isEqualTo("pinning: 'monitor' is not one of [none, synchronized, native]");
    }

    /** The endpoint's parameters, as KnownParameters reads them from its binding, include {@code pinning}. */
    @Test
    void answers400ForAMistypedPinningNamingTheParameter() {
        Answer answer = backoffice("concurrency=" + StrategyName.VIRTUAL_THREAD_PER_TASK + "&Pinning=native");

        assertThat(answer).hasStatus(HttpStatus.BAD_REQUEST);
        assertThat(answer).bodyJson().extractingPath("$.detail").asString()
                .startsWith("Pinning: not a parameter of this endpoint (did you mean pinning?)");
    }

    /** Reactive's calls block no thread, so there is nothing to pin: a 400 says so, rather than measuring nothing. */
    @Test
    void answers400ForPinningWithTheReactiveStrategyNamingTheStrategiesThatBlock() {
        serveAll(0);
        assertThat(backoffice("concurrency=" + StrategyName.REACTIVE + "&pinning=none")).hasStatusOk();

        Answer answer = backoffice("concurrency=" + StrategyName.REACTIVE + "&pinning=native");

        assertThat(answer).hasStatus(HttpStatus.BAD_REQUEST);
        assertThat(answer).bodyJson().extractingPath("$.detail").asString()
                .startsWith("pinning: reactive blocks no thread").contains("[sequential, completableFuture,"
                        + " completableFutureWithThreadTaskExecutor, completableFutureWithVirtualTaskExecutor,"
                        + " scopeFork, completableFutureWithBoundedPool]");
    }

    @ParameterizedTest
    @EnumSource(value = StrategyName.class, mode = EnumSource.Mode.EXCLUDE, names = "REACTIVE")
    void synchronizedAnswersWhatNoneAnswers(StrategyName strategy) {
        serveAll(0);
        Answer none = backoffice("concurrency=" + strategy);

        Answer pinned = backoffice("concurrency=" + strategy + "&pinning=synchronized");

        assertThat(pinned).hasStatusOk();
        assertThat(pinned.body()).isEqualTo(none.body()).startsWith("[{\"id\":\"ord-");
    }

    /** On platform threads a native frame holds nothing back: the same answer through the qsort upcall. */
    @ParameterizedTest
    @EnumSource(value = StrategyName.class, names = {"COMPLETABLE_FUTURE", "THREAD_PER_TASK"})
    void nativeOnPlatformThreadsAnswersWhatNoneAnswers(StrategyName strategy) {
        serveAll(0);
        Answer none = backoffice("concurrency=" + strategy);

        Answer pinned = backoffice("concurrency=" + strategy + "&pinning=native");

        assertThat(pinned).hasStatusOk();
        assertThat(pinned.body()).isEqualTo(none.body());
    }

    /**
     * A monitor held while blocking does not pin since JEP 491: three calls of 300 ms still overlap and fit the 850 ms
     * deadline (one after another they would not: DeadlineIntegrationTest). A monitor shared by the request's calls
     * would have run them one at a time.
     */
    @ParameterizedTest
    @EnumSource(value = StrategyName.class, names = {"THREAD_PER_TASK", "VIRTUAL_THREAD_PER_TASK", "SCOPE_FORK"})
    void synchronizedKeepsTheCallsOverlapping(StrategyName strategy) {
        serveAll(300);

        assertThat(backoffice("concurrency=" + strategy + "&pinning=synchronized")).hasStatusOk();
    }

    /**
     * Micrometer's {@code jvm.threads.virtual.pinned} (JFR {@code jdk.VirtualThreadPinned}, 20 ms threshold, about 1 s
     * late): nine calls blocked in monitors on virtual threads add nothing; then one sequential request under
     * {@code native}, whose three calls each park their (virtual) request thread pinned for 100 ms, adds exactly three
     * events, and its arrival also shows that the monitors' events, had there been any, would have arrived.
     */
    @Test
    void synchronizedPinsNothingAndNativePinsEachCall() {
        assumeThat(CARRIERS).as("a free carrier for the pollers while the request thread is pinned").isGreaterThan(1);
        serveAll(100);
        long before = settledPinnedEvents();

        for (int i = 0; i < 3; i++) {
            assertThat(backoffice("concurrency=" + StrategyName.VIRTUAL_THREAD_PER_TASK + "&pinning=synchronized"))
                    .hasStatusOk();
        }
        assertThat(backoffice("concurrency=" + StrategyName.SEQUENTIAL + "&pinning=native")).hasStatusOk();

        await().atMost(Duration.ofSeconds(10)).until(() -> pinnedEvents() >= before + 3);
        assertThat(settledPinnedEvents() - before).as("pinned events: the three native calls, none of the monitors'")
                .isEqualTo(3);
    }

    /**
     * The hang, bounded. With the virtual-thread pollers (this JVM's default) a request whose calls pin every carrier
     * in a socket read stalls: the pollers are virtual threads and cannot run, so no read is woken when its answer
     * comes, and the whole service stops (its request threads are virtual too). Each pinned read waits for its
     * timeout, capped at the time left to the deadline, and the deadline's alarm closes their sockets: the request
     * ends at the deadline, not at the 5 s response timeout, with a 504 that names the pinning and the poller mode,
     * and main-service then answers the next request.
     */
    @Test
    void nativeOnEveryCarrierStallsUntilTheDeadlineThenAnswers504AndServesTheNextRequest() {
        assumeThat(PollerMode.effective()).as("the pollers are virtual threads (jdk.pollerMode 2, Linux's default)")
                .isEqualTo(PollerMode.VTHREAD_POLLERS);
        int width = Math.min(FanoutCalls.MAX_WIDTH, CARRIERS / 3 + 1);   // 3 x width calls > carriers
        serveAll(300);

        Answer stalled = backoffice("concurrency=" + StrategyName.VIRTUAL_THREAD_PER_TASK + "&width=" + width
                + "&pinning=native");

        assertProblem(stalled, HttpStatus.GATEWAY_TIMEOUT, "deadline-exceeded", StrategyName.VIRTUAL_THREAD_PER_TASK,
                Downstream.values());
        assertThat(stalled).bodyJson().extractingPath("$.pinning").isEqualTo("native");
        assertThat(stalled).bodyJson().extractingPath("$.detail").asString()
                .contains("deadline of 850 ms", "jdk.pollerMode VTHREAD_POLLERS", "-Djdk.pollerMode=1");
        assertThat(stalled.millis()).as("ended by the deadline, not by the response timeout")
                .isGreaterThanOrEqualTo(DEADLINE_MS).isLessThan(RESPONSE_TIMEOUT_MS);

        serveAll(0);
        assertThat(backoffice(StrategyName.VIRTUAL_THREAD_PER_TASK)).as("the next request").hasStatusOk();
        assertNothingLeftBehind();
    }

    private long pinnedEvents() {
        Timer pinned = registry.find("jvm.threads.virtual.pinned").timer();
        assertThat(pinned).as("micrometer-java21's pinned timer").isNotNull();
        return pinned.count();
    }

    /** @return the count once no event is on its way: unchanged over 1.5 s (they arrive about 1 s late) */
    private long settledPinnedEvents() {
        long[] last = {-1};
        await().atMost(Duration.ofSeconds(15)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1500))
                .until(() -> {
                    long now = pinnedEvents();
                    boolean settled = now == last[0];
                    last[0] = now;
                    return settled;
                });
        return last[0];
    }
}
