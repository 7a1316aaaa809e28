package lab.fanout.bench.metrics;

import java.util.Map;

import lab.fanout.bench.model.Repetition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.assertj.core.api.Assertions.within;

class MachineCpuTest {

    @Test
    void othersAreTheBusyShareNotUsedByUs() {
        MachineCpu start = new MachineCpu(1_000, 10_000, Map.of("main-service", 100L, Repetition.DRIVER, 0L));
        // 200 jiffies on 2 cores = 1 s of wall time; 150 busy, of which 60 main-service's and 30 the driver's
        MachineCpu end = new MachineCpu(1_150, 10_200, Map.of("main-service", 160L, Repetition.DRIVER, 30L));
        assertThat(MachineCpu.busyPercent(start, end)).isCloseTo(75, within(1e-9));
        assertThat(MachineCpu.othersPercent(start, end)).isCloseTo(30, within(1e-9));
        assertThat(MachineCpu.othersPercent(start, null)).isNull();
    }

    @Test
    void cpuSecondsPerProcessOnlyForProcessesSeenAtBothEnds() {
        MachineCpu start = new MachineCpu(0, 0, Map.of("main-service", 1_000L, "orders-service", 50L, "gone", 7L));
        MachineCpu end = new MachineCpu(0, 0, Map.of("main-service", 1_250L, "orders-service", 60L, "new", 9L));
        // 100 ticks per second: 250 ticks = 2.5 s
        assertThat(MachineCpu.secondsByProcess(start, end))
                .containsOnly(entry("main-service", 2.5), entry("orders-service", 0.1));
        assertThat(MachineCpu.secondsByProcess(null, end)).isEmpty();
    }

    @Test
    void readsThisMachineAndThisProcess() {
        MachineCpu now = MachineCpu.now(Map.of("me", ProcessHandle.current().pid(), "gone", Long.MAX_VALUE));
        if (now != null) {   // Linux only
            assertThat(now.total()).isGreaterThan(now.busy());
            assertThat(now.processes()).containsKeys("me", Repetition.HARNESS, Repetition.DRIVER)
                    .doesNotContainKey("gone");
            assertThat(now.processes().get("me")).isPositive();
        }
    }
}
