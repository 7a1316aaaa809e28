package lab.fanout.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * kind on a laptop (issue 22, k8s/README.md "Run on kind"), without kind: the scripts that ./lab kind up runs,
 * on fixtures of what kubectl shows on a kind cluster (src/test/resources/k8s-fit, k8s-wait).
 * <ul>
 * <li>scripts/k8s-fit.sh, the preflight: the whole lab (load Job included) fits a 2-CPU / 8 GB Docker's node beside
 * kind's own control-plane pods, with k8s/components/zipkin too; on a 1-CPU one it exits 1 saying by how much and
 * with the fix.</li>
 * <li>lab_wait (scripts/k8s-deploy.sh): a pod waiting for a fanout-lab image the node lacks is reported with the
 * command that loads the images, at once, not after a rollout timeout; `./lab kind status` says the same for a
 * cluster applied by hand (kubectl and kind faked: src/test/resources/k8s-wait/fake-*).</li>
 * </ul>
 */
class KindPreflightTest {

    private static final Path FIT = Repo.path("container-tests/src/test/resources/k8s-fit");
    private static final Path WAIT = Repo.path("container-tests/src/test/resources/k8s-wait");

    @Test
    void theWholeLabWithTheLoadJobFitsA2Cpu8GbKindNode() {
        Repo.Ran fit = run("bash", "scripts/k8s-fit.sh", "--node", FIT.resolve("node-2cpu-8gb.json").toString(),
                "--pods", FIT.resolve("kind-pods.json").toString());
        assertThat(fit.status()).as("scripts/k8s-fit.sh on a 2-CPU / 8 GB node exits 0:\n%s", fit.output()).isZero();
        assertThat(fit.output()).contains("fits:")
                // kind's own pods count, the lab's earlier pod and the finished one do not
                .contains("9 pods already on the node (outside fanout-lab): 950m, 290Mi");
    }

    /** k8s/components/zipkin's requests are modest enough that the lab, the load Job and Zipkin fit together. */
    @Test
    void theLabWithTheLoadJobAndZipkinFitsA2Cpu8GbKindNode() {
        Repo.Ran fit = run("bash", "scripts/k8s-fit.sh", "--node", FIT.resolve("node-2cpu-8gb.json").toString(),
                "--pods", FIT.resolve("kind-pods.json").toString(), "k8s/tests/with-load-test", "k8s/tests/with-zipkin");
        assertThat(fit.status()).as("scripts/k8s-fit.sh with Zipkin on a 2-CPU / 8 GB node exits 0:\n%s", fit.output())
                .isZero();
        assertThat(fit.output()).contains("fits:");
    }

    @Test
    void aNodeWithOneCpuStopsWithByHowMuchAndTheFix() {
        Repo.Ran fit = run("bash", "scripts/k8s-fit.sh", "--node", FIT.resolve("node-1cpu-8gb.json").toString(),
                "--pods", FIT.resolve("kind-pods.json").toString());
        assertThat(fit.status()).as("scripts/k8s-fit.sh on a 1-CPU node exits 1:\n%s", fit.output()).isEqualTo(1);
        assertThat(fit.output()).contains("DOES NOT FIT: CPU short by ")
                .contains("give Docker more").contains("at least 2 CPUs")
                .contains("small overlay");
    }

    @Test
    void printsTheLabsRequestsForTheReadme() {
        Repo.Ran print = run("bash", "scripts/k8s-fit.sh", "--print");
        assertThat(print.status()).as("--print:\n%s", print.output()).isZero();
        assertThat(print.output()).contains("Job hey-load").contains("Deployment main-service-virtual")
                .contains("Deployment main-service-netty").contains("the lab: ");
    }

    @Test
    void aPodWaitingForAMissingLabImageIsReportedWithTheCommandThatLoadsThem() {
        Repo.Ran wait = labWait("pods-missing-images.json", true);
        assertThat(wait.status()).as("lab_wait with pods in ImagePullBackOff:\n%s", wait.output()).isEqualTo(1);
        assertThat(wait.output()).contains("fanout-lab/main-service:0.1.0").contains("ImagePullBackOff")
                .contains("localhost/fanout-lab/orders-service:0.1.0").contains("ErrImagePull")   // a runtime may prefix the name
                .contains("./lab kind up")
                .doesNotContain("prom/prometheus")   // waiting to be created is no missing image
                .doesNotContain("not rolled out within");
    }

    @Test
    void runningPodsRollOutQuietly() {
        Repo.Ran wait = labWait("pods-running.json", true);
        assertThat(wait.status()).as("lab_wait:\n%s", wait.output()).isZero();
        assertThat(wait.output()).contains("rolled out").doesNotContain("not on the node");
    }

    @Test
    void kindStatusReportsTheMissingImagesOfAClusterAppliedByHand(@TempDir Path bin) throws IOException {
        Path kubectl = bin.resolve("kubectl");
        Files.copy(WAIT.resolve("fake-kubectl"), kubectl);
        Files.copy(WAIT.resolve("fake-kind"), bin.resolve("kind"));
        kubectl.toFile().setExecutable(true);
        bin.resolve("kind").toFile().setExecutable(true);
        String real = java.util.Arrays.stream(System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator))
                .map(dir -> Path.of(dir, "kubectl")).filter(Files::isExecutable).findFirst().map(Path::toString).orElse("kubectl");
        Repo.Ran status = run(Map.of("PATH", bin + java.io.File.pathSeparator + System.getenv("PATH"), "FAKE_REAL_KUBECTL", real,
                "FAKE_PODS", WAIT.resolve("pods-missing-images.json").toString()), "bash", "scripts/kind.sh", "status");
        assertThat(status.status()).as("./lab kind status with pods in ImagePullBackOff:\n%s", status.output()).isEqualTo(1);
        assertThat(status.output()).contains("main-service-virtual").contains("fanout-lab/main-service:0.1.0")
                .contains("ImagePullBackOff").contains("./lab kind up");
    }

    private static Repo.Ran labWait(String pods, boolean rolledOut) {
        return run(Map.of("FAKE_PODS", WAIT.resolve(pods).toString(), "FAKE_ROLLED_OUT", String.valueOf(rolledOut)),
                "bash", "-c", "source scripts/k8s-deploy.sh; KUBECTL=(bash '" + WAIT.resolve("fake-kubectl")
                        + "'); lab_images_fix='./lab kind up'; lab_wait 20");
    }

    private static Repo.Ran run(String... command) {
        return run(Map.of(), command);
    }

    /** Runs a command in the repository root; standard output and error together. */
    private static Repo.Ran run(Map<String, String> env, String... command) {
        for (String tool : List.of("kubectl", "jq")) {
            if (!onPath(tool)) {
                Repo.missing(tool + " not found: the kind scripts need it (k8s/README.md)");
            }
        }
        return Repo.exec(env, command);
    }

    private static boolean onPath(String tool) {
        return java.util.Arrays.stream(System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator))
                .anyMatch(dir -> Files.isExecutable(Path.of(dir, tool)));
    }
}
