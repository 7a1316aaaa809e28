package lab.fanout.bench.metrics;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;

import lab.fanout.bench.model.ServerFigures;
import lab.fanout.bench.system.Http;

/**
 * Scrapes main-service's {@code /actuator/prometheus} (on its management port) every second while a run goes on, keeping the peaks; one scrape
 * just before and one just after give the CPU used in between.
 */
public final class Scraper {

    // one scrape costs main-service ~20 ms of CPU (130 KB of histograms): once a second keeps that near 2 %
    static final Duration PERIOD = Duration.ofSeconds(1);
    /** main-service's pooled connections, both pools (Micrometer's HttpClient 5 binder), by {@code state}. */
    public static final String LEASED = "httpcomponents_httpclient_pool_total_connections";
    static final String PENDING = "httpcomponents_httpclient_pool_total_pending";

    private final URI managementUrl;
    private final int cores;

    /**
     * @param mainManagementUrl main-service's actuator base URL, e.g. {@code http://localhost:9222}
     * @param cores             main-service's available processors (for {@code process_cpu_usage}, a 0..1 share of
     *                          all cores)
     */
    public Scraper(URI mainManagementUrl, int cores) {
        this.managementUrl = mainManagementUrl;
        this.cores = cores;
    }

    public Optional<Exposition> scrape() {
        return scrape(managementUrl);
    }

    /**
     * @param managementUrl any service's actuator base URL
     * @return its {@code /actuator/prometheus} now, or empty when it did not answer within 5 s
     */
    public static Optional<Exposition> scrape(URI managementUrl) {
        return Http.get(managementUrl.resolve("/actuator/prometheus"), Duration.ofSeconds(5)).map(Exposition::parse);
    }

    /** @return a running sampler; {@link Sampling#stop()} ends it */
    public Sampling start() {
        return new Sampling();
    }

    /** @return heap in use now, bytes ({@code jvm_memory_used_bytes{area="heap"}}), or null */
    public Double heapBytes() {
        return scrape().map(e -> e.sum("jvm_memory_used_bytes", Map.of("area", "heap"))).map(Scraper::boxed).orElse(null);
    }

    public final class Sampling {

        private final Thread thread;
        private final long startNanos = System.nanoTime();
        private final Exposition first;
        private volatile boolean running = true;
        private Peak platform = new Peak(e -> e.sum("jvm_threads_live_threads"));
        private Peak virtual = new Peak(e -> e.sum("jvm_threads_virtual_live_threads"));
        private Peak leased = new Peak(e -> e.sum(LEASED, Map.of("state", "leased")));
        private Peak pending = new Peak(e -> e.sum(PENDING));
        private double usageSum;
        private int usageCount;
        private int scrapes;

        private Sampling() {
            first = scrape().orElse(null);
            record(first);
            thread = Thread.ofPlatform().daemon().name("lab-scraper").start(this::loop);
        }

        private void loop() {
            while (running) {
                try {
                    Thread.sleep(PERIOD);
                } catch (InterruptedException e) {
                    return;
                }
                scrape().ifPresent(this::record);
            }
        }

        private synchronized void record(Exposition e) {
            if (e == null) {
                return;
            }
            scrapes++;
            for (Peak p : new Peak[] {platform, virtual, leased, pending}) {
                p.offer(e);
            }
            OptionalDouble usage = e.sum("process_cpu_usage");
            if (usage.isPresent()) {
                usageSum += usage.getAsDouble();
                usageCount++;
            }
        }

        /** @return the figures of the run that ends now */
        public ServerFigures stop() {
            running = false;
            thread.interrupt();
            try {
                thread.join(Duration.ofSeconds(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            Exposition last = scrape().orElse(null);
            double seconds = (System.nanoTime() - startNanos) / 1e9;
            synchronized (this) {
                record(last);
                return new ServerFigures(platform.value(), virtual.value(), leased.value(), pending.value(),
                        cpuSeconds(last, seconds), scrapes);
            }
        }

        private Double cpuSeconds(Exposition last, double seconds) {
            String counter = "process_cpu_time_ns_total";
            if (first != null && last != null && first.sum(counter).isPresent() && last.sum(counter).isPresent()) {
                return (last.sum(counter).getAsDouble() - first.sum(counter).getAsDouble()) / 1e9;
            }
            return usageCount == 0 ? null : usageSum / usageCount * cores * seconds;
        }
    }

    /** The largest value seen of one series; null while the metric was never present. */
    private static final class Peak {
        private final Function<Exposition, OptionalDouble> read;
        private Double max;

        Peak(Function<Exposition, OptionalDouble> read) {
            this.read = read;
        }

        void offer(Exposition e) {
            OptionalDouble v = read.apply(e);
            if (v.isPresent()) {
                max = max == null ? v.getAsDouble() : Math.max(max, v.getAsDouble());
            }
        }

        Double value() {
            return max;
        }
    }

    private static Double boxed(OptionalDouble d) {
        return d.isPresent() ? d.getAsDouble() : null;
    }
}
