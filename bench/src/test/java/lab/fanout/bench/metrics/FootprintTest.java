package lab.fanout.bench.metrics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import lab.fanout.bench.model.Memory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class FootprintTest {

    /** jcmd's answers as JDK 25 gives them (69 platform threads, 256 MiB fixed heap). */
    static final String CLASS_HISTOGRAM = """
            28304:
             num     #instances         #bytes  class name (module)
            -------------------------------------------------------
               1:         15390         758208  [B (java.base@25.0.3)
             825:             1             16  sun.nio.fs.NativeBuffers$1 (java.base@25.0.3)
            Total         66918        3093504
            """;
    static final String NATIVE_MEMORY = """
            -                 Java Heap (reserved=262144KB, committed=262144KB)
                                        (mmap: reserved=262144KB, committed=262144KB, at peak)
            -                    Thread (reserved=70906KB, committed=6362KB)
                                        (threads #69)
                                        (stack: reserved=70656KB, committed=6112KB, peak=6112KB)
            -                     Other (reserved=2056KB, committed=2056KB)
                                        (malloc=2056KB #12) (at peak)
            """;

    @Test
    void jcmdsAnswersGiveTheHeapAfterGcAndTheThreadStacks() {
        Memory.Snapshot s = Footprint.parse(CLASS_HISTOGRAM, NATIVE_MEMORY, 12.0).orElseThrow();
        assertThat(s.heapAfterGcMiB()).isCloseTo(3093504 / 1048576.0, within(1e-9));
        assertThat(s.stackReservedMiB()).isEqualTo(69.0);
        assertThat(s.stackCommittedMiB()).isCloseTo(6112 / 1024.0, within(1e-9));
        assertThat(s.virtualThreads()).isEqualTo(12.0);
        assertThat(s.offHeapMiB()).isCloseTo(2056 / 1024.0, within(1e-9));
        assertThat(Footprint.parse(CLASS_HISTOGRAM, NATIVE_MEMORY.substring(0, NATIVE_MEMORY.lastIndexOf("-   ")), null)
                .orElseThrow().offHeapMiB()).as("no Other line: not read, not 0").isNull();
        assertThat(Footprint.parse(CLASS_HISTOGRAM, "Native memory tracking is not enabled", null)).isEmpty();
        assertThat(Footprint.parse("28304:\nno histogram", NATIVE_MEMORY, null)).isEmpty();
    }

    /**
     * The live heap is read in the full GC's own safepoint: a JVM that keeps 4 MiB and allocates garbage as fast as
     * it can reads a few MiB, where GC.run and then GC.heap_info read whatever had been allocated in between (up to
     * the young generation's size; 210-256 MiB against 202-221 MiB live under the footprint preset's load).
     */
    @Test
    void theLiveHeapIsCountedInTheGcNotReadAfterWhatTheLoadAllocatedSince(@TempDir Path dir) throws Exception {
        Path main = Files.writeString(dir.resolve("Allocator.java"), """
                public class Allocator {
                    public static void main(String[] a) throws Exception {
                        Thread.ofPlatform().daemon().start(() -> {
                            byte[][] keep = new byte[4][];
                            for (int i = 0; ; i++) {
                                keep[i & 3] = new byte[1 << 20];
                            }
                        });
                        System.out.println("started");
                        Thread.sleep(60_000);
                    }
                }
                """);
        Process jvm = started(main, "256m");
        try {
            for (int i = 0; i < 3; i++) {
                assertThat(Footprint.snapshot(jvm.pid()).orElseThrow().heapAfterGcMiB()).as("live heap, MiB")
                        .isBetween(4.0, 16.0);
            }
        } finally {
            stop(jvm);
        }
    }

    @Test
    void procGivesThisJvmsRssAndThreads() {
        double[] own = Footprint.rssAndThreads(ProcessHandle.current().pid());
        assertThat(own[0]).as("RSS, MiB").isGreaterThan(10);
        assertThat(own[1]).as("threads").isGreaterThan(5);
        assertThat(Footprint.rssAndThreads(Long.MAX_VALUE)).isNull();
    }

    @Test
    void nativeMemoryTrackingShowsPlatformStacksReservedNotCommittedAndTheDumpTheParkedVirtualThreads(@TempDir Path dir)
            throws IOException, InterruptedException {
        // 40 sleeping platform threads: each reserves its 1 MiB default stack and commits a few pages of it; and 40
        // parked virtual threads, which no OS thread and no NMT stack holds
        Path main = Files.writeString(dir.resolve("Sleepers.java"), """
                public class Sleepers {
                    public static void main(String[] a) throws Exception {
                        for (int i = 0; i < 40; i++) {
                            Thread.ofPlatform().daemon().start(() -> {
                                try { Thread.sleep(60_000); } catch (InterruptedException e) { }
                            });
                            Thread.ofVirtual().start(() -> {
                                try { Thread.sleep(60_000); } catch (InterruptedException e) { }
                            });
                        }
                        System.out.println("started");
                        Thread.sleep(60_000);
                    }
                }
                """);
        Process jvm = started(main, "64m");
        try {
            Memory.Snapshot s = Footprint.snapshot(jvm.pid()).orElseThrow();
            assertThat(s.stackReservedMiB()).as("reserved, MiB").isGreaterThanOrEqualTo(40);
            assertThat(s.stackCommittedMiB()).as("committed, MiB").isPositive().isLessThan(s.stackReservedMiB() / 4);
            assertThat(s.heapAfterGcMiB()).as("heap after GC, MiB").isPositive().isLessThan(64);
            assertThat(s.virtualThreads()).as("live virtual threads").isEqualTo(40.0);
        } finally {
            stop(jvm);
        }
    }

    /**
     * Direct buffers are memory the heap figure misses (Reactor Netty reads and writes through pooled ones): 64 MiB
     * of them show in NMT's Other, off the heap.
     */
    @Test
    void directBuffersCountAsOffHeapNotAsHeap(@TempDir Path dir) throws IOException, InterruptedException {
        Path main = Files.writeString(dir.resolve("Direct.java"), """
                public class Direct {
                    public static void main(String[] a) throws Exception {
                        var keep = new java.util.ArrayList<java.nio.ByteBuffer>();
                        for (int i = 0; i < 64; i++) {
                            keep.add(java.nio.ByteBuffer.allocateDirect(1 << 20));
                        }
                        System.out.println("started");
                        Thread.sleep(60_000);
                        System.out.println(keep.size());
                    }
                }
                """);
        Process jvm = started(main, "128m");
        try {
            Memory.Snapshot s = Footprint.snapshot(jvm.pid()).orElseThrow();
            assertThat(s.offHeapMiB()).as("off-heap, MiB").isBetween(64.0, 80.0);
            assertThat(s.heapAfterGcMiB()).as("heap after GC, MiB").isLessThan(16);
        } finally {
            stop(jvm);
        }
    }

    /** Starts {@code source} in a JVM of this JDK with a fixed {@code heap} and {@link Footprint#NMT}. */
    private static Process started(Path source, String heap) throws IOException {
        String java = ProcessHandle.current().info().command().orElseThrow();
        Process jvm = new ProcessBuilder(List.of(java, "-Xms" + heap, "-Xmx" + heap, Footprint.NMT, source.toString()))
                .redirectErrorStream(true).start();
        assertThat(jvm.inputReader().readLine()).isEqualTo("started");
        return jvm;
    }

    private static void stop(Process jvm) throws InterruptedException {
        jvm.destroy();
        jvm.waitFor(10, TimeUnit.SECONDS);
    }
}
