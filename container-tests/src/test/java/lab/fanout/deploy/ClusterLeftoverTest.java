package lab.fanout.deploy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.abort;

/**
 * A cluster teardown cut short (the machine stopped during `./lab cluster down`) leaves the network namespace and
 * a mount under the state folder, with no process in it. CI once failed on such a leftover: `./lab test` took it for
 * a running cluster and refused. scripts/cluster/node.sh status tells the three cases apart (up / leftover / none),
 * `./lab test` refuses only "up", and node.sh start and stop remove a leftover. Run on a namespace of the test's own
 * (FANOUT_LAB_NETNS), never the lab's. Needs root and iproute2, as the real-cluster checks do.
 */
class ClusterLeftoverTest {

    private final String ns = "fanout-lab-leftover-test-" + ProcessHandle.current().pid();
    private Path state;
    private Process inside;

    @BeforeEach
    void rootAndIproute(@TempDir Path dir) {
        boolean root = "0".equals(Repo.exec(Map.of(), "id", "-u").output().strip());
        if (!root || Repo.exec(Map.of(), "ip", "netns", "list").status() != 0) {
            Repo.missing("root and iproute2 needed: the test creates a network namespace (as the cluster checks do)");
        }
        if (Repo.exec(Map.of(), "bash", "scripts/cluster/node.sh", "status").output().strip().equals("up")) {
            // node.sh stop also removes the kubelet's empty cgroups, which a running cluster still uses
            abort("SKIPPED: the lab's cluster is up (./lab cluster down first)");
        }
        state = dir.resolve("cluster");
    }

    @AfterEach
    void removeWhatTheTestMade() {
        if (inside != null) {
            inside.destroyForcibly();
        }
        Repo.exec(Map.of(), "bash", "-c", "umount -l '" + state + "/netns-leftover' 2>/dev/null; ip netns delete " + ns
                + " 2>/dev/null; true");
    }

    @Test
    void aNamespaceWithoutAProcessIsALeftoverThatStopRemoves() throws Exception {
        assertThat(status()).isEqualTo("none");

        // what the machine held after the cut: the namespace, and containerd's nsfs mount under the state folder
        Files.createDirectories(state);
        Files.createFile(state.resolve("netns-leftover"));
        assertThat(Repo.exec(Map.of(), "ip", "netns", "add", ns).status()).isZero();
        Path mount = state.resolve("netns-leftover");
        assertThat(Repo.exec(Map.of(), "mount", "--bind", "/run/netns/" + ns, mount.toString()).status()).isZero();
        assertThat(status()).as("the namespace alone, no process in it").isEqualTo("leftover");

        inside = new ProcessBuilder("ip", "netns", "exec", ns, "sleep", "120").start();
        assertThat(eventually("up")).as("a process inside the namespace: a cluster is up").isEqualTo("up");
        inside.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        assertThat(eventually("leftover")).isEqualTo("leftover");

        Repo.Ran stop = node("stop");
        assertThat(stop.status()).as("node.sh stop on the leftover:\n%s", stop.output()).isZero();
        assertThat(stop.output()).contains("cluster: down");
        assertThat(Repo.exec(Map.of(), "ip", "netns", "list").output()).doesNotContain(ns);
        assertThat(Files.readString(Path.of("/proc/self/mounts"))).doesNotContain(state.toString());
        assertThat(state).doesNotExist();
        assertThat(status()).isEqualTo("none");
    }

    private String status() {
        Repo.Ran status = node("status");
        assertThat(status.status()).as("node.sh status:\n%s", status.output()).isZero();
        return status.output().strip();
    }

    /** node.sh status, polled for up to 5 s until it reads {@code expected} (ip netns exec needs a moment). */
    private String eventually(String expected) throws InterruptedException {
        String seen = status();
        for (int i = 0; i < 50 && !seen.equals(expected); i++) {
            Thread.sleep(100);
            seen = status();
        }
        return seen;
    }

    private Repo.Ran node(String command) {
        return Repo.exec(Map.of("FANOUT_LAB_NETNS", ns, "FANOUT_LAB_CLUSTER_DIR", state.toString()),
                "bash", "scripts/cluster/node.sh", command);
    }
}
