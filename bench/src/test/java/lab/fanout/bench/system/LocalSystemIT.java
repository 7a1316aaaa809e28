package lab.fanout.bench.system;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;

import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.system.LocalSystem.LaunchSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real four jars on free ports: up, one fan-out request through all of them, down with nothing left running; the
 * JVM options reach main-service's process and its /actuator/info, and only main-service's (gh-13 part 3).
 */
class LocalSystemIT {

    static final Path REPO = Path.of("..").toAbsolutePath().normalize();

    @Test
    void startsServesAndStops(@TempDir Path logs) throws Exception {
        String commonPool = "-Djava.util.concurrent.ForkJoinPool.common.parallelism=3";
        String carriers = "-Djdk.virtualThreadScheduler.parallelism=1";
        LaunchSpec spec = LaunchSpec.custom(REPO).profile("platform").tomcatThreads(20).poolSize(30).latencyMs(50)
                .freePorts(true).logDir(logs).mainJvmArgs(List.of(commonPool, carriers)).build();
        Collection<Long> pids;
        try (LocalSystem system = LocalSystem.start(spec)) {
            pids = system.pids().values();
            assertThat(system.ports()).doesNotContainValue(2222);
            assertThat(system.managementPorts().values()).doesNotContain(9222)
                    .doesNotContainAnyElementsOf(system.ports().values());
            // the harness reads the knobs from the management port, and the public port has no actuator
            ServiceInfo info = ServiceInfo.fetch(system.mainManagementUrl());
            assertThat(info.profile()).isEqualTo("platform");
            // the options on main-service's command line, and their effect as the JVM itself reports it
            assertThat(ProcessHandle.of(system.pids().get(ServiceDefaults.MAIN)).flatMap(h -> h.info().commandLine()))
                    .hasValueSatisfying(c -> assertThat(c).contains(commonPool, carriers));
            assertThat(info.commonPoolParallelism()).isEqualTo(3);
            assertThat(info.carrierParallelism()).isEqualTo(1);
            assertThat(info.jvmInputArguments()).contains("--enable-preview", commonPool, carriers);
            assertThat(info.garbageCollectors()).isNotEmpty();
            assertThat(info.maxHeapBytes()).isPositive();
            ServiceInfo orders = ServiceInfo.fetch(system.managementUrl("orders-service"));
            assertThat(orders.jvmInputArguments()).contains("--enable-preview", "-Xmx1g")
                    .doesNotContain(commonPool, carriers);
            // a downstream's heap has a ceiling of its own (the four JVMs' defaults together are the whole RAM);
            // main-service keeps the JVM's default
            assertThat(orders.maxHeapBytes()).isLessThanOrEqualTo(1L << 30);
            assertThat(info.jvmInputArguments()).doesNotContain("-Xmx1g");
            assertThat(Http.get(system.mainBaseUrl().resolve("/actuator/info"), Duration.ofSeconds(5))).isEmpty();
            URI uri = system.mainBaseUrl().resolve("/backoffice/api/v1/backoffice/orders?concurrency=scopeFork");
            HttpResponse<String> response = HttpClient.newHttpClient()
                    .send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("X-Fanout-Request-Thread")).hasValue("platform");
            assertThat(logs.resolve("orders-service.log")).isNotEmptyFile();
        }
        assertThat(pids).hasSize(4).allMatch(pid -> ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true));
    }

    /** {@code ./lab up --main-cpus 1}: main-service alone on core 1, sized to it; the downstreams off it (issue 66). */
    @Test
    void oneCoreOfItsOwnForMainServiceAndTheOthersOffIt(@TempDir Path logs) throws Exception {
        CpuGroupsRealTest.requireCgroups();
        CpuPlacement oneCore = CpuPlacement.parse("1", Environment.cores());
        LaunchSpec spec = LaunchSpec.custom(REPO).freePorts(true).logDir(logs).cpus(oneCore).build();
        try (LocalSystem system = LocalSystem.start(spec)) {
            String last = "" + (Environment.cores() - 1);
            assertThat(ServiceInfo.fetch(system.mainManagementUrl()).availableProcessors()).isEqualTo(1);
            assertThat(Http.get(system.mainManagementUrl().resolve("/actuator/info"), Duration.ofSeconds(5)))
                    .hasValueSatisfying(info -> assertThat(info).contains("\"cpuset\":\"" + last + "\"")
                            .contains("\"cpuQuotaUs\":\"none\""));
            assertThat(cpusAllowed(system.pids().get(ServiceDefaults.MAIN))).isEqualTo(last);
            assertThat(cpusAllowed(system.pids().get(ServiceDefaults.ORDERS))).isEqualTo(oneCore.loadCores(
                    Environment.cores()));
            assertThat(Logs.tail(logs.resolve("main-service.log"), 400)).contains("\"availableProcessors\":1,");
        }
        try (var groups = Files.list(CpuGroups.ROOT.resolve("cpuset"))) {
            String self = "fanout-lab-" + ProcessHandle.current().pid() + "-";
            assertThat(groups.map(g -> g.getFileName().toString())).noneMatch(g -> g.startsWith(self));
        }
    }

    private static String cpusAllowed(long pid) throws Exception {
        return Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream()
                .filter(l -> l.startsWith("Cpus_allowed_list:")).map(l -> l.split(":")[1].trim()).findFirst()
                .orElseThrow();
    }
}
