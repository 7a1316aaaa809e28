package lab.fanout.bench.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import lab.fanout.bench.model.ServiceDefaults;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lab's cgroups on a directory that stands for the cgroup filesystem (CpuGroupsRealTest: the real one). */
class CpuGroupsTest {
    @TempDir Path root;

    private CpuGroups oneCore() throws Exception {
        Files.createDirectories(root.resolve("cpuset"));
        Files.writeString(root.resolve("cpuset/cpuset.mems"), "0\n");
        return CpuGroups.create(CpuPlacement.parse("1", 2), root);
    }

    @Test
    void aProcessJoinsItsGroupUnderItsOwnPidBeforeItRuns() throws Exception {
        try (CpuGroups groups = oneCore()) {
            Processes.Result main = Processes.run(groups.main(List.of("sh", "-c", "echo $$")), null,
                    Duration.ofSeconds(10));
            Path mainGroup = Files.list(root.resolve("cpuset")).filter(Files::isDirectory).findFirst().orElseThrow()
                    .resolve("main");
            assertThat(main.ok()).isTrue();
            assertThat(Files.readString(mainGroup.resolve("cgroup.procs")).trim()).isEqualTo(main.output().trim());
            Processes.Result load = Processes.run(CpuGroups.onLoadSide(List.of("sh", "-c", "echo $$")), null,
                    Duration.ofSeconds(10));
            assertThat(Files.readString(mainGroup.resolveSibling("load").resolve("cgroup.procs")).trim())
                    .isEqualTo(load.output().trim());
        }
        assertThat(CpuGroups.onLoadSide(List.of("hey"))).containsExactly("hey");
    }

    @Test
    void closeRemovesTheGroupsAndSharedMakesNone() throws Exception {
        oneCore().close();
        assertThat(Files.list(root.resolve("cpuset")).filter(Files::isDirectory)).isEmpty();
        try (CpuGroups shared = CpuGroups.create(CpuPlacement.ALL, root)) {
            assertThat(shared.main(List.of("java"))).containsExactly("java");
            assertThat(shared.load(List.of("hey"))).containsExactly("hey");
        }
    }

    @Test
    void aServiceOutsideItsGroupStopsTheRun() throws Exception {
        try (CpuGroups groups = oneCore()) {
            assertThatThrownBy(() -> groups.verify(Map.of(ServiceDefaults.MAIN, 4242L)))
                    .hasMessageContaining("main-service (pid 4242) is not in its cgroup")
                    .hasMessageContaining("--main-cpus 1 did not apply");
        }
    }

    @Test
    void onlyTheLabsGroupsOfAnExitedCreatorThatHoldNothingAreRemoved() throws Exception {
        Path cpuset = Files.createDirectories(root.resolve("cpuset"));
        long self = ProcessHandle.current().pid();
        Path stale = Files.createDirectories(cpuset.resolve("fanout-lab-999999999-1/main"));
        Files.writeString(stale.resolve("cgroup.procs"), "");
        Path busy = Files.createDirectories(cpuset.resolve("fanout-lab-999999998-1/main"));
        Files.writeString(busy.resolve("cgroup.procs"), "77\n");
        Path live = Files.createDirectories(cpuset.resolve("fanout-lab-" + self + "-1/main"));
        Path other = Files.createDirectories(cpuset.resolve("kubepods"));
        CpuGroups.removeStale(root);
        assertThat(stale.getParent()).doesNotExist();
        assertThat(busy).exists();
        assertThat(live).exists();
        assertThat(other).exists();
    }

    @Test
    void aRefusalNamesTheKnobAndTheFix() {
        assertThatThrownBy(() -> CpuGroups.create(CpuPlacement.parse("0.5", 2), root))
                .isInstanceOf(IllegalStateException.class).hasMessageStartingWith("--main-cpus 0.5: no cgroup v1 cpu")
                .hasMessageContaining("or pass --main-cpus all");
    }

    @Test
    void thePlacementIsSaidInWords() {
        assertThat(CpuPlacement.parse("1", 2).describe(2)).startsWith("main-service on core 1 (cpuset), the load side")
                .endsWith("on 0");
        assertThat(CpuPlacement.parse("0.5", 2).describe(2)).contains("50000/100000 µs").contains("limits.cpu 500m");
        assertThat(CpuPlacement.ALL.describe(2)).contains("measures the machine");
    }
}
