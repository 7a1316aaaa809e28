package lab.fanout.main.web;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code cpuMs} costs about that much CPU: the calibration holds on the thread that spends it. Its own CPU time, not
 * the wall clock, so other work on the machine does not move it. The calibration runs while busy threads hold every
 * core, as when the first {@code cpuMs} request of a bench cell arrives among a hundred others: a warm-up timed by
 * the wall clock then ended before the loop was compiled, and {@code cpuMs=20} cost 9-10 CPU-ms in a whole cell
 * (2026-11-26). The bounds (±30 %) leave room for a loaded machine's caches and frequency.
 */
class CpuWorkTest {

    /** Calibrates (once per JVM) with every core busy. */
    @BeforeAll
    static void calibrateUnderLoad() throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> busy = new ArrayList<>();
        for (int i = 0; i < 2 * Runtime.getRuntime().availableProcessors(); i++) {
            busy.add(Thread.ofPlatform().daemon().start(() -> {
                long x = 0;
                while (!stop.get()) {
                    x += System.nanoTime() % 7;
                }
                if (x == 42) {
                    System.out.print("");
                }
            }));
        }
        try {
            assertThat(CpuWork.blocksPerMs()).isPositive();
        } finally {
            stop.set(true);
            for (Thread t : busy) {
                t.join();
            }
        }
    }

    @Test
    void spendingTwentyCpuMsCostsAboutTwentyCpuMs() {
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        CpuWork.spend(20);   // the loop compiled as in a warm service

        long start = cpu.getCurrentThreadCpuTime();
        CpuWork.spend(20);
        double ms = (cpu.getCurrentThreadCpuTime() - start) / 1e6;

        assertThat(ms).as("CPU-ms of spend(20), calibrated at %d blocks/ms", CpuWork.blocksPerMs())
                .isBetween(14.0, 26.0);
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
