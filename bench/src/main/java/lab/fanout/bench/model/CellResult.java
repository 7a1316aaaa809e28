package lab.fanout.bench.model;

import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Stream;

import org.HdrHistogram.Histogram;

/**
 * A finished cell: its repetitions and the figures the report shows. Throughput is the median (and range) over the
 * repetitions; latency percentiles come from all repetitions' requests together (one histogram), which makes p99
 * steadier than a median of three p99s.
 *
 * @param index          1-based position in the run
 * @param cell           the matrix point
 * @param deployment     the knobs main-service reported
 * @param littlesLaw     the Little's-law bound for the reported knobs (known before the cell ran; {@link #bound()} adds
 *                       the CPU's, measured in the cell)
 * @param repetitions    the measured runs
 * @param heapAfterBytes main-service heap in use after the last repetition, or null
 * @param command        the driver command of the first repetition, for reproducing it
 */
public record CellResult(int index, Cell cell, Deployment deployment, Bound littlesLaw, List<Repetition> repetitions,
                         Double heapAfterBytes, String command) {

    /** The processes whose CPU makes D: the system (main-service and the downstreams) and the driver; not the harness. */
    static final List<String> SYSTEM = Stream.of(List.of(ServiceDefaults.MAIN), ServiceDefaults.DOWNSTREAMS, List.of(Repetition.DRIVER))
            .flatMap(List::stream).toList();

    public Double throughputMedian() {
        return Stats.median(each(r -> r.run().throughput()));
    }

    public Double throughputMin() {
        return Stats.min(each(r -> r.run().throughput()));
    }

    public Double throughputMax() {
        return Stats.max(each(r -> r.run().throughput()));
    }

    /**
     * @return the tighter of Little's law and the CPU bound (cores ÷ {@link #cpuSecondsPerRequest()}), the CPU's left out
     *         when D is unknown; cores = main-service's {@code Runtime.availableProcessors()}
     */
    public Bound bound() {
        return littlesLaw.withCpu(cpuSecondsPerRequest(), deployment.cores());
    }

    /** @return median throughput ÷ {@link #bound()}, or NaN when unbounded */
    public double efficiency() {
        return bound().efficiency(throughputMedian());
    }

    public Double windowMedianSeconds() {
        return Stats.median(each(r -> r.run().windowSeconds()));
    }

    public Histogram latencies() {
        Histogram all = new Histogram(3);
        repetitions.forEach(r -> all.add(r.run().latencyMicros()));
        return all;
    }

    /** @return the percentile (0..100, 100 = max) over every answered request of every repetition, ms; NaN if none */
    public double latencyMs(double percentile) {
        return Stats.percentileMs(latencies(), percentile);
    }

    public SortedMap<String, Long> errors() {
        SortedMap<String, Long> all = new TreeMap<>();
        repetitions.forEach(r -> r.run().errors().forEach((k, v) -> all.merge(k, v, Long::sum)));
        return all;
    }

    public long errorCount() {
        return errors().values().stream().mapToLong(Long::longValue).sum();
    }

    public long requests() {
        return repetitions.stream().mapToLong(r -> r.run().answered() + r.run().errors().getOrDefault("transport", 0L)).sum();
    }

    public Double peakPlatformThreads() {
        return Stats.max(each(r -> r.server().peakPlatformThreads()));
    }

    public Double peakVirtualThreads() {
        return Stats.max(each(r -> r.server().peakVirtualThreads()));
    }

    public Double peakPoolLeased() {
        return Stats.max(each(r -> r.server().peakPoolLeased()));
    }

    public Double peakPoolPending() {
        return Stats.max(each(r -> r.server().peakPoolPending()));
    }

    /**
     * @return {@code role}'s CPU ms per answered request over all repetitions (Σ CPU ÷ Σ answers, from /proc; see
     *         {@link Repetition#cpuMsPerAnswer}: per call for a downstream), or null when some repetition lacks it
     */
    /** @return {@link #cpuMsPerAnswer} of each downstream, in ServiceDefaults.DOWNSTREAMS' order; an entry may be null */
    public List<Double> downstreamCpuMsPerCall() {
        return ServiceDefaults.DOWNSTREAMS.stream().map(this::cpuMsPerAnswer).toList();
    }

    public Double cpuMsPerAnswer(String role) {
        return perAnswer(r -> r.cpuSeconds().get(role));
    }

    /**
     * @return main-service's CPU ms per answered request: from /proc where the harness knows its pid, else (a remote
     *         target) from its own {@code process_cpu_time_ns_total}; null when neither is known
     */
    public Double mainCpuMsPerAnswer() {
        Double proc = cpuMsPerAnswer(ServiceDefaults.MAIN);
        return proc != null ? proc : perAnswer(r -> r.server().cpuSeconds());
    }

    /**
     * @return D of the CPU bound: CPU seconds per answered request of main-service, the three downstreams and the
     *         driver together (one call per request to each downstream), s; null when any of them is unknown (a remote
     *         target). The harness's own CPU (scraping, waiting) is not per request and stays out, as does others'.
     */
    public Double cpuSecondsPerRequest() {
        double ms = 0;
        for (String role : SYSTEM) {
            Double v = cpuMsPerAnswer(role);
            if (v == null) {
                return null;
            }
            ms += v;
        }
        return ms / 1000;
    }

    private Double perAnswer(Function<Repetition, Double> cpuSeconds) {
        Double cpu = Stats.sumOrNull(each(cpuSeconds));
        long answered = repetitions.stream().mapToLong(r -> r.run().answered()).sum();
        return cpu == null || answered == 0 ? null : 1000 * cpu / answered;
    }

    public Double machineBusyPercent() {
        return Stats.median(each(Repetition::machineBusyPercent));
    }

    public Double othersCpuPercent() {
        return Stats.median(each(Repetition::othersCpuPercent));
    }

    /**
     * @return for an open-model cell: whether the answered rate reached 95 % of the offered one. vegeta sends on
     *         schedule whatever the server does, so a shortfall is the server's: answers later than the run (a queue)
     *         or none (transport errors)
     */
    public boolean rateSustained() {
        Double offered = cell.ratePerSecond();
        return offered == null || Stats.median(each(r -> r.run().answeredPerSecond())) >= 0.95 * offered;
    }

    private List<Double> each(Function<Repetition, Double> f) {
        return repetitions.stream().map(f).toList();
    }
}
