package lab.fanout.bench.run;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import lab.fanout.bench.metrics.Scraper;
import lab.fanout.bench.model.Cell;
import lab.fanout.bench.model.DriverRun;
import lab.fanout.bench.model.Load;

/**
 * A cell's warm-up, never measured: runs of its load until main-service is in steady state ({@link #steady}), at least
 * two after a (re)start, whose JIT is cold, and at most {@link #maxWarmupSeconds()} (three times that after a start).
 */
final class Warmup {

    /** The JIT counts as done when it compiled for at most this share of a warm-up run's wall time. */
    static final double JIT_DONE_SHARE = 0.05;
    /** ... or when the rate has stopped moving ({@link #PLATEAU}) while the JIT compiled for at most this share. */
    static final double JIT_PLATEAU_SHARE = 0.20;
    /** The rate has stopped moving: a run answered within this share of the one before, either way. */
    static final double PLATEAU = 0.03;
    static final String JIT_TIME = "jvm_compilation_time_ms_total";

    /** One run of the cell's load; null when the bench was cancelled meanwhile. */
    interface Drive {
        DriverRun run(Load load, String fileSuffix) throws InterruptedException;
    }

    /** The last warm-up run, and whether main-service had settled ({@link #steady}) or the time cap ended it. */
    record Warmed(DriverRun last, boolean settled) {
    }

    private Warmup() {
    }

    /** Warm-up time at most per cell, s: LAB_MAX_WARMUP_SECONDS (or -Dlab.maxWarmupSeconds), default 60. */
    static int maxWarmupSeconds() {
        return Integer.parseInt(System.getenv().getOrDefault("LAB_MAX_WARMUP_SECONDS",
                System.getProperty("lab.maxWarmupSeconds", "60")));
    }

    /**
     * @param fresh main-service has just (re)started
     * @return the last warm-up run and how it ended, or null when cancelled
     */
    static Warmed run(Cell cell, Load load, boolean fresh, Scraper scraper, Drive drive, PrintStream out)
            throws InterruptedException {
        long start = System.nanoTime();
        int maxSeconds = (fresh ? 3 : 1) * maxWarmupSeconds();
        List<String> jitPerRun = new ArrayList<>();
        DriverRun before = null;
        for (int w = 1; ; w++) {
            Double jitBefore = jitMillis(scraper);
            long runStart = System.nanoTime();
            DriverRun last = drive.run(load, "-warmup" + w);
            Double jitAfter = jitMillis(scraper);
            if (last == null) {
                return null;
            }
            Double jit = jitBefore == null || jitAfter == null ? null : jitAfter - jitBefore;
            boolean settled = steady(before, last, jit, (System.nanoTime() - runStart) / 1e6);
            jitPerRun.add(ms(jit));
            if (w >= (fresh ? 2 : 1) && (settled || seconds(start) + cell.warmupSeconds() > maxSeconds)) {
                out.printf(Locale.ROOT, "  warm-up: %d run%s in %.0f s, %.0f req/s in the last; JIT per run %s ms%n", w,
                        w == 1 ? "" : "s", seconds(start), last.answeredPerSecond(), String.join(" / ", jitPerRun));
                if (!settled) {
                    out.printf("  warm-up stopped at its %d s limit before it settled (JIT: %s ms in the last run):"
                            + " the figures may still be rising%n", maxSeconds, ms(jit));
                }
                return new Warmed(last, settled);
            }
            before = last;
        }
    }

    /**
     * @param jitMillis main-service's JIT compilation time during the last run, ms (null: metric absent)
     * @return whether the warm-up is over. Measured on 2 cores after a start (scopeFork, 100 clients, 4 s runs): the
     *         JIT compiled 3,000-7,000 ms per run while the rate climbed from 28 to 400 req/s, and under 100 ms once it
     *         held at 420-435; the rate alone misleads (it held at 245-257 req/s for 5 runs with the JIT at 4,400 ms),
     *         so a plateau counts only once the JIT is down to {@link #JIT_PLATEAU_SHARE}. Without the metric: the last
     *         run answered no more than 10 % faster than the one before.
     */
    static boolean steady(DriverRun before, DriverRun last, Double jitMillis, double runMillis) {
        if (jitMillis == null) {
            return before == null || last.answeredPerSecond() <= 1.10 * before.answeredPerSecond();
        }
        boolean plateau = before != null
                && Math.abs(last.answeredPerSecond() - before.answeredPerSecond())
                        <= PLATEAU * before.answeredPerSecond();
        return jitMillis <= JIT_DONE_SHARE * runMillis || plateau && jitMillis <= JIT_PLATEAU_SHARE * runMillis;
    }

    private static Double jitMillis(Scraper scraper) {
        return scraper.scrape().map(e -> e.sum(JIT_TIME)).filter(v -> v.isPresent()).map(v -> v.getAsDouble())
                .orElse(null);
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }

    private static String ms(Double jit) {
        return jit == null ? "n/a" : String.format(Locale.ROOT, "%.0f", jit);
    }
}
