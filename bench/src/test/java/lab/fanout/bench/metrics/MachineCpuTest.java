package lab.fanout.bench.metrics;

import java.util.List;
import java.util.Map;

import lab.fanout.bench.model.Repetition;
import lab.fanout.bench.system.CpuPlacement;
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

    /** Issue 66: the busy share of the cores main-service does not have. */
    @Test
    void theLoadSideIsTheCoresOrTheShareMainServiceIsNotGiven() {
        // core 0 (the load side's with --main-cpus 1): 90 of 100 ticks busy; core 1 (main-service's): 40 of 100
        MachineCpu start = new MachineCpu(0, 0, Map.of(), List.of(new long[] {0, 0}, new long[] {0, 0}));
        MachineCpu end = new MachineCpu(130, 200, Map.of(), List.of(new long[] {90, 100}, new long[] {40, 100}));
        assertThat(MachineCpu.loadSideBusyPercent(start, end, CpuPlacement.parse("1", 2), null))
                .isCloseTo(90, within(1e-9));
        // a quota of 0.5 on 2 cores: 130 busy ticks, 0.3 s (30 ticks) main-service's: 100 over 1.5 cores' 150 ticks
        assertThat(MachineCpu.loadSideBusyPercent(start, end, CpuPlacement.parse("0.5", 2), 0.3))
                .isCloseTo(100.0 * 100 / 150, within(1e-9));
        assertThat(MachineCpu.loadSideBusyPercent(start, end, CpuPlacement.ALL, 0.3)).isNull();
        assertThat(MachineCpu.loadSideBusyPercent(start, end, null, 0.3)).isNull();
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
            assertThat(now.cores()).hasSize(Runtime.getRuntime().availableProcessors());
            assertThat(now.processes()).containsKeys("me", Repetition.HARNESS, Repetition.DRIVER)
                    .doesNotContainKey("gone");
            assertThat(now.processes().get("me")).isPositive();
        }
    }
}
