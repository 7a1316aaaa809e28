package lab.fanout.bench.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code ./lab bench --main-cpus} and a matrix's {@code mainCpus:} (issue 66): said before a run, refused clearly. */
class BenchMainCpusOptionTest {

    private static final String BLOCKS = """
            blocks:
              - name: b
                strategies: [scopeFork]
                profiles: [virtual]
                concurrencies: [10]
                latenciesMs: [200]
                durationSeconds: 5
            """;

    @Test
    void theDryRunSaysThePlacementAndTheOptionWinsOverTheMatrix(@TempDir Path dir) throws IOException {
        String[] shared = LabCli.run("bench", "--preset", "quick", "--dry-run");
        assertThat(shared[1]).contains("CPU placement: shared: main-service, downstreams and load driver on all");
        Path quota = Files.writeString(dir.resolve("q.yaml"), "mainCpus: \"0.5\"\n" + BLOCKS);
        String[] fromMatrix = LabCli.run("bench", "--matrix", quota.toString(), "--dry-run");
        assertThat(fromMatrix[0]).isEqualTo("0");
        assertThat(fromMatrix[1]).contains("CPU placement: main-service at 0.5 CPU of quota (50000/100000 µs");
        String[] overridden = LabCli.run("bench", "--matrix", quota.toString(), "--main-cpus", "1", "--dry-run");
        assertThat(overridden[1]).contains("CPU placement: main-service on core").contains("(cpuset)");
    }

    @Test
    void aPlacementTheMachineCannotGiveOrAnExistingDeploymentIsRefused(@TempDir Path dir) throws IOException {
        Path tooMany = Files.writeString(dir.resolve("m.yaml"), "mainCpus: 99\n" + BLOCKS);
        String[] matrix = LabCli.run("bench", "--matrix", tooMany.toString(), "--dry-run");
        assertThat(matrix[0]).isNotEqualTo("0");
        assertThat(matrix[1]).contains("the matrix's mainCpus: --main-cpus 99: this machine has")
                .contains("(or override it with --main-cpus)");
        String[] remote = LabCli.run("bench", "--base-url", "http://localhost:2222", "--management-url",
                "http://localhost:9222", "--main-cpus", "1", "--dry-run");
        assertThat(remote[0]).isNotEqualTo("0");
        assertThat(remote[1]).contains("--main-cpus places the main-service the harness starts");
    }
}
