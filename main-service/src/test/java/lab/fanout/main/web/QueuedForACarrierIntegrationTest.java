package lab.fanout.main.web;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import io.micrometer.core.instrument.MeterRegistry;
import lab.fanout.main.client.Downstream;
import lab.fanout.main.strategy.StrategyName;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpStatus;
import org.springframework.test.context.TestPropertySource;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Virtual request threads (the default profile): a request whose virtual thread waited for a carrier past its
 * deadline of {@value #DEADLINE_MS} ms is answered {@code overloaded} without starting, as one that waited for a
 * platform thread is (QueuedPastDeadlineIntegrationTest). Every carrier is held by a virtual thread that computes for
 * {@value #SPIN_MS} ms (one that never blocks keeps its carrier); a request sent meanwhile, from this platform
 * thread, gets its Tomcat task and a new virtual thread at once, which runs only when a carrier frees. Margin: the
 * wait is about {@value #SPIN_MS} ms, four times the deadline.
 */
@TestPropertySource(properties = "fanout.deadline=" + QueuedForACarrierIntegrationTest.DEADLINE_MS + "ms")
class QueuedForACarrierIntegrationTest extends FanoutIntegrationTest {

    static final int DEADLINE_MS = 300;
    private static final int SPIN_MS = 1500;

    @Autowired
    MeterRegistry registry;

    @Test
    void aRequestWhoseThreadWaitedForACarrierPastItsDeadlineIsAnsweredWithoutStarting() throws InterruptedException {
        serveAll(0);
        List<Thread> spinners = holdEveryCarrier();

        Answer answer = backoffice(StrategyName.SCOPE_FORK);

        for (Thread spinner : spinners) {
            spinner.join();
        }
        assertThat(answer).hasStatus(HttpStatus.TOO_MANY_REQUESTS).hasHeader("Retry-After", "1");
        assertThat(answer).bodyJson().extractingPath("$.type").isEqualTo(PROBLEMS + "overloaded");
        assertThat(answer).bodyJson().extractingPath("$.queuedMs").asNumber()
                .satisfies(queued -> assertThat(queued.longValue()).isGreaterThan(DEADLINE_MS));
        for (Downstream downstream : Downstream.values()) {
            server(downstream).verify(0, anyRequestedFor(anyUrl()));
        }
        assertThat(registry.get("fanout.admission.queue.wait").timer().max(TimeUnit.MILLISECONDS))
                .isGreaterThan(DEADLINE_MS);
        assertThat(backoffice(StrategyName.SCOPE_FORK)).as("the next request, with carriers free")
                .hasStatus(HttpStatus.OK);
    }

    /** @return as many virtual threads as carriers, each computing for {@value #SPIN_MS} ms, all running */
    private static List<Thread> holdEveryCarrier() throws InterruptedException {
        int carriers = Integer.getInteger("jdk.virtualThreadScheduler.parallelism",
                Runtime.getRuntime().availableProcessors());
        CountDownLatch running = new CountDownLatch(carriers);
        List<Thread> spinners = IntStream.range(0, carriers).mapToObj(i -> Thread.ofVirtual().start(() -> {
            running.countDown();
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SPIN_MS);
            while (System.nanoTime() < end) {
                Thread.onSpinWait();
            }
        })).toList();
        running.await();
        return spinners;
    }
}
