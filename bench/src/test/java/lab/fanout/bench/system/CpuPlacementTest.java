package lab.fanout.bench.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CpuPlacementTest {
    @TempDir Path root;

    @Test
    void wholeCoresOnV1AreACpusetForMainAndOneForTheLoad() throws Exception {
        Files.createDirectories(root.resolve("cpuset"));
        Files.writeString(root.resolve("cpuset/cpuset.mems"), "0\n");
        var groups = CpuPlacement.parse("1", 2).create(root, "t", 2);
        assertThat(Files.readString(root.resolve("cpuset/fanout-lab-t/cpuset.cpus"))).isEqualTo("0-1");
        assertThat(Files.readString(root.resolve("cpuset/fanout-lab-t/main/cpuset.cpus"))).isEqualTo("1");
        assertThat(Files.readString(root.resolve("cpuset/fanout-lab-t/main/cpuset.mems"))).isEqualTo("0");
        assertThat(Files.readString(root.resolve("cpuset/fanout-lab-t/load/cpuset.cpus"))).isEqualTo("0");
        assertThat(groups).containsExactly(root.resolve("cpuset/fanout-lab-t/main"),
                root.resolve("cpuset/fanout-lab-t/load"));
    }

    @Test
    void aFractionOnV1IsACfsQuota() throws Exception {
        Files.createDirectories(root.resolve("cpu"));
        CpuPlacement.parse("0.5", 2).create(root, "t", 2);
        assertThat(Files.readString(root.resolve("cpu/fanout-lab-t/main/cpu.cfs_quota_us"))).isEqualTo("50000");
        assertThat(Files.readString(root.resolve("cpu/fanout-lab-t/main/cpu.cfs_period_us"))).isEqualTo("100000");
    }

    @Test
    void onV2AFractionIsCpuMaxAndWholeCoresAreCpusets() throws Exception {
        Files.writeString(root.resolve("cgroup.controllers"), "cpuset cpu io memory\n");
        CpuPlacement.parse("1.5", 4).create(root, "a", 4);
        assertThat(Files.readString(root.resolve("fanout-lab-a/main/cpu.max"))).isEqualTo("150000 100000");
        assertThat(Files.readString(root.resolve("fanout-lab-a/cgroup.subtree_control"))).isEqualTo("+cpu");
        CpuPlacement.parse("2", 4).create(root, "b", 4);
        assertThat(Files.readString(root.resolve("fanout-lab-b/main/cpuset.cpus"))).isEqualTo("2-3");
        assertThat(Files.readString(root.resolve("fanout-lab-b/load/cpuset.cpus"))).isEqualTo("0-1");
    }

    @Test
    void refusalsNameTheCoresAndTheFix() {
        assertThatThrownBy(() -> CpuPlacement.parse("2", 2)).hasMessageContaining("this machine has 2 cores")
                .hasMessageContaining("pass 1..1");
        assertThatThrownBy(() -> CpuPlacement.parse("two", 2)).hasMessageContaining("pass all, a whole number");
        assertThatThrownBy(() -> CpuPlacement.parse("0.5", 2).create(root, "t", 2))
                .hasMessageContaining("no cgroup v1 cpu controller").hasMessageContaining("--main-cpus all");
        assertThat(CpuPlacement.parse("all", 2).shared()).isTrue();
        assertThat(CpuPlacement.parse("1.0", 2).whole()).as("a decimal point: one core of quota").isFalse();
        assertThat(CpuPlacement.parse("1.0", 2).quotaUs()).isEqualTo(100_000);
        assertThat(CpuPlacement.parse("1", 2).whole()).as("no decimal point: a cpuset of one core").isTrue();
    }

    @Test
    void v2WithoutTheControllerIsRefused() throws Exception {
        Files.writeString(root.resolve("cgroup.controllers"), "\n");
        assertThatThrownBy(() -> CpuPlacement.parse("1", 2).create(root, "t", 2))
                .hasMessageContaining("lacks the cpuset controller");
    }
}
