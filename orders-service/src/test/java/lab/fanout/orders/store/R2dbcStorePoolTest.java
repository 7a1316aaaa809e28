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
 * {@link PostgresStorePoolTest}'s claims for the r2dbc store: the latency holds one of r2dbc-pool's connections,
 * inside the query; a pool of two serves two requests at a time, the third waits for a connection and is answered
 * 503 {@code database-pool-exhausted} once the connection timeout (r2dbc-pool's maximum acquire time) has passed;
 * the pool is shown at /actuator/info, its state as r2dbc-pool's gauges and the acquire timer at
 * /actuator/prometheus.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "orders.store=r2dbc", "orders.db.pool-size=2", "orders.db.connection-timeout=1s"})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class R2dbcStorePoolTest {

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
        assertThat(registry.get("r2dbc.pool.acquire").tag("pool", "orders-db").timer().max(TimeUnit.MILLISECONDS))
                .as("the longest wait for a connection, ms").isGreaterThan(400);
        awaitIdlePool();
    }

    @Test
    void aRequestThatGetsNoConnectionWithinTheTimeoutIs503PoolExhausted() throws Exception {
        double timeoutsBefore = registry.get("r2dbc.pool.timeout").tag("pool", "orders-db").counter().count();

        PoolExhaustion.assertThirdRequestIs503(port, () -> (int) gauge("r2dbc.pool.acquired"));

        assertThat(registry.get("r2dbc.pool.timeout").tag("pool", "orders-db").counter().count())
                .isEqualTo(timeoutsBefore + 1);
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

    @Test
    void showsTheStoreAndThePoolAtActuatorInfo() throws Exception {
        JsonNode info = JSON.readTree(getManagement("/actuator/info").body());

        JsonNode knobs = info.get("knobs").get("orders");
        assertThat(knobs.get("store").asString()).isEqualTo("r2dbc");
        assertThat(knobs.get("db").get("poolSize").asInt()).isEqualTo(2);
        JsonNode database = info.get("ordersDatabase");
        assertThat(database.get("server").asString()).isEqualTo("embedded");
        assertThat(database.get("driver").asString()).isEqualTo("r2dbc");
        assertThat(database.get("maximumPoolSize").asInt()).isEqualTo(2);
        assertThat(database.get("connectionTimeoutMs").asInt()).isEqualTo(1000);
    }

    @Test
    void exposesR2dbcPoolMetricsOnTheManagementPort() throws Exception {
        String scrape = getManagement("/actuator/prometheus").body();

        String tags = "{application=\"orders-service\",pool=\"orders-db\"}";
        assertThat(scrape).contains("r2dbc_pool_acquired_connections" + tags,
                "r2dbc_pool_pending_connections" + tags,
                "r2dbc_pool_idle_connections" + tags,
                "r2dbc_pool_allocated_connections" + tags,
                "r2dbc_pool_max_allocated_connections" + tags + " 2.0",
                "r2dbc_pool_acquire_seconds_count" + tags,
                "r2dbc_pool_acquire_seconds_max" + tags,
                "r2dbc_pool_timeout_total" + tags);
    }

    private void awaitIdlePool() {
        await().atMost(Duration.ofSeconds(10)).until(() -> gauge("r2dbc.pool.acquired") == 0
                && gauge("r2dbc.pool.pending") == 0);
    }

    private double gauge(String name) {
        return registry.get(name).tag("pool", "orders-db").gauge().value();
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
