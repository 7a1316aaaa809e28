package lab.fanout.bench.metrics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import lab.fanout.bench.model.Memory;
import lab.fanout.bench.system.Processes;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads main-service's memory from outside its JVM: RSS and OS threads from {@code /proc/<pid>/status} (proc(5)),
 * cheap enough for every scrape; and, for a JVM started with {@code -XX:NativeMemoryTracking=summary}, a snapshot
 * through {@code jcmd}: the live heap, the bytes of every object a full GC kept, counted in the same safepoint
 * ({@code GC.class_histogram}: its Total line), the thread stacks Native Memory Tracking counts, reserved and
 * committed, and the off-heap memory in its "Other" category, where direct buffers live
 * ({@code VM.native_memory summary}), and the live virtual threads ({@code Thread.dump_to_file
 * -format=json}). Not {@code GC.run} then {@code GC.heap_info}: the second attach came 0.1-0.6 s after the GC, and
 * under load the heap had grown by then (on 2026-11-26, 1,000 clients: 210-256 MiB read so, against 202-221 MiB
 * live by the histogram, in turns on one JVM: docs/results/footprint-snapshot-race-20261126.sh). Measured here
 * (JDK 25, 69 platform threads): 70,656 KB of stack reserved, the default 1 MiB each, and 6,112 KB committed.
 */
public final class Footprint {

    /** The JVM option that turns the snapshot on: without it {@code VM.native_memory} has nothing to say. */
    public static final String NMT = "-XX:NativeMemoryTracking=summary";
    private static final Duration JCMD_TIMEOUT = Duration.ofSeconds(60);
    private static final Pattern STACK = Pattern.compile(
            "\\(stack: reserved=(\\d+)KB, committed=(\\d+)KB");
    /** NMT's "Other" category: {@code Unsafe.allocateMemory}, so every direct ByteBuffer (JDK 25: memReporter). */
    private static final Pattern OTHER = Pattern.compile(
            "(?m)^-\\s+Other \\(reserved=\\d+KB, committed=(\\d+)KB");
    private static final Pattern VM_RSS = Pattern.compile("(?m)^VmRSS:\\s+(\\d+)");
    private static final Pattern THREADS = Pattern.compile("(?m)^Threads:\\s+(\\d+)");
    /** The histogram's last line: {@code Total  <instances>  <bytes>}. */
    private static final Pattern LIVE_BYTES = Pattern.compile("(?m)^Total\\s+\\d+\\s+(\\d+)\\s*$");
    private static final JsonMapper JSON = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

    private Footprint() {
    }

    /** @return {@code {VmRSS in MiB, Threads}} of the process now, or null when it is gone or /proc is unreadable */
    public static double[] rssAndThreads(long pid) {
        try {
            String status = Files.readString(Path.of("/proc/" + pid + "/status"));
            return new double[] {field(status, VM_RSS) / 1024.0, field(status, THREADS)};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * A full GC with the live heap counted in it, then the thread stacks; the GC and the count pause main-service for
     * up to a second, which a throughput figure of the same run pays.
     *
     * @return the snapshot; empty where jcmd failed (the JVM is gone, or runs without {@link #NMT})
     */
    public static Optional<Memory.Snapshot> snapshot(long pid) {
        Optional<String> histogram = jcmd(pid, "GC.class_histogram");
        Optional<String> nmt = jcmd(pid, "VM.native_memory", "summary", "scale=KB");
        if (histogram.isEmpty() || nmt.isEmpty()) {
            return Optional.empty();
        }
        return parse(histogram.get(), nmt.get(), liveVirtualThreads(pid));
    }

    /**
     * @param classHistogram {@code jcmd GC.class_histogram}'s answer
     * @param virtualThreads live virtual threads, or null
     * @return the live heap (MiB), the thread stacks and the off-heap memory (null without an "Other" line) from
     *         jcmd's answers; empty when either answer lacks the heap's or the stacks' line
     */
    static Optional<Memory.Snapshot> parse(String classHistogram, String nativeMemory, Double virtualThreads) {
        Matcher live = LIVE_BYTES.matcher(classHistogram);
        Matcher stack = STACK.matcher(nativeMemory);
        if (!live.find() || !stack.find()) {
            return Optional.empty();
        }
        Matcher other = OTHER.matcher(nativeMemory);
        Double offHeapMiB = other.find() ? Long.parseLong(other.group(1)) / 1024.0 : null;
        return Optional.of(new Memory.Snapshot(Long.parseLong(live.group(1)) / (1024.0 * 1024),
                Long.parseLong(stack.group(1)) / 1024.0, Long.parseLong(stack.group(2)) / 1024.0, virtualThreads,
                offHeapMiB));
    }

    /** The part of {@code jcmd Thread.dump_to_file -format=json} read here. */
    record ThreadDump(Dump threadDump) {
        record Dump(List<Container> threadContainers) {
        }

        record Container(List<DumpedThread> threads) {
        }

        /** @param virtual true for a virtual thread; absent (null) for a platform one */
        record DumpedThread(Boolean virtual) {
        }

        long virtualThreads() {
            return threadDump.threadContainers().stream().flatMap(c -> c.threads().stream())
                    .filter(t -> Boolean.TRUE.equals(t.virtual())).count();
        }
    }

    /**
     * @return every live virtual thread, parked ones too (the JDK's scheduler counts only mounted and queued ones):
     *         from a JSON thread dump, the one place the JDK lists them all; null when the dump failed
     */
    static Double liveVirtualThreads(long pid) {
        Path dump = Path.of(System.getProperty("java.io.tmpdir"), "lab-threads-" + pid + "-" + System.nanoTime()
                + ".json");
        try {
            return jcmd(pid, "Thread.dump_to_file", "-format=json", dump.toString())
                    .map(ok -> (double) JSON.readValue(dump.toFile(), ThreadDump.class).virtualThreads()).orElse(null);
        } catch (RuntimeException e) {
            return null;
        } finally {
            dump.toFile().delete();
        }
    }

    private static Optional<String> jcmd(long pid, String... command) {
        String java = ProcessHandle.current().info().command().orElse("java");
        Path jcmd = Path.of(java).resolveSibling("jcmd");
        List<String> line = new java.util.ArrayList<>(List.of(jcmd.toString(), Long.toString(pid)));
        line.addAll(List.of(command));
        Processes.Result r = Processes.run(line, null, JCMD_TIMEOUT);
        return r.ok() ? Optional.of(r.output()) : Optional.empty();
    }

    /** @return the number of a {@code Name:   123 kB} line of /proc/pid/status */
    private static long field(String status, Pattern line) {
        Matcher m = line.matcher(status);
        if (!m.find()) {
            throw new IllegalArgumentException("no " + line + " in /proc/<pid>/status");
        }
        return Long.parseLong(m.group(1));
    }
}
