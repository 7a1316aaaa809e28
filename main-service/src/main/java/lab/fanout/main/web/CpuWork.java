package lab.fanout.main.web;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * CPU-bound work per request ({@code cpuMs}): real computation, SHA-256 over a 1 KiB block again and again (what
 * hashing, serialising or templating costs a service), not a sleep, so that it holds a core and no thread can hide it.
 * Calibrated once, on first use, against the calling thread's own CPU time ({@link ThreadMXBean}, on a platform
 * thread: a virtual thread reports none): after a warm-up of 300 CPU-ms, the blocks one CPU-ms hashes at the best
 * rate of 50 CPU-ms windows, once a block runs as C2's code ({@link TopTier}) and three windows in a row no longer
 * beat it by 3 % (at most 5 CPU-s; the result is logged).
 */
final class CpuWork {

    /** The largest {@code cpuMs}: one CPU-second per request. */
    static final int MAX_MS = 1000;
    private static final int BLOCK_BYTES = 1024;
    private static final long WARM_UP_NANOS = TimeUnit.MILLISECONDS.toNanos(300);
    private static final long WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final int PLATEAU = 3;
    private static final long MAX_MEASURE_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final Log LOG = LogFactory.getLog(CpuWork.class);

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
            block(sha, block, i);
        }
        return sha.digest()[0];
    }

    /** One block: a method of its own, so that the calibration can wait for its C2 code (SHA-256 inlined in it). */
    private static void block(MessageDigest sha, byte[] block, long i) {
        block[(int) (i % BLOCK_BYTES)] ^= (byte) i;
        sha.update(block);
        if (i % 64 == 63) {
            block[0] ^= sha.digest()[0];
        }
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
        Thread thread = Thread.ofPlatform().name("cpu-work-calibration").start(() -> result[0] = calibrate());
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while calibrating the CPU work", e);
        }
        return result[0];
    }

    private static long calibrate() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        // the thread's CPU time; the wall clock where a JVM cannot tell (this thread then runs alone)
        LongSupplier clock = mx.isCurrentThreadCpuTimeSupported() && mx.isThreadCpuTimeEnabled()
                ? mx::getCurrentThreadCpuTime : System::nanoTime;
        // timed on the thread's own CPU: under load (the first cpuMs request of a cell comes among a hundred others)
        // a wall-clock warm-up ended before the loop was compiled, and cpuMs=20 then cost 9-10 CPU-ms (2026-11-26)
        long start = clock.getAsLong();
        while (clock.getAsLong() - start < WARM_UP_NANOS) {
            hash(256);
        }
        // C1's code hashes about 1/10 as fast as C2's, which has SHA-256's intrinsic, and C2 compiles when the
        // block's turn in its queue comes: a fresh-clone test run (2026-11-27) had cpuMs=20 cost 2.8 CPU-ms, a
        // plateau taken at C1's rate. So windows count toward the plateau only once a block runs as C2's code.
        boolean topTier = false;
        long best = 0;
        int flat = 0;
        for (long spent = 0; flat < PLATEAU && spent < MAX_MEASURE_NANOS; ) {
            topTier = topTier || TopTier.compiled(CpuWork.class, "block");
            long blocks = 0;
            long from = clock.getAsLong();
            while (clock.getAsLong() - from < WINDOW_NANOS) {
                hash(256);
                blocks += 256;
            }
            long nanos = clock.getAsLong() - from;
            spent += nanos;
            long rate = blocks * TimeUnit.MILLISECONDS.toNanos(1) / nanos;
            flat = !topTier || rate > best * 1.03 ? 0 : flat + 1;
            best = Math.max(best, rate);
        }
        if (flat < PLATEAU) {
            LOG.warn("cpuMs calibration: no plateau " + (topTier ? "" : "of the C2-compiled loop ") + "within "
                    + TimeUnit.NANOSECONDS.toMillis(MAX_MEASURE_NANOS) + " CPU-ms; taking the best rate seen");
        }
        LOG.info("cpuMs calibrated: " + best + " blocks of 1 KiB hashed per CPU-ms");
        return Math.max(1, best);
    }

    /** Measured when {@code spend} is first called. */
    private static final class Calibration {

        static final long BLOCKS_PER_MS = measure();
    }
}
