package lab.fanout.bench.run;

import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;

import lab.fanout.bench.matrix.Cell;
import lab.fanout.bench.model.Bound;
import lab.fanout.bench.model.Stats;
import org.HdrHistogram.Histogram;

/**
 * A finished cell: its repetitions and the figures the report shows. Throughput is the median (and range) over the
 * repetitions; latency percentiles come from all repetitions' requests together (one histogram), which makes p99
 * steadier than a median of three p99s.
 *
 * @param index          1-based position in the run
 * @param cell           the matrix point
 * @param deployment     the knobs main-service reported
 * @param bound          the Little's-law bound for the reported knobs
 * @param repetitions    the measured runs
 * @param heapAfterBytes main-service heap in use after the last repetition, or null
 * @param command        the driver command of the first repetition, for reproducing it
 */
public record CellResult(int index, Cell cell, Deployment deployment, Bound bound, List<Repetition> repetitions,
                         Double heapAfterBytes, String command) {

    public Double throughputMedian() {
        return Stats.median(each(r -> r.run().throughput()));
    }

    public Double throughputMin() {
        return Stats.min(each(r -> r.run().throughput()));
    }

    public Double throughputMax() {
        return Stats.max(each(r -> r.run().throughput()));
    }

    /** @return median throughput ÷ bound, or NaN when unbounded */
    public double efficiency() {
        return bound.efficiency(throughputMedian());
    }

    public Double windowMedianSeconds() {
        return Stats.median(each(r -> r.run().windowSeconds()));
    }

    public Histogram latencies() {
        Histogram all = new Histogram(3);
        repetitions.forEach(r -> all.add(r.run().latencyMicros()));
        return all;
    }

    /** @return the percentile over every answered request of every repetition, ms */
    public double latencyMs(double percentile) {
        Histogram h = latencies();
        return h.getTotalCount() == 0 ? Double.NaN
                : (percentile >= 100 ? h.getMaxValue() : h.getValueAtPercentile(percentile)) / 1000.0;
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

    /** @return main-service CPU seconds per 1,000 answered requests over all repetitions, or null */
    public Double cpuSecondsPer1000() {
        Double cpu = Stats.sumOrNull(each(r -> r.server().cpuSeconds()));
        long answered = repetitions.stream().mapToLong(r -> r.run().answered()).sum();
        return cpu == null || answered == 0 ? null : cpu / answered * 1000;
    }

    public Double machineBusyPercent() {
        return Stats.median(each(Repetition::machineBusyPercent));
    }

    public Double othersCpuPercent() {
        return Stats.median(each(Repetition::othersCpuPercent));
    }

    /** @return the driver's own CPU as % of one core over its runs, or null */
    public Double driverCpuPercent() {
        Double cpu = Stats.sumOrNull(each(r -> r.run().driverCpu() == null ? null : r.run().driverCpu().toNanos() / 1e9));
        double window = repetitions.stream().mapToDouble(r -> r.run().windowSeconds()).sum();
        return cpu == null || window == 0 ? null : 100 * cpu / window;
    }

    /** @return for an open-model cell: whether the answered rate reached 95 % of the offered one (else hey fell behind) */
    public boolean rateSustained() {
        Double offered = cell.ratePerSecond();
        return offered == null || Stats.median(each(r -> r.run().answeredPerSecond())) >= 0.95 * offered;
    }

    private List<Double> each(Function<Repetition, Double> f) {
        return repetitions.stream().map(f).toList();
    }
}
