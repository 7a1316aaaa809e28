package lab.fanout.reliability;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.system.LocalSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * SIGTERM to the packaged main-service while a request is in flight: the request finishes with its full answer,
 * and new connections are refused (not queued, not answered 503): Boot's graceful shutdown pauses Tomcat's
 * connector and closes its listening socket, so the kernel refuses the connection at once and a client or load
 * balancer can try another instance, knowing nothing was processed. Then the process exits.
 */
class MainGracefulShutdownIT {

    private static final String ENDPOINT = "/backoffice/api/v1/backoffice/orders?concurrency=scopeFork";

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void inFlightRequestFinishesAndNewConnectionsAreRefused() throws Exception {
        LocalSystem system = RunningServices.get();
        int port = system.ports().get(ServiceDefaults.MAIN);
        ProcessHandle main = ProcessHandle.of(system.pids().get(ServiceDefaults.MAIN)).orElseThrow();
        // the first request through a fresh JVM loads hundreds of classes: not part of what is measured here
        http.send(HttpRequest.newBuilder(system.mainBaseUrl().resolve(ENDPOINT + "&latencyMs=0")).build(),
                HttpResponse.BodyHandlers.discarding());

        CompletableFuture<HttpResponse<String>> inFlight = http.sendAsync(HttpRequest.newBuilder(system.mainBaseUrl()
                .resolve(ENDPOINT + "&latencyMs=3000")).build(), HttpResponse.BodyHandlers.ofString());
        // the request has reached main-service and its three downstream calls are running
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                .until(() -> Metrics.sum(system.mainManagementUrl(), "fanout_calls_in_flight", "") >= 3);
        assertThat(inFlight).isNotDone();

        main.destroy();   // SIGTERM

        await().atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(50))
                .until(() -> refused(port));
        assertThat(inFlight).as("still in flight when new connections are refused").isNotDone();
        HttpResponse<String> response = inFlight.get();
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).startsWith("[{\"id\":\"ord-");
        await().atMost(Duration.ofSeconds(30)).until(() -> !main.isAlive());
    }

    /** Brings main-service back for the other tests of this JVM: a harmless knob change restarts it alone. */
    @AfterEach
    void restartMain() {
        LocalSystem system = RunningServices.get();
        var spec = system.spec();
        system.apply(spec.toBuilder().tomcatThreads(spec.tomcatThreads() == null ? 200 : null).build());
    }

    private static boolean refused(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("localhost", port), 1000);
            return false;
        } catch (ConnectException e) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
