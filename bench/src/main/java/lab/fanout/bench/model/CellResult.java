package lab.fanout.bench.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 * A finished cell and the figures the report shows: each figure of a repetition (throughput, a latency percentile, a
 * peak, CPU per request) as the median with its confidence interval over {@link #samples} ({@link #estimate}); the
 * heap after the cell, read once per fork, over the forks. {@link #latencyMs} and {@link #slowShare} pool all
 * repetitions' requests instead. An absent figure is null, never 0.
 *
 * @param index          1-based position in the run
 * @param littlesLaw     the Little's-law bound of the reported knobs; {@link #bound()} adds the CPU's
 * @param heapAfterBytes fork (1-based) to main-service's heap in use after that fork's last repetition, bytes; a fork
 *                       where it could not be read is absent
 * @param command        the driver command of the first repetition, to reproduce it
 */
public record CellResult(int index, Cell cell, Deployment deployment, Bound littlesLaw, List<Repetition> repetitions,
                         Map<Integer, Double> heapAfterBytes, String command) {

    public CellResult {
        heapAfterBytes = Map.copyOf(heapAfterBytes);
    }

    /** The processes whose CPU makes D of the CPU bound: main-service, the downstreams and the driver. */
    static final List<String> SYSTEM = Stream.concat(Stream.concat(Stream.of(ServiceDefaults.MAIN),
            ServiceDefaults.DOWNSTREAMS.stream()), Stream.of(Repetition.DRIVER)).toList();

    /**
     * @return whether the load side (downstreams, driver) was busy past
     *         {@link SchedulerFigures#LOAD_SIDE_BOUND_PERCENT}
     *         in the median repetition: then it, not main-service, may be what bound the cell, which gets no verdict
     */
    public boolean loadSideBound() {
        Double busy = median(Repetition::loadSideBusyPercent);
        return busy != null && busy > SchedulerFigures.LOAD_SIDE_BOUND_PERCENT;
    }

    /** @return req/s: the median with its confidence interval over {@link #samples} of each run's throughput */
    public Stats.Estimate throughput() {
        return estimate(r -> r.run().throughput());
    }

    /** @return a repetition's figure (in its unit): the median with its confidence interval over {@link #samples} */
    public Stats.Estimate estimate(Function<Repetition, Double> figure) {
        return Stats.interval(samples(figure));
    }

    /** @return MB: the heap after the cell, median and interval over the forks (n = 1 with one fork) */
    public Stats.Estimate heapAfterMB() {
        return Stats.interval(heapAfterBytes.values().stream().map(b -> b / 1e6).toList());
    }

    public Double throughputMedian() {
        return throughput().median();
    }

    /**
     * @return ms: the percentile (0..100, 100 = max) of each repetition's requests, its median and interval over
     *         {@link #samples}, as results.csv's per-repetition columns give it and {@code ./lab compare} reads it
     */
    public Stats.Estimate latencyEstimate(double percentile) {
        return estimate(r -> Stats.percentileMs(r.run().latencyMicros(), percentile));
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

    /** main-service's CPU ms per request may fall this far below the cell's {@code cpuMs} before it is flagged. */
    static final double CPU_SPENT_SHARE = 0.8;

    /**
     * @return false when main-service spent under 80 % of the CPU ms per request that the query asks for ({@code
     *         cpuMs}): CpuWork's calibration missed (a cpu run on 2026-11-26 read 10 CPU-ms for cpuMs=20), so the cell
     *         did not measure the CPU-bound work it names; true where none is asked or main-service's CPU is unknown
     */
    public boolean cpuSpent() {
        Double spent = cpuMsPerAnswer(ServiceDefaults.MAIN);
        return cell.cpuMs() == 0 || spent == null || spent >= CPU_SPENT_SHARE * cell.cpuMs();
    }

    /** @return this cell with {@code next}'s repetitions and heap after (another fork) added */
    public CellResult merge(CellResult next) {
        List<Repetition> all = new ArrayList<>(repetitions);
        all.addAll(next.repetitions);
        Map<Integer, Double> heap = new TreeMap<>(heapAfterBytes);
        heap.putAll(next.heapAfterBytes);
        return new CellResult(index, cell, deployment, littlesLaw, all, heap, command);
    }

    /** @return the tighter of Little's law and the CPU bound, cores ÷ {@link #cpuSecondsPerRequest()} (if known) */
    public Bound bound() {
        Double own = median(r -> r.scheduler() == null || r.loadSideBusyPercent() == null ? null
                : r.scheduler().mainCpus());
        // placed (--main-cpus): the cores that bind are main-service's own, the load side has its own (issue 66)
        return own != null ? littlesLaw.withCpu(cpuSecondsPerRequest(List.of(ServiceDefaults.MAIN)), own)
                : littlesLaw.withCpu(cpuSecondsPerRequest(), deployment.cores());
    }

    /** @return median throughput ÷ {@link #bound()}, or NaN when unbounded; with forks, {@link #efficiencyEstimate} */
    public double efficiency() {
        if (forks() <= 1) {
            return bound().efficiency(throughputMedian());
        }
        Double percent = efficiencyEstimate().median();
        return percent == null ? Double.NaN : percent / 100;
    }

    /**
     * @return %: measured ÷ bound, the median with its interval over {@link #samples}: with forks, each fork's
     *         throughput ÷ that fork's own bound (the machine's speed, so D, moves between starts of the services:
     *         the same cell's CPU bound read 582–835 req/s over five forks on 2026-11-26), as results.csv's
     *         efficiency_pct; else each repetition ÷ the cell's bound. NaN when nothing bounds the cell.
     */
    public Stats.Estimate efficiencyEstimate() {
        if (forks() <= 1) {
            return throughput().times(100 / bound().requestsPerSecond());
        }
        return Stats.interval(groups().stream().map(reps -> 100 * fork(reps).efficiency()).toList());
    }

    /**
     * @return the cell as each fork ran it, in fork order, each with its fork's heap after the cell: what a run
     *         appends to results.csv after each fork
     */
    public List<CellResult> byFork() {
        return repetitions.stream().collect(Collectors.groupingBy(Repetition::fork, TreeMap::new, Collectors.toList()))
                .entrySet().stream().map(e -> new CellResult(index, cell, deployment, littlesLaw, e.getValue(),
                        heapAfterBytes.containsKey(e.getKey()) ? Map.of(e.getKey(), heapAfterBytes.get(e.getKey()))
                                : Map.of(), command)).toList();
    }

    /** @return the cell as one fork ran it: {@code reps}, all of that fork */
    private CellResult fork(List<Repetition> reps) {
        return new CellResult(index, cell, deployment, littlesLaw, reps, Map.of(), command);
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
            long above = 0;
            long n = 0;
            for (Repetition r : repetitions) {
                long[] slow = r.run().slowerThan(tail.slowAboveMs(deployment.latencyMs()));
                above += slow[0];
                n += slow[1];
            }
            if (n == 0) {
                return new double[] {Double.NaN, Double.NaN, Double.NaN};
            }
            Interval ci = BinomialConfidenceInterval.WILSON_SCORE.fromErrorRate((int) n, (int) above, 0.05);
            return new double[] {ci.getLowerBound(), (double) above / n, ci.getUpperBound()};
        });
    }

    /**
     * @return per repetition, the downstream calls hedging added, % of the calls its 2xx answers needed (3 × width
     *         each): median and interval; n = 0 without hedging figures
     */
    public Stats.Estimate extraDownstreamLoadPercent() {
        int calls = cell.tail().map(t -> t.width() * ServiceDefaults.DOWNSTREAM_COUNT)
                .orElse(ServiceDefaults.DOWNSTREAM_COUNT);
        return estimate(r -> r.server().hedgesSent() == null || r.run().ok() == 0 ? null
                : 100 * r.server().hedgesSent() / (r.run().ok() * calls));
    }

    /**
     * @return per repetition, its partial answers ({@code onDeadline=partial}: a 200 without some downstream's
     *         catalogue) % of its 2xx answers: median and interval; n = 0 without the count
     */
    public Stats.Estimate partialAnswersPercent() {
        return estimate(r -> r.server().partialAnswers() == null || r.run().ok() == 0 ? null
                : 100 * r.server().partialAnswers() / r.run().ok());
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

    /** @return the mid-run snapshot's heap after GC + committed stacks, MiB, median of the repetitions, or null */
    public Double liveMiB() {
        return median(r -> Memory.snapshot(r, Memory.Snapshot::liveMiB));
    }

    /** @return {@code role}'s CPU ms per answered request over all repetitions (Σ CPU ÷ Σ answers), or null */
    public Double cpuMsPerAnswer(String role) {
        return perAnswer(r -> r.cpuSeconds().get(role));
    }

    /**
     * @return D, the CPU seconds per answered request of {@link #SYSTEM} together, s; with forks, the median of each
     *         fork's D (each start ran at the machine's speed of its time); null when any is unknown (a remote
     *         target). The harness's own CPU is not per request and stays out.
     */
    public Double cpuSecondsPerRequest() {
        return cpuSecondsPerRequest(SYSTEM);
    }

    /** @return as above, of {@code roles} alone: the median of the forks' with forks */
    private Double cpuSecondsPerRequest(List<String> roles) {
        if (forks() > 1) {
            List<Double> perFork = groups().stream().map(reps -> fork(reps).cpuSecondsPerRequest(roles)).toList();
            return perFork.contains(null) ? null : Stats.median(perFork);
        }
        Double ms = Stats.sumOrNull(roles.stream().map(this::cpuMsPerAnswer).toList());
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
