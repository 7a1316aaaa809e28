package lab.fanout.bench.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.HdrHistogram.Histogram;
import org.apache.commons.statistics.interval.BinomialConfidenceInterval;
import org.apache.commons.statistics.interval.Interval;

/**
 * A finished cell and the figures the report shows: throughput is the median (and range) of the repetitions; latency
 * percentiles come from all repetitions' requests in one histogram, steadier than a median of p99s. Peaks are the
 * largest of the repetitions; an absent figure is null, never 0.
 *
 * @param index          1-based position in the run
 * @param littlesLaw     the Little's-law bound of the reported knobs; {@link #bound()} adds the CPU's
 * @param heapAfterBytes main-service's heap in use after the last repetition, bytes, or null
 * @param command        the driver command of the first repetition, to reproduce it
 */
public record CellResult(int index, Cell cell, Deployment deployment, Bound littlesLaw, List<Repetition> repetitions,
                         Double heapAfterBytes, String command) {

    /** The processes whose CPU makes D of the CPU bound: main-service, the downstreams and the driver. */
    static final List<String> SYSTEM = Stream.concat(Stream.concat(Stream.of(ServiceDefaults.MAIN),
            ServiceDefaults.DOWNSTREAMS.stream()), Stream.of(Repetition.DRIVER)).toList();

    /** @return req/s: the median with its confidence interval over {@link #samples} of each run's throughput */
    public Stats.Estimate throughput() {
        return Stats.interval(samples(r -> r.run().throughput()));
    }

    public Double throughputMedian() {
        return throughput().median();
    }

    /** @return ms: the percentile's median and interval over {@link #forks()} (or repetitions, with one fork) */
    public Stats.Estimate latencyEstimate(double percentile) {
        return Stats.interval(groups().stream().map(reps -> {
            Histogram h = DriverRun.histogram();
            reps.forEach(r -> h.add(r.run().latencyMicros()));
            return Stats.percentileMs(h, percentile);
        }).toList());
    }

    /**
     * @return one sample per fork (the median of its repetitions) when the cell ran in several starts of the
     *         services, else one per repetition: the interval is then within one JVM and says nothing of the next start
     */
    public List<Double> samples(Function<Repetition, Double> figure) {
        return groups().stream().map(reps -> forks() > 1 ? Stats.median(reps.stream().map(figure).toList())
                : figure.apply(reps.getFirst())).toList();
    }

    /** @return the repetitions by fork when there are several, else each repetition alone */
    private List<List<Repetition>> groups() {
        return forks() > 1 ? List.copyOf(repetitions.stream().collect(Collectors.groupingBy(Repetition::fork,
                TreeMap::new, Collectors.toList())).values()) : repetitions.stream().map(List::of).toList();
    }

    /** @return how many starts of the services the repetitions ran in */
    public int forks() {
        return (int) repetitions.stream().mapToInt(Repetition::fork).distinct().count();
    }

    /** @return false when a warm-up of this cell ended on its time cap before main-service settled */
    public boolean warmupSettled() {
        return repetitions.stream().allMatch(Repetition::warmupSettled);
    }

    /** @return this cell with {@code next}'s repetitions (another fork) added; heap after: the last fork's */
    public CellResult merge(CellResult next) {
        List<Repetition> all = new ArrayList<>(repetitions);
        all.addAll(next.repetitions);
        return new CellResult(index, cell, deployment, littlesLaw, all, next.heapAfterBytes, command);
    }

    /** @return the tighter of Little's law and the CPU bound, cores ÷ {@link #cpuSecondsPerRequest()} (if known) */
    public Bound bound() {
        return littlesLaw.withCpu(cpuSecondsPerRequest(), deployment.cores());
    }

    /** @return median throughput ÷ {@link #bound()}, or NaN when unbounded */
    public double efficiency() {
        return bound().efficiency(throughputMedian());
    }

    public Histogram latencies() {
        Histogram all = DriverRun.histogram();
        repetitions.forEach(r -> all.add(r.run().latencyMicros()));
        return all;
    }

    /** @return the percentile (0..100, 100 = max) of every answered request of every repetition, ms; NaN if none */
    public double latencyMs(double percentile) {
        return Stats.percentileMs(latencies(), percentile);
    }

    /**
     * @return the share of answered requests slower than {@link Tail#slowAboveMs} (0..1) with its 95 % Wilson score
     *         interval over all repetitions' requests, as {low, share, high}; empty without a tail
     */
    public Optional<double[]> slowShare() {
        return cell.tail().map(tail -> {
            Histogram all = latencies();
            long n = all.getTotalCount();
            if (n == 0) {
                return new double[] {Double.NaN, Double.NaN, Double.NaN};
            }
            long above = n - all.getCountBetweenValues(0, (long) (tail.slowAboveMs(deployment.latencyMs()) * 1000));
            Interval ci = BinomialConfidenceInterval.WILSON_SCORE.fromErrorRate((int) n, (int) above, 0.05);
            return new double[] {ci.getLowerBound(), (double) above / n, ci.getUpperBound()};
        });
    }

    /**
     * @return the downstream calls hedging added, % of the calls the answers needed (3 × width each); null without
     *         hedging figures
     */
    public Double extraDownstreamLoadPercent() {
        Double sent = Stats.sumOrNull(each(r -> r.server().hedgesSent()));
        long ok = repetitions.stream().mapToLong(r -> r.run().ok()).sum();
        int calls = cell.tail().map(t -> t.width() * ServiceDefaults.DOWNSTREAM_COUNT)
                .orElse(ServiceDefaults.DOWNSTREAM_COUNT);
        return sent == null || ok == 0 ? null : 100 * sent / (ok * calls);
    }

    public SortedMap<String, Long> errors() {
        SortedMap<String, Long> all = new TreeMap<>();
        repetitions.forEach(r -> r.run().errors().forEach((k, v) -> all.merge(k, v, Long::sum)));
        return all;
    }

    public long errorCount() {
        return errors().values().stream().mapToLong(Long::longValue).sum();
    }

    /** @return the median of a figure over the repetitions, null when absent from all */
    public Double median(Function<Repetition, Double> figure) {
        return Stats.median(each(figure));
    }

    /** @return a memory figure's median over the repetitions ({@link Memory}: MiB, threads), null when absent */
    public Double memory(Function<Memory, Double> figure) {
        return median(r -> figure.apply(r.server().memory()));
    }

    /** @return the mid-run snapshot's heap after GC + committed stacks, MiB, median of the repetitions, or null */
    public Double liveMiB() {
        return memory(m -> m.snapshot() == null ? null : m.snapshot().liveMiB());
    }

    /** @return the largest value of one of main-service's figures over the repetitions, null when absent from all */
    public Double peak(Function<ServerFigures, Double> figure) {
        return Stats.max(each(r -> figure.apply(r.server())));
    }

    /** @return {@link #cpuMsPerAnswer} of each downstream in {@link ServiceDefaults#DOWNSTREAMS}' order (nulls kept) */
    public List<Double> downstreamCpuMsPerCall() {
        return ServiceDefaults.DOWNSTREAMS.stream().map(this::cpuMsPerAnswer).toList();
    }

    /** @return {@code role}'s CPU ms per answered request over all repetitions (Σ CPU ÷ Σ answers), or null */
    public Double cpuMsPerAnswer(String role) {
        return perAnswer(r -> r.cpuSeconds().get(role));
    }

    /** @return main-service's CPU ms per answer: from /proc, else (a remote target) its own process_cpu_time */
    public Double mainCpuMsPerAnswer() {
        Double proc = cpuMsPerAnswer(ServiceDefaults.MAIN);
        return proc != null ? proc : perAnswer(r -> r.server().cpuSeconds());
    }

    /**
     * @return D, the CPU seconds per answered request of {@link #SYSTEM} together, s; null when any is unknown (a
     *         remote target). The harness's own CPU is not per request and stays out.
     */
    public Double cpuSecondsPerRequest() {
        Double ms = Stats.sumOrNull(SYSTEM.stream().map(this::cpuMsPerAnswer).toList());
        return ms == null ? null : ms / 1000;
    }

    private Double perAnswer(Function<Repetition, Double> cpuSeconds) {
        Double cpu = Stats.sumOrNull(each(cpuSeconds));
        long answered = repetitions.stream().mapToLong(r -> r.run().answered()).sum();
        return cpu == null || answered == 0 ? null : 1000 * cpu / answered;
    }

    /**
     * @return whether an open-model cell's answered rate reached 95 % of the offered one (vegeta sends on schedule
     *         whatever the server does, so a shortfall is the server's); true for a closed loop
     */
    public boolean rateSustained() {
        Double offered = cell.ratePerSecond();
        return offered == null || median(r -> r.run().answeredPerSecond()) >= 0.95 * offered;
    }

    private List<Double> each(Function<Repetition, Double> f) {
        return repetitions.stream().map(f).toList();
    }
}
