package lab.fanout.bench.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class SchedulingTest {

    @Test
    void switchesAddUpOverTheThreadsAliveAtTheEndAndAQuotaIsNeededForThrottling() {
        Scheduling start = new Scheduling(Map.of(1L, 10L, 2L, 5L, 3L, 7L), Map.of(1L, 1L), -1, -1);
        // thread 2 grew by 4, thread 3 ended (lost), thread 4 is new (all of its 6)
        Scheduling end = new Scheduling(Map.of(1L, 12L, 2L, 9L, 4L, 6L), Map.of(1L, 3L, 4L, 1L), -1, -1);
        Scheduling.Delta d = Scheduling.between(start, end);
        assertThat(d.voluntarySwitches()).isEqualTo(2 + 4 + 6);
        assertThat(d.involuntarySwitches()).isEqualTo(2 + 1);
        assertThat(d.throttledPeriods()).isNull();
        assertThat(d.throttledSeconds()).isNull();
        Scheduling.Delta quota = Scheduling.between(new Scheduling(Map.of(), Map.of(), 3, 1_000_000_000L),
                new Scheduling(Map.of(), Map.of(), 10, 3_500_000_000L));
        assertThat(quota.throttledPeriods()).isEqualTo(7);
        assertThat(quota.throttledSeconds()).isEqualTo(2.5);
        assertThat(Scheduling.between(null, end)).isNull();
    }

    @Test
    void readsThisJvmsThreads() throws Exception {
        Scheduling before = Scheduling.now(ProcessHandle.current().pid());
        if (before == null) {
            return;   // not Linux
        }
        Thread.sleep(50);   // a sleep is a voluntary switch of this thread
        Scheduling.Delta d = Scheduling.between(before, Scheduling.now(ProcessHandle.current().pid()));
        assertThat(d.voluntarySwitches()).isPositive();
        assertThat(before.voluntary()).hasSizeGreaterThan(1);   // every thread of the JVM, not the main one alone
        assertThat(Scheduling.throttling(List.of("1:cpu:/", "0::/"))).containsExactly(-1, -1);
    }
}
