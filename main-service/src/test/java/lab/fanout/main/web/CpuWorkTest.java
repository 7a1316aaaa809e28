package lab.fanout.main.web;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code cpuMs} costs about that much CPU: the calibration holds on the thread that spends it. Its own CPU time, not
 * the wall clock, so other work on the machine does not move it; the bounds are wide (half to twice) because a
 * loaded machine's caches and frequency shift the rate a little.
 */
class CpuWorkTest {

    @Test
    void spendingTwentyCpuMsCostsAboutTwentyCpuMs() {
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        assertThat(CpuWork.blocksPerMs()).isPositive();
        CpuWork.spend(20);   // the loop compiled as in a warm service

        long start = cpu.getCurrentThreadCpuTime();
        CpuWork.spend(20);
        double ms = (cpu.getCurrentThreadCpuTime() - start) / 1e6;

        assertThat(ms).as("CPU-ms of spend(20)").isBetween(10.0, 40.0);
    }

    @Test
    void zeroCostsNothingMeasurable() {
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        CpuWork.spend(1);
        long start = cpu.getCurrentThreadCpuTime();
        CpuWork.spend(0);
        assertThat((cpu.getCurrentThreadCpuTime() - start) / 1e6).isLessThan(1.0);
    }
}
