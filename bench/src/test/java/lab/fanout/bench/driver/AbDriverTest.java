package lab.fanout.bench.driver;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;

import lab.fanout.bench.model.DriverRun;
import lab.fanout.bench.model.Load;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AbDriverTest {

    static final String SUMMARY = """
            Concurrency Level:      200
            Time taken for tests:   32.093 seconds
            Complete requests:      1000
            Failed requests:        3
               (Connect: 0, Receive: 2, Length: 0, Exceptions: 1)
            Non-2xx responses:      87
            Total transferred:      6360740 bytes
            Requests per second:    31.16 [#/sec] (mean)
            """;

    static final String GNUPLOT = """
            starttime\tseconds\tctime\tdtime\tttime\twait
            Sat Nov 21 20:26:25 2026\t1795292785\t1\t73\t74\t72
            Sat Nov 21 20:26:25 2026\t1795292785\t0\t74\t210\t74
            """;

    @Test
    void readsCountsKindsWindowAndPerRequestTimes(@TempDir Path dir) throws IOException {
        Path tsv = Files.writeString(dir.resolve("r.ab.tsv"), GNUPLOT);
        DriverRun run = AbDriver.parse(SUMMARY, tsv, 1000);
        assertThat(run.windowSeconds()).isEqualTo(32.093);
        assertThat(run.errors()).containsEntry("HTTP non-2xx", 87L).containsEntry("receive", 2L)
                .containsEntry("exception", 1L).doesNotContainKey("connect");
        assertThat(run.answered()).isEqualTo(997);
        assertThat(run.ok()).isEqualTo(910);
        assertThat(run.latencyMicros().getTotalCount()).isEqualTo(2);
        assertThat(run.latencyMicros().getMaxValue()).isBetween(209_900L, 210_100L);
    }

    @Test
    void anAbortedRunNamesWhatIsMissing(@TempDir Path dir) throws IOException {
        Path tsv = Files.writeString(dir.resolve("r.ab.tsv"), "");
        assertThatThrownBy(() -> AbDriver.parse("apr_socket_recv: Connection refused (111)\n", tsv, 10))
                .hasMessageContaining("no 'Complete requests:' in ab's output");
    }

    @Test
    void hasNoConstantRateMode() {
        Load open = new Load(URI.create("http://localhost:1/"), 5, 10, null, 50.0, 5);
        assertThatThrownBy(() -> new AbDriver().command(open, Path.of("r"))).hasMessageContaining("--driver hey");
        Load closed = new Load(URI.create("http://localhost:1/"), 5, 10, null, null, 5);
        assertThat(new AbDriver().command(closed, Path.of("r")))
                .containsSubsequence("-n", "10").contains("-l");
    }
}
