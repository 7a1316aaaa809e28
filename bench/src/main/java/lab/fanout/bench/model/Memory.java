package lab.fanout.bench.model;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * main-service's memory during one measured run, read from outside its JVM ({@code metrics.Footprint}); null = not
 * read (a remote target, or no Native Memory Tracking), shown as n/a, never as 0.
 *
 * @param peakRssMiB    resident set size ({@code VmRSS} of /proc/pid/status), MiB, the largest seen by the scrapes
 *                      (every second); it holds the whole committed heap, so it means little without a fixed heap
 * @param peakOsThreads {@code Threads} of /proc/pid/status: every platform thread, carriers and the JVM's own too
 * @param snapshot      mid-run, with {@code -XX:NativeMemoryTracking=summary}: heap after a full GC and the stacks
 */
public record Memory(Double peakRssMiB, Double peakOsThreads, Snapshot snapshot) {

    public static final Memory NONE = new Memory(null, null, null);
    /** main-service's snapshot of a repetition, or null. */
    public static final Function<Repetition, Snapshot> MAIN = r -> r.server().memory().snapshot();
    /** orders-service's snapshot of a repetition (a block's {@code ordersJvmOptions} with NMT), or null. */
    public static final Function<Repetition, Snapshot> ORDERS = r -> r.server().ordersMemory();

    /**
     * The least-squares slope of memory against requests in flight: KiB per request, what one more request in
     * flight costs, the JVM's fixed memory left out (a ratio memory ÷ requests would keep it in).
     *
     * @param inFlightAndMiB points {requests in flight, MiB}, two or more different x
     * @return KiB per request in flight, or null with fewer than two different x
     */
    public static Double slopeKiB(List<double[]> inFlightAndMiB) {
        double n = inFlightAndMiB.size();
        double mx = inFlightAndMiB.stream().mapToDouble(p -> p[0]).sum() / n;
        double my = inFlightAndMiB.stream().mapToDouble(p -> p[1]).sum() / n;
        double sxx = inFlightAndMiB.stream().mapToDouble(p -> (p[0] - mx) * (p[0] - mx)).sum();
        double sxy = inFlightAndMiB.stream().mapToDouble(p -> (p[0] - mx) * (p[1] - my)).sum();
        return n < 2 || sxx == 0 ? null : 1024 * sxy / sxx;
    }

    /**
     * @param series one strategy and profile's cells at different concurrencies, with snapshots
     * @param whose  a repetition's snapshot of one service ({@link #MAIN}, {@link #ORDERS}), or null
     * @param figure the snapshot's figure, MiB: {@link Snapshot#liveMiB} or {@link Snapshot#offHeapMiB}
     * @return {@link #slopeKiB} once per start of the services (fork), through that fork's points (concurrency, the
     *         median of its repetitions' figure): samples for an interval across JVM starts; a fork with fewer than
     *         two concurrencies gives none
     */
    public static List<Double> slopesPerFork(List<CellResult> series, Function<Repetition, Snapshot> whose,
                                             Function<Snapshot, Double> figure) {
        return series.stream().flatMap(r -> r.repetitions().stream()).map(Repetition::fork).distinct().sorted()
                .map(fork -> slopeKiB(series.stream().map(r -> {
                    Double mib = Stats.median(r.repetitions().stream().filter(p -> p.fork() == fork)
                            .map(p -> snapshot(p, whose, figure)).toList());
                    return mib == null ? null : new double[] {r.cell().concurrency(), mib};
                }).filter(Objects::nonNull).toList())).filter(Objects::nonNull).toList();
    }

    /** @return a figure of a repetition's mid-run snapshot (MiB, or a count), or null without a snapshot */
    public static Double snapshot(Repetition r, Function<Snapshot, Double> figure) {
        return snapshot(r, MAIN, figure);
    }

    /** @return a figure of {@code whose} snapshot of the repetition ({@link #MAIN}, {@link #ORDERS}), or null */
    public static Double snapshot(Repetition r, Function<Repetition, Snapshot> whose,
                                  Function<Snapshot, Double> figure) {
        Snapshot s = whose.apply(r);
        return s == null ? null : figure.apply(s);
    }

    /**
     * @param heapAfterGcMiB    live heap, MiB: the objects a full GC kept, counted in its safepoint (a class
     *                          histogram), virtual threads' stacks included
     *                          (a parked virtual thread's frames are a stack chunk object in the heap)
     * @param stackReservedMiB  platform threads' stacks, address space reserved (NMT "Thread", stack), MiB
     * @param stackCommittedMiB the part of it backed by memory, MiB
     * @param virtualThreads    live virtual threads, parked ones too (a JSON thread dump lists them), or null
     * @param offHeapMiB        NMT's "Other", committed, MiB: memory taken by {@code Unsafe.allocateMemory}, where
     *                          direct ByteBuffers live (Reactor Netty's pooled buffers; Tomcat here reads and writes
     *                          through heap buffers); null where not read (results from before 2026-11-29)
     */
    public record Snapshot(double heapAfterGcMiB, double stackReservedMiB, double stackCommittedMiB,
                           Double virtualThreads, Double offHeapMiB) {

        /** @return heap after GC + committed stacks, MiB: the memory that grows with the requests in flight */
        public double liveMiB() {
            return heapAfterGcMiB + stackCommittedMiB;
        }
    }
}
