package lab.fanout.bench.system;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;

import lab.fanout.bench.system.LocalSystem.LaunchSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** The real four jars on free ports: up, one fan-out request through all of them, down with nothing left running. */
class LocalSystemIT {

    static final Path REPO = Path.of("..").toAbsolutePath().normalize();

    @Test
    void startsServesAndStops(@TempDir Path logs) throws Exception {
        LaunchSpec spec = LaunchSpec.defaults(REPO).withKnobs("platform", 20, 30, 50).withFreePorts(true, logs);
        Collection<Long> pids;
        try (LocalSystem system = LocalSystem.start(spec)) {
            pids = system.pids().values();
            assertThat(system.ports()).doesNotContainValue(2222);
            assertThat(system.managementPorts().values()).doesNotContain(9222)
                    .doesNotContainAnyElementsOf(system.ports().values());
            // the harness reads the knobs from the management port, and the public port has no actuator
            assertThat(ServiceInfo.fetch(system.mainManagementUrl()).profile()).isEqualTo("platform");
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
}
