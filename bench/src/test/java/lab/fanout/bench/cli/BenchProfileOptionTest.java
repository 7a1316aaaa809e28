package lab.fanout.bench.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code ./lab bench --profile}: one request-thread profile's cells of a preset, e.g. footprint's half. */
class BenchProfileOptionTest {

    /** @return exit code, then what the command printed (its --dry-run list goes to System.out) */
    private static String[] bench(String... args) {
        StringWriter err = new StringWriter();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        int exit;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            CommandLine cli = LabCommand.commandLine();
            cli.setErr(new PrintWriter(err));
            exit = cli.execute(args);
        } finally {
            System.setOut(stdout);
        }
        return new String[] {String.valueOf(exit), out.toString(StandardCharsets.UTF_8) + err};
    }

    @Test
    void keepsOnlyThatProfilesCells() {
        String[] all = bench("bench", "--preset", "footprint", "--dry-run");
        assertThat(all[1]).contains("30 cells").contains(" virtual ").contains(" platform ");
        String[] platform = bench("bench", "--preset", "footprint", "--profile", "platform", "--dry-run");
        assertThat(platform[0]).isEqualTo("0");
        assertThat(platform[1]).contains("15 cells").contains(" platform ").doesNotContain(" virtual ");
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
        String[] none = bench("bench", "--matrix", matrix.toString(), "--profile", "platform", "--dry-run");
        assertThat(none[0]).isNotEqualTo("0");
        assertThat(none[1]).contains("--profile platform: no block of this matrix runs it (they run [[virtual]])");
        String[] unknown = bench("bench", "--preset", "quick", "--profile", "carrier", "--dry-run");
        assertThat(unknown[0]).isNotEqualTo("0");
        assertThat(unknown[1]).contains("virtual, platform");
    }
}
