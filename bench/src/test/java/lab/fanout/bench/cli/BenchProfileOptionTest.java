package lab.fanout.bench.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code ./lab bench --profile}: one request-thread profile's cells of a preset, e.g. footprint's half. */
class BenchProfileOptionTest {

    @Test
    void keepsOnlyThatProfilesCells() {
        String[] all = LabCli.run("bench", "--preset", "footprint", "--dry-run");
        assertThat(all[1]).contains("45 cells").contains(" virtual ").contains(" platform ").contains(" netty ");
        String[] platform = LabCli.run("bench", "--preset", "footprint", "--profile", "platform", "--dry-run");
        assertThat(platform[0]).isEqualTo("0");
        assertThat(platform[1]).contains("15 cells").contains(" platform ").doesNotContain(" virtual ", " netty ");
    }

    @Test
    void aProfileNoBlockRunsOrAnUnknownOneIsRefused(@TempDir Path dir) throws IOException {
        Path matrix = Files.writeString(dir.resolve("m.yaml"), """
                blocks:
                  - name: only-virtual
                    strategies: [scopeFork]
                    profiles: [virtual]
                    concurrencies: [10]
                    latenciesMs: [200]
                    durationSeconds: 5
                """);
        String[] none = LabCli.run("bench", "--matrix", matrix.toString(), "--profile", "platform", "--dry-run");
        assertThat(none[0]).isNotEqualTo("0");
        assertThat(none[1]).contains("--profile platform: no block of this matrix runs it (they run [[virtual]])");
        String[] unknown = LabCli.run("bench", "--preset", "quick", "--profile", "carrier", "--dry-run");
        assertThat(unknown[0]).isNotEqualTo("0");
        assertThat(unknown[1]).contains("virtual, platform");
    }
}
