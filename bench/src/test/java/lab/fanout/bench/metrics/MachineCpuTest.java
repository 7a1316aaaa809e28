package lab.fanout.bench.metrics;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class MachineCpuTest {

    @Test
    void othersAreTheBusyShareNotUsedByUs() {
        MachineCpu start = new MachineCpu(1_000, 10_000, 100);
        // 200 jiffies on 2 cores = 1 s of wall time; 150 busy, of which 60 ours and 0.3 s (30 jiffies) the driver's
        MachineCpu end = new MachineCpu(1_150, 10_200, 160);
        assertThat(MachineCpu.busyPercent(start, end)).isCloseTo(75, within(1e-9));
        assertThat(MachineCpu.othersPercent(start, end, 0.3)).isCloseTo(30, within(1e-9));
        assertThat(MachineCpu.othersPercent(start, null, 0)).isNull();
    }

    @Test
    void readsThisMachineAndThisProcess() {
        MachineCpu now = MachineCpu.now(List.of(ProcessHandle.current().pid()));
        if (now != null) {   // Linux only
            assertThat(now.total()).isGreaterThan(now.busy());
            assertThat(now.own()).isPositive();
        }
    }
}
