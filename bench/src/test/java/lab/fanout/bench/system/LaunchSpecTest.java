package lab.fanout.bench.system;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.system.LocalSystem.LaunchSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LaunchSpecTest {

    private static final Map<String, Integer> PORTS = Map.of(
            "main-service", 1, "orders-service", 2, "products-service", 3, "accounts-service", 4);
    private static final Map<String, Integer> MANAGEMENT_PORTS = Map.of(
            "main-service", 11, "orders-service", 12, "products-service", 13, "accounts-service", 14);

    @Test
    void mainServiceGetsKnobsAndDownstreamUrls() {
        LaunchSpec spec = LaunchSpec.custom(Path.of(".")).profile("platform").tomcatThreads(10).poolSize(25)
                .latencyMs(50).build();
        assertThat(spec.springArgs("main-service", PORTS, MANAGEMENT_PORTS)).containsExactly(
                "--server.port=1", "--management.server.port=11", "--spring.profiles.active=platform",
                "--server.tomcat.threads.max=10", "--fanout.pool.max-total=25", "--fanout.pool.max-per-route=25",
                "--fanout.downstreams.orders=http://localhost:2", "--fanout.downstreams.products=http://localhost:3",
                "--fanout.downstreams.accounts=http://localhost:4");
        assertThat(spec.springArgs("orders-service", PORTS, MANAGEMENT_PORTS)).containsExactly(
                "--server.port=2", "--management.server.port=12", "--downstream.latency=50ms");
    }

    @Test
    void unsetKnobsKeepTheServicesDefaults() {
        LaunchSpec spec = LaunchSpec.defaults(Path.of("."));
        assertThat(spec.springArgs("main-service", PORTS, MANAGEMENT_PORTS))
                .noneMatch(a -> a.contains("tomcat") || a.contains("pool"));
        assertThat(spec.springArgs("products-service", PORTS, MANAGEMENT_PORTS)).containsExactly(
                "--server.port=3", "--management.server.port=13");
    }

    @Test
    void onlyLatencyChangesRestartTheDownstreams() {
        LaunchSpec spec = LaunchSpec.defaults(Path.of("."));
        assertThat(spec.sameDownstreams(spec.toBuilder().profile("platform").tomcatThreads(10).poolSize(10).build()))
                .isTrue();
        assertThat(spec.sameDownstreams(spec.toBuilder().latencyMs(2000).build())).isFalse();
    }

    @Test
    void mainServiceJvmOptionsRestartOnlyMainService() {
        LaunchSpec spec = LaunchSpec.defaults(Path.of("."));
        LaunchSpec tuned = spec.toBuilder()
                .mainJvmArgs(List.of("-Djava.util.concurrent.ForkJoinPool.common.parallelism=8")).build();
        assertThat(tuned).isNotEqualTo(spec);
        assertThat(spec.sameDownstreams(tuned)).isTrue();
        // kept by the other knobs' setters
        assertThat(tuned.toBuilder().profile("platform").tomcatThreads(10).poolSize(10).latencyMs(50).freePorts(true)
                .logDir(Path.of("logs")).build().mainJvmArgs())
                .containsExactly("-Djava.util.concurrent.ForkJoinPool.common.parallelism=8");
        // the options go to the JVM, never to Spring
        assertThat(tuned.springArgs("main-service", PORTS, MANAGEMENT_PORTS)).noneMatch(a -> a.contains("parallelism"));
    }

    @Test
    void ordersServiceJvmOptionsRestartTheDownstreamsAndSurviveTheOtherSetters() {
        LaunchSpec spec = LaunchSpec.defaults(Path.of("."));
        List<String> nmt = List.of("-Xms1g", "-Xmx1g", "-XX:NativeMemoryTracking=summary");
        LaunchSpec tuned = spec.toBuilder().ordersJvmArgs(nmt).build();
        assertThat(spec.sameDownstreams(tuned)).isFalse();
        assertThat(tuned.toBuilder().profile("platform").tomcatThreads(10).poolSize(10).latencyMs(50)
                .mainJvmArgs(List.of("-Dx=1")).extraDownstreamProperties(Map.of("orders.store", "r2dbc"))
                .aot(AotCache.Mode.OFF).build().ordersJvmArgs()).isEqualTo(nmt);
        assertThatThrownBy(() -> spec.toBuilder().ordersJvmArgs(List.of("--debug")).build())
                .hasMessageContaining("--debug");
    }

    @Test
    void badJvmOptionStopsBeforeAnythingStarts() {
        assertThatThrownBy(() -> LaunchSpec.custom(Path.of(".")).mainJvmArgs(List.of("parallelism=8")).build())
                .hasMessageContaining("'parallelism=8' is not a JVM option");
    }

    @Test
    void badKnobsNameTheValidValues() {
        Path repo = Path.of(".");
        assertThatThrownBy(() -> LaunchSpec.custom(repo).profile("loom").build())
                .hasMessageContaining("'loom' is not one of [virtual, platform, netty]");
        assertThatThrownBy(() -> LaunchSpec.custom(repo).tomcatThreads(0).build())
                .hasMessageContaining("tomcatThreads must be >= 1");
        assertThatThrownBy(() -> LaunchSpec.custom(repo).latencyMs(70_000).build()).hasMessageContaining("0..60000");
    }

    @Test
    void missingJarSaysHowToBuild(@TempDir Path repo) {
        assertThatThrownBy(() -> LocalSystem.start(LaunchSpec.defaults(repo)))
                .hasMessageContaining("accounts-service.jar is missing: run ./lab build");
    }

    @Test
    void busyPortNamesPortServiceAndHolder() throws Exception {
        try (ServerSocket busy = new ServerSocket(0)) {
            int port = busy.getLocalPort();
            assertThatThrownBy(() -> Ports.requireFree(Map.of("main-service", port)))
                    .hasMessageContaining("port " + port + " (main-service) is busy");
            if (onPath("ss")) {
                assertThat(Ports.holder(port)).contains("held by pid " + ProcessHandle.current().pid());
            }
        }
    }

    @Test
    void freePortsAreDistinct() {
        assertThat(Ports.free(ServiceDefaults.SERVICES).values()).doesNotHaveDuplicates().hasSize(4);
    }

    private static boolean onPath(String tool) {
        return java.util.Arrays.stream(System.getenv().getOrDefault("PATH", "").split(":"))
                .anyMatch(d -> !d.isEmpty() && Files.isExecutable(Path.of(d, tool)));
    }
}
