package lab.fanout.bench.overload;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** The heap after each collection, from lines as JDK 25's -Xlog:gc:file=…:time writes them (G1). */
class GcLogTest {

    static final String LOG = """
            [2026-11-27T05:36:59.843+0000] Using G1
            [2026-11-27T05:37:00.497+0000] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 15M->3M(64M) 6.057ms
            [2026-11-27T05:37:00.747+0000] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 28M->17M(64M) 15.844ms
            [2026-11-27T05:37:01.100+0000] GC(2) Concurrent Mark Cycle 12.001ms
            [2026-11-27T05:37:02.000+0000] GC(3) Pause Full (G1 Compaction Pause) 511M->498M(512M) 310.2ms
            [2026-11-27T05:37:03.000+0000] GC(4) Pause Young (Normal) (G1 Evacuation Pause) 2G->1G(2G) 15.844ms
            """;

    @Test
    void thePeakIsTheLargestHeapAfterAPauseInsideTheWindow(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(GcLog.PREFIX + "101.log"), LOG);
        Files.writeString(dir.resolve("main-service.log"), "GC(9) Pause Young 900M->900M(1G) is not a GC log");
        assertThat(GcLog.peakAfterMiB(dir, Instant.parse("2026-11-27T05:37:00Z"), Instant.parse(
                "2026-11-27T05:37:01Z"))).hasValue(17);
        assertThat(GcLog.peakAfterMiB(dir, Instant.parse("2026-11-27T05:37:00Z"), Instant.parse(
                "2026-11-27T05:37:02.5Z"))).hasValue(498);
        assertThat(GcLog.peakAfterMiB(dir, Instant.parse("2026-11-27T05:37:02.5Z"), Instant.parse(
                "2026-11-27T05:38:00Z"))).hasValue(1024);
        assertThat(GcLog.peakAfterMiB(dir, Instant.parse("2026-11-27T06:00:00Z"), Instant.parse(
                "2026-11-27T06:01:00Z"))).isEmpty();
    }

    @Test
    void theOptionWritesAFilePerProcessWithWallClockTimes(@TempDir Path dir) {
        assertThat(GcLog.option(dir)).isEqualTo("-Xlog:gc:file=" + dir.toAbsolutePath().resolve(
                "main-service-gc-%p.log") + ":time");
    }
}
