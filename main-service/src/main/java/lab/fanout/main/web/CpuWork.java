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
 * thread: a virtual thread reports none): after a warm-up that gets the loop compiled, the blocks one CPU-ms hashes.
 */
final class CpuWork {

    /** The largest {@code cpuMs}: one CPU-second per request. */
    static final int MAX_MS = 1000;
    private static final int BLOCK_BYTES = 1024;
    private static final long WARM_UP_NANOS = TimeUnit.MILLISECONDS.toNanos(300);
    private static final long MEASURE_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

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
            long until = System.nanoTime() + WARM_UP_NANOS;
            while (System.nanoTime() < until) {
                hash(256);
            }
            long blocks = 0;
            long start = clock.getAsLong();
            while (clock.getAsLong() - start < MEASURE_NANOS) {
                hash(256);
                blocks += 256;
            }
            long nanos = clock.getAsLong() - start;
            result[0] = Math.max(1, blocks * TimeUnit.MILLISECONDS.toNanos(1) / nanos);
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
