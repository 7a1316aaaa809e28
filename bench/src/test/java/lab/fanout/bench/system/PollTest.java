package lab.fanout.bench.system;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PollTest {

    @Test
    void returnsOnceTheConditionHolds() {
        AtomicInteger asked = new AtomicInteger();
        Poll.until("the third look", Duration.ofSeconds(5), Duration.ofMillis(1), () -> asked.incrementAndGet() >= 3);
        assertThat(asked).hasValue(3);
    }

    @Test
    void failsNamingWhatItWaitedFor() {
        assertThatThrownBy(() -> Poll.until("the moon", Duration.ofMillis(30), Duration.ofMillis(5), () -> false))
                .isInstanceOf(IllegalStateException.class).hasMessage("waited 30 ms for the moon");
        assertThat(Poll.reached(Duration.ofMillis(30), Duration.ofMillis(5), () -> false)).isFalse();
    }

    @Test
    void aConditionThatThrowsEndsTheWaitAtOnce() {
        long start = System.nanoTime();
        assertThatThrownBy(() -> Poll.until("a dead process", Duration.ofSeconds(30), Duration.ofMillis(5), () -> {
            throw new IllegalStateException("exited with code 1");
        })).hasMessage("exited with code 1");
        assertThat(System.nanoTime() - start).isLessThan(Duration.ofSeconds(5).toNanos());
    }
}
