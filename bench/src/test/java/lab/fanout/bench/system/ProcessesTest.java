package lab.fanout.bench.system;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProcessesTest {

    @Test
    void runGivesTheExitCodeAndStdoutAndStderrTogether() {
        Processes.Result r = Processes.run(List.of("sh", "-c", "echo out; echo err >&2; exit 3"), Path.of("/tmp"),
                Duration.ofSeconds(10));
        assertThat(r.finished()).isTrue();
        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(r.ok()).isFalse();
        assertThat(r.output()).contains("out\n").contains("err\n");
    }

    @Test
    void aCommandPastItsTimeoutIsKilledAndReportedUnfinished() {
        long start = System.nanoTime();
        Processes.Result r = Processes.run(List.of("sh", "-c", "echo started; exec sleep 30"), null,
                Duration.ofMillis(300));
        assertThat(r.finished()).isFalse();
        assertThat(r.exitCode()).isEqualTo(-1);
        assertThat(r.output()).contains("started");
        assertThat(System.nanoTime() - start).isLessThan(Duration.ofSeconds(10).toNanos());
    }

    @Test
    void outputIsAProbeThatIsEmptyForAMissingToolOrAFailure() {
        assertThat(Processes.output(null, Duration.ofSeconds(10), "sh", "-c", "echo ' 42 '")).contains("42");
        assertThat(Processes.output(null, Duration.ofSeconds(10), "sh", "-c", "exit 1")).isEmpty();
        assertThat(Processes.output(null, Duration.ofSeconds(10), "no-such-tool-here")).isEmpty();
        assertThatThrownBy(() -> Processes.run(List.of("no-such-tool-here"), null, Duration.ofSeconds(10)))
                .isInstanceOf(UncheckedIOException.class).hasMessageContaining("cannot run no-such-tool-here");
    }
}
