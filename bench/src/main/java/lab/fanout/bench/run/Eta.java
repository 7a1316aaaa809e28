package lab.fanout.bench.run;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.ToIntBiFunction;

import lab.fanout.bench.model.Bound;
import lab.fanout.bench.model.Cell;
import lab.fanout.bench.model.JvmOptions;
import lab.fanout.bench.model.ServiceDefaults;

/** A run's remaining time: each cell's estimate, scaled by how the finished cells' estimates compared to reality. */
public final class Eta {

    /** A (re)start on 2 cores: about 30 s until ready, then about 60 s of warm-up until the JIT has settled. */
    static final int RESTART_SECONDS = 90;

    private final long start = System.nanoTime();
    private final double[] estimates;
    private double estimatedDone;
    private int next;

    /**
     * @param restarts service restarts between two cells (the first cell's previous is null), as the target does them
     */
    public Eta(List<Cell> cells, ToIntBiFunction<Cell, Cell> restarts) {
        estimates = new double[cells.size()];
        for (int i = 0; i < cells.size(); i++) {
            Cell c = cells.get(i);
            estimates[i] = estimateSeconds(c)
                    + RESTART_SECONDS * restarts.applyAsInt(i == 0 ? null : cells.get(i - 1), c);
        }
    }

    void done(int index) {
        estimatedDone += estimates[index];
        next = index + 1;
    }

    Duration elapsed() {
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /** @return the time left; before any cell finished, the whole estimate */
    public Duration remaining() {
        double left = 0;
        for (int i = next; i < estimates.length; i++) {
            left += estimates[i];
        }
        double scale = estimatedDone == 0 ? 1 : Math.clamp(elapsed().toMillis() / 1000.0 / estimatedDone, 0.3, 3);
        return Duration.ofSeconds(Math.round(left * scale));
    }

    /** Warm-up plus repetitions, s; a request-count cell at 90 % of its bound with the services' default knobs. */
    static double estimateSeconds(Cell c) {
        double perRep = c.durationSeconds() != null ? c.durationSeconds() : c.requests() / estimatedRate(c);
        double tail = 3 * c.latencyMs() / 1000.0;
        return c.warmupSeconds() + tail + c.repetitions() * (perRep + tail + 1);
    }

    private static double estimatedRate(Cell c) {
        boolean virtual = !ServiceDefaults.poolOfRequestThreads(c.profile());
        int pool = c.poolSize() == null ? ServiceDefaults.POOL_TOTAL : c.poolSize();
        int parallelism = JvmOptions.commonPoolParallelism(c.jvmOptions())
                .orElse(Math.max(1, Runtime.getRuntime().availableProcessors() - 1));
        Bound b = Bound.littlesLaw().strategy(c.strategy()).virtualProfile(virtual).clients(c.concurrency())
                .tomcatThreads(c.tomcatThreads() == null ? ServiceDefaults.TOMCAT_THREADS : c.tomcatThreads())
                .poolTotal(pool).poolPerRoute(c.poolSize() == null ? ServiceDefaults.POOL_PER_ROUTE : pool)
                .latencyMs(c.latencyMs()).parallelism(parallelism).ratePerSecond(c.ratePerSecond()).dbPool(c.dbPool())
                .build();
        if (Double.isInfinite(b.requestsPerSecond())) {
            return c.requests();   // latency 0: about a second
        }
        // past main-service's deadline a request ends anyway, as a 504
        int inFlight = virtual || c.tomcatThreads() == null ? c.concurrency()
                : Math.min(c.concurrency(), c.tomcatThreads());
        return Math.max(0.9 * b.requestsPerSecond(), inFlight / (double) ServiceDefaults.DEADLINE_SECONDS);
    }

    /** @return e.g. {@code 1:05} or {@code 1:02:05} */
    public static String format(Duration d) {
        long s = d.toSeconds();
        return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }
}
