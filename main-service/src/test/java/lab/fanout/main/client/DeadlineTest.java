package lab.fanout.main.client;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.hc.core5.concurrent.Cancellable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The per-request alarm (gh-15 items 4 and 10): what it cuts, and that one serves the whole request. */
class DeadlineTest {

    @Test
    void anExchangeStillInFlightIsCancelledWhenTheDeadlineComes() {
        Deadline deadline = Deadline.after(Duration.ofMillis(50));
        FakeExchange exchange = new FakeExchange();

        deadline.guard(new Exchange(), () -> {
            Deadline.register(exchange);
            await().atMost(Duration.ofSeconds(5)).untilTrue(exchange.cancelled);
            return null;
        });

        assertThat(deadline.expired()).isTrue();
    }

    @Test
    void oneAlarmServesEveryCallAndIsDisarmedOnceTheRequestIsAnsweredAndIdle() {
        Deadline deadline = Deadline.after(Duration.ofSeconds(10));
        assertThat(deadline.armed()).as("no call yet").isFalse();
        for (int call = 0; call < 3; call++) {   // as sequential makes them
            deadline.guard(new Exchange(), () -> {
                Deadline.register(new FakeExchange());
                return null;
            });
            assertThat(deadline.armed()).as("armed between calls: the request is not answered").isTrue();
        }

        deadline.answered();

        assertThat(deadline.armed()).isFalse();
    }

    /** A CompletableFuture strategy answers 504 while a call runs on: the alarm must still cut it. */
    @Test
    void aCallStillRunningAfterTheAnswerKeepsTheAlarmUntilItEnds() throws Exception {
        Deadline deadline = Deadline.after(Duration.ofSeconds(10));
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Void> call = CompletableFuture.runAsync(() -> {
            try {
                deadline.guard(new Exchange(), () -> {
                    started.countDown();
                    release.await();
                    return null;
                });
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        started.await();

        deadline.answered();
        assertThat(deadline.armed()).isTrue();
        release.countDown();
        call.join();

        assertThat(deadline.armed()).isFalse();
    }

    @Test
    void aCallThatRegistersAfterTheAlarmRangIsCancelledAsItRegisters() {
        Deadline deadline = Deadline.after(Duration.ofMillis(20));
        FakeExchange first = new FakeExchange();
        deadline.guard(new Exchange(), () -> {
            Deadline.register(first);
            await().atMost(Duration.ofSeconds(5)).untilTrue(first.cancelled);
            return null;
        });
        FakeExchange late = new FakeExchange();

        deadline.guard(new Exchange(), () -> {
            Deadline.register(late);
            return null;
        });

        assertThat(late.cancelled).isTrue();
    }

    private static final class FakeExchange implements Cancellable {

        final AtomicBoolean cancelled = new AtomicBoolean();

        @Override
        public boolean cancel() {
            cancelled.set(true);
            return true;
        }
    }
}
