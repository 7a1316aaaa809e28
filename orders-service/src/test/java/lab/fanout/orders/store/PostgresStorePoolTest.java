package lab.fanout.orders.store;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * With the postgres store the simulated latency is spent where a real service spends it: holding one of the pool's
 * connections, inside the query. A pool of two serves two requests at a time; the third waits for a connection, and
 * is answered 503 once the connection timeout has passed. The pool's size is a knob shown at /actuator/info, its
 * state HikariCP's metrics at /actuator/prometheus.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "orders.store=postgres", "orders.db.pool-size=2", "orders.db.connection-timeout=1s",
        "orders.db.data-dir=target/orders-db-pool-test"})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresStorePoolTest {

    private static final String PATH = "/order/api/v1/orders";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Autowired
    MeterRegistry registry;

    /** The first request of a JVM loads hundreds of classes: not in any timed test. */
    @BeforeAll
    void warmUp() throws Exception {
        get(PATH + "?latencyMs=0");
        get(PATH + "/no-such-id?latencyMs=0");
    }

    @Test
    void aPoolOfTwoServesFourSlowRequestsInTwoWaves() throws Exception {
        long start = System.nanoTime();
        List<CompletableFuture<HttpResponse<String>>> answers = IntStream.range(0, 4)
                .mapToObj(i -> HTTP.sendAsync(request(PATH + "?latencyMs=600"), HttpResponse.BodyHandlers.ofString()))
                .toList();

        assertThat(answers).allSatisfy(answer -> assertThat(answer.get().statusCode()).isEqualTo(200));
        // the memory store would answer all four after 600 ms: here two waited for a connection
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(1200));
        assertThat(registry.get("hikaricp.connections.acquire").tag("pool", "orders-db").timer()
                .max(TimeUnit.MILLISECONDS)).as("the longest wait for a connection, ms").isGreaterThan(400);
        assertThat(registry.get("hikaricp.connections.usage").tag("pool", "orders-db").timer()
                .max(TimeUnit.MILLISECONDS)).as("the longest a connection was held, ms").isGreaterThanOrEqualTo(600);
        awaitIdlePool();
    }

    @Test
    void aRequestThatGetsNoConnectionWithinTheTimeoutIs503PoolExhausted() throws Exception {
        PoolExhaustion.assertThirdRequestIs503(port, () -> (int) active());
        awaitIdlePool();
    }

    /** The sleep runs once per query, not once per row: twelve orders would take twelve latencies. */
    @Test
    void theWholeCatalogueTakesOneLatency() throws Exception {
        long start = System.nanoTime();
        assertThat(get(PATH + "?latencyMs=400").statusCode()).isEqualTo(200);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofMillis(400),
                Duration.ofMillis(2400));
    }

    /** No order matches, yet the query slept: an unknown id takes its latency, as with the memory store. */
    @Test
    void anUnknownIdTakesItsLatencyToo() throws Exception {
        long start = System.nanoTime();
        assertThat(get(PATH + "/no-such-id?latencyMs=400").statusCode()).isEqualTo(404);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(400));
    }

    @Test
    void showsTheStoreAndThePoolAtActuatorInfo() throws Exception {
        JsonNode info = JSON.readTree(getManagement("/actuator/info").body());

        JsonNode knobs = info.get("knobs").get("orders");
        assertThat(knobs.get("store").asString()).isEqualTo("postgres");
        assertThat(knobs.get("db").get("poolSize").asInt()).isEqualTo(2);
        JsonNode database = info.get("ordersDatabase");
        assertThat(knobs.get("db").get("dataDir").asString()).isEqualTo("target/orders-db-pool-test");
        assertThat(database.get("server").asString()).isEqualTo("embedded");
        assertThat(database.get("dataDir").asString()).endsWith("/orders-service/target/orders-db-pool-test");
        assertThat(database.get("maximumPoolSize").asInt()).isEqualTo(2);
        assertThat(database.get("connectionTimeoutMs").asInt()).isEqualTo(1000);
        assertThat(database.get("serverPid").asLong()).isPositive();
    }

    @Test
    void exposesHikariMetricsOnTheManagementPort() throws Exception {
        String scrape = getManagement("/actuator/prometheus").body();

        assertThat(scrape).contains("hikaricp_connections_active{application=\"orders-service\",pool=\"orders-db\"}",
                "hikaricp_connections_pending{application=\"orders-service\",pool=\"orders-db\"}",
                "hikaricp_connections_max{application=\"orders-service\",pool=\"orders-db\"} 2",
                "hikaricp_connections_acquire_seconds_count{application=\"orders-service\",pool=\"orders-db\"}",
                "hikaricp_connections_timeout_total{application=\"orders-service\",pool=\"orders-db\"}");
    }

    private void awaitIdlePool() {
        await().atMost(Duration.ofSeconds(10)).until(() -> active() == 0 && pending() == 0);
    }

    private double active() {
        return registry.get("hikaricp.connections.active").tag("pool", "orders-db").gauge().value();
    }

    private double pending() {
        return registry.get("hikaricp.connections.pending").tag("pool", "orders-db").gauge().value();
    }

    private HttpRequest request(String pathAndQuery) {
        return HttpRequest.newBuilder(URI.create("http://localhost:" + port + pathAndQuery)).build();
    }

    private HttpResponse<String> get(String pathAndQuery) throws IOException, InterruptedException {
        return HTTP.send(request(pathAndQuery), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> getManagement(String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + managementPort + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
