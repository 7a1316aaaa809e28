package lab.fanout.bench.metrics;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

import lab.fanout.bench.model.Memory;
import lab.fanout.bench.model.ServerFigures;
import lab.fanout.bench.system.Http;

/**
 * Scrapes main-service's {@code /actuator/prometheus} (management port) every second while a run goes on, keeping
 * the peaks; one scrape just before and one just after give the CPU used in between. With orders-service on
 * PostgreSQL ({@link #withOrders}) its db pool's pending peak too (JDBC or R2DBC), and on request its memory.
 */
public final class Scraper {

    // one scrape costs main-service ~20 ms of CPU (130 KB of histograms): once a second keeps that near 2 %
    private static final Duration PERIOD = Duration.ofSeconds(1);
    /** main-service's pooled connections, both pools (Micrometer's HttpClient 5 binder), by {@code state}. */
    public static final String LEASED = "httpcomponents_httpclient_pool_total_connections";
    /** Reactive's pool on Reactor Netty's client (the netty profile's default), as Reactor Netty names it. */
    private static final String REACTOR_POOL = "reactor_netty_connection_provider_";
    /**
     * The series whose peaks {@link ServerFigures} holds, in its order: platform, virtual, leased, pending; leased and
     * pending over HttpClient 5's pools and Reactor Netty's, whichever main-service has.
     */
    private static final List<Function<Exposition, OptionalDouble>> PEAKS = List.of(
            e -> e.sum("jvm_threads_live_threads"), e -> e.sum("jvm_threads_virtual_live_threads"),
            Scraper::leased, Scraper::pending);

    /** @return the connections leased to calls now, of HttpClient 5's pools and Reactor Netty's; empty: neither */
    static OptionalDouble leased(Exposition e) {
        return both(e.sum(LEASED, Map.of("state", "leased")), e.sum(REACTOR_POOL + "active_connections"));
    }

    /** @return the calls waiting for a connection now, in either client's pools; empty: neither */
    static OptionalDouble pending(Exposition e) {
        return both(e.sum("httpcomponents_httpclient_pool_total_pending"), e.sum(REACTOR_POOL + "pending_connections"));
    }

    /** @return the sum of those present, or empty when neither is */
    private static OptionalDouble both(OptionalDouble a, OptionalDouble b) {
        return a.isEmpty() ? b : b.isEmpty() ? a : OptionalDouble.of(a.getAsDouble() + b.getAsDouble());
    }

    private final URI managementUrl;
    private final int cores;
    private URI ordersUrl;

    /**
     * @param mainManagementUrl main-service's actuator base URL, e.g. {@code http://localhost:9222}
     * @param cores             main-service's available processors ({@code process_cpu_usage} is a 0..1 share of
     *                          all cores)
     */
    public Scraper(URI mainManagementUrl, int cores) {
        this.managementUrl = mainManagementUrl;
        this.cores = cores;
    }

    /** @param ordersManagementUrl orders-service's actuator, scraped beside main-service for its db pool's pending */
    public Scraper withOrders(URI ordersManagementUrl) {
        this.ordersUrl = ordersManagementUrl;
        return this;
    }

    /** @return requests waiting for a db connection: HikariCP's gauge on the JDBC store, r2dbc-pool's on R2DBC */
    static OptionalDouble dbPending(Exposition orders) {
        OptionalDouble jdbc = orders.sum("hikaricp_connections_pending");
        return jdbc.isPresent() ? jdbc : orders.sum("r2dbc_pool_pending_connections");
    }

    public Optional<Exposition> scrape() {
        return scrape(managementUrl);
    }

    /** @return any service's {@code /actuator/prometheus} now, or empty when it did not answer within 5 s */
    public static Optional<Exposition> scrape(URI managementUrl) {
        return Http.get(managementUrl.resolve("/actuator/prometheus"), Duration.ofSeconds(5)).map(Exposition::parse);
    }

    /** @return a running sampler; {@link Sampling#stop()} ends it */
    public Sampling start() {
        return new Sampling(null, null, null, null);
    }

    /**
     * @param pid        main-service's process, for RSS and OS threads from /proc (null: a remote one)
     * @param snapshotAt when to take the memory snapshot ({@link Footprint#snapshot}) after the start; null: none
     * @return a running sampler; {@link Sampling#stop()} ends it
     */
    public Sampling start(Long pid, Duration snapshotAt) {
        return start(pid, snapshotAt, null, null);
    }

    /**
     * As {@link #start(Long, Duration)}, with orders-service's memory read too.
     *
     * @param ordersPid        orders-service's process (null: none, or a remote one)
     * @param ordersSnapshotAt when to take its snapshot after the start; null: none
     */
    public Sampling start(Long pid, Duration snapshotAt, Long ordersPid, Duration ordersSnapshotAt) {
        return new Sampling(pid, snapshotAt, ordersPid, ordersSnapshotAt);
    }

    /** @return heap in use now, bytes ({@code jvm_memory_used_bytes{area="heap"}}), or null */
    public Double heapBytes() {
        return scrape().map(e -> e.sum("jvm_memory_used_bytes", Map.of("area", "heap")))
                .filter(OptionalDouble::isPresent).map(OptionalDouble::getAsDouble).orElse(null);
    }

    public final class Sampling {

        private final ScheduledExecutorService timer =
                Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("lab-scraper").factory());
        private final long startNanos = System.nanoTime();
        private final Exposition first;
        private final Double[] peaks = new Double[PEAKS.size()];   // null while a series was never present
        private final Long pid;
        private Double peakRss;
        private Double peakOsThreads;
        private Double peakDbPending;
        private Memory.Snapshot snapshot;
        private Memory.Snapshot ordersSnapshot;
        private double usageSum;
        private int usageCount;
        private int scrapes;

        private Sampling(Long pid, Duration snapshotAt, Long ordersPid, Duration ordersSnapshotAt) {
            this.pid = pid;
            first = scrape().orElse(null);
            record(first);
            timer.scheduleWithFixedDelay(() -> {
                scrape().ifPresent(this::record);
                if (ordersUrl != null) {
                    scrape(ordersUrl).map(Scraper::dbPending).filter(OptionalDouble::isPresent)
                            .ifPresent(v -> recordDbPending(v.getAsDouble()));
                }
            }, PERIOD.toMillis(), PERIOD.toMillis(), TimeUnit.MILLISECONDS);
            snapshotLater(pid, snapshotAt, s -> snapshot = s);
            snapshotLater(ordersPid, ordersSnapshotAt, s -> ordersSnapshot = s);
        }

        /** On the timer's thread, one after the other: two snapshots never pause both services at once. */
        private void snapshotLater(Long processId, Duration at, Consumer<Memory.Snapshot> keep) {
            if (processId != null && at != null) {
                timer.schedule(() -> {
                    Memory.Snapshot s = Footprint.snapshot(processId).orElse(null);
                    synchronized (this) {
                        keep.accept(s);
                    }
                }, at.toMillis(), TimeUnit.MILLISECONDS);
            }
        }

        private synchronized void recordDbPending(double pending) {
            peakDbPending = peakDbPending == null ? pending : Math.max(peakDbPending, pending);
        }

        private synchronized void record(Exposition e) {
            double[] proc = pid == null ? null : Footprint.rssAndThreads(pid);
            if (proc != null) {
                peakRss = peakRss == null ? proc[0] : Math.max(peakRss, proc[0]);
                peakOsThreads = peakOsThreads == null ? proc[1] : Math.max(peakOsThreads, proc[1]);
            }
            if (e == null) {
                return;
            }
            scrapes++;
            for (int i = 0; i < peaks.length; i++) {
                OptionalDouble v = PEAKS.get(i).apply(e);
                if (v.isPresent()) {
                    peaks[i] = peaks[i] == null ? v.getAsDouble() : Math.max(peaks[i], v.getAsDouble());
                }
            }
            OptionalDouble usage = e.sum("process_cpu_usage");
            if (usage.isPresent()) {
                usageSum += usage.getAsDouble();
                usageCount++;
            }
        }

        /** @return the figures of the run that ends now */
        public ServerFigures stop() {
            timer.shutdownNow();
            try {
                timer.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            Exposition last = scrape().orElse(null);
            double seconds = (System.nanoTime() - startNanos) / 1e9;
            synchronized (this) {
                record(last);
                return new ServerFigures(peaks[0], peaks[1], peaks[2], peaks[3], cpuSeconds(last, seconds), scrapes,
                        increase(last, "fanout_hedges_sent_total"), new Memory(peakRss, peakOsThreads, snapshot),
                        increase(last, "jvm_threads_virtual_pinned_seconds_count"), peakDbPending, ordersSnapshot,
                        increase(last, "fanout_answers_partial_total"));
            }
        }

        /**
         * @return how much a counter grew from the first scrape to {@code last} (a series not yet created counts 0:
         *         Micrometer creates a counter at its first increment), or null without both scrapes
         */
        private Double increase(Exposition last, String counter) {
            return first == null || last == null ? null : last.sum(counter).orElse(0) - first.sum(counter).orElse(0);
        }

        /** @return the CPU counter's difference, else the mean usage share × cores × time; null without either */
        private Double cpuSeconds(Exposition last, double seconds) {
            String counter = "process_cpu_time_ns_total";
            if (first != null && last != null && first.sum(counter).isPresent() && last.sum(counter).isPresent()) {
                return increase(last, counter) / 1e9;
            }
            return usageCount == 0 ? null : usageSum / usageCount * cores * seconds;
        }
    }
}
