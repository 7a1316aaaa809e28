package lab.fanout.main.web;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * CPU-bound work per request ({@code cpuMs}): real computation, SHA-256 over a 1 KiB block again and again (what
 * hashing, serialising or templating costs a service), not a sleep, so that it holds a core and no thread can hide it.
 * Calibrated once, on first use, against the calling thread's own CPU time ({@link ThreadMXBean}, on a platform
 * thread: a virtual thread reports none): after a warm-up of 300 CPU-ms that gets the loop compiled, the blocks one
 * CPU-ms hashes at the best rate of 50 CPU-ms windows, once three in a row no longer beat it by 3 % (at most 2 s).
 */
final class CpuWork {

    /** The largest {@code cpuMs}: one CPU-second per request. */
    static final int MAX_MS = 1000;
    private static final int BLOCK_BYTES = 1024;
    private static final long WARM_UP_NANOS = TimeUnit.MILLISECONDS.toNanos(300);
    private static final long WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final int PLATEAU = 3;
    private static final long MAX_MEASURE_NANOS = TimeUnit.SECONDS.toNanos(2);

    private CpuWork() {
    }

    /**
     * Spends about {@code ms} CPU-ms on the calling thread.
     *
     * @param ms 0..{@value #MAX_MS}
     * @return a digest byte, so that the work has a result
     */
    static byte spend(int ms) {
        return hash(ms * Calibration.BLOCKS_PER_MS);
    }

    /** @return how many 1 KiB blocks one CPU-ms hashes on this machine (measured once) */
    static long blocksPerMs() {
        return Calibration.BLOCKS_PER_MS;
    }

    private static byte hash(long blocks) {
        MessageDigest sha = sha256();
        byte[] block = new byte[BLOCK_BYTES];
        for (long i = 0; i < blocks; i++) {
            block[(int) (i % BLOCK_BYTES)] ^= (byte) i;
            sha.update(block);
            if (i % 64 == 63) {
                block[0] ^= sha.digest()[0];
            }
        }
        return sha.digest()[0];
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** @return the blocks one CPU-ms hashes, measured on a platform thread of its own */
    private static long measure() {
        long[] result = new long[1];
        // the lambda is CpuWork's, already initialised: one of Calibration's would wait for Calibration's own
        // initialisation, which waits for this thread
        Thread thread = Thread.ofPlatform().name("cpu-work-calibration").start(() -> {
            ThreadMXBean mx = ManagementFactory.getThreadMXBean();
            // the thread's CPU time; the wall clock where a JVM cannot tell (this thread then runs alone)
            LongSupplier clock = mx.isCurrentThreadCpuTimeSupported() && mx.isThreadCpuTimeEnabled()
                    ? mx::getCurrentThreadCpuTime : System::nanoTime;
            // warm-up and windows timed on the thread's own CPU: under load (the first cpuMs request of a cell
            // comes among a hundred others) a wall-clock warm-up ended before the loop was compiled, and cpuMs=20
            // then cost 9-10 CPU-ms (2026-11-26)
            long start = clock.getAsLong();
            while (clock.getAsLong() - start < WARM_UP_NANOS) {
                hash(256);
            }
            // the compiled loop's rate: windows until PLATEAU in a row do not beat the best by more than 3 %
            long best = 0;
            int flat = 0;
            for (long spent = 0; flat < PLATEAU && spent < MAX_MEASURE_NANOS; ) {
                long blocks = 0;
                long from = clock.getAsLong();
                while (clock.getAsLong() - from < WINDOW_NANOS) {
                    hash(256);
                    blocks += 256;
                }
                long nanos = clock.getAsLong() - from;
                spent += nanos;
                long rate = blocks * TimeUnit.MILLISECONDS.toNanos(1) / nanos;
                flat = rate > best * 1.03 ? 0 : flat + 1;
                best = Math.max(best, rate);
            }
            result[0] = Math.max(1, best);
        });
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while calibrating the CPU work", e);
        }
        return result[0];
    }

    /** Measured when {@code spend} is first called. */
    private static final class Calibration {

        static final long BLOCKS_PER_MS = measure();
    }
}
