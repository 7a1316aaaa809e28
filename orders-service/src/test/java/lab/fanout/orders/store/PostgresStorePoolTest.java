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
 * state HikariCP's metrics at /actuator/prometheus. This class runs the JDBC store ({@code postgres}, HikariCP);
 * {@link R2dbcStorePoolTest} runs the same tests on the {@code r2dbc} store through the driver's hooks below.
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
        assertThat(registry.get(acquireTimer()).tag("pool", "orders-db").timer().max(TimeUnit.MILLISECONDS))
                .as("the longest wait for a connection, ms").isGreaterThan(400);
        assertConnectionsHeldAtLeast(600);
        awaitIdlePool();
    }

    @Test
    void aRequestThatGetsNoConnectionWithinTheTimeoutIs503PoolExhausted() throws Exception {
        double timeoutsBefore = registry.get(timeoutCounter()).tag("pool", "orders-db").counter().count();

        PoolExhaustion.assertThirdRequestIs503(port, () -> (int) gauge(activeGauge()));

        assertThat(registry.get(timeoutCounter()).tag("pool", "orders-db").counter().count())
                .as("the pool's count of timed-out acquisitions").isEqualTo(timeoutsBefore + 1);
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
        assertThat(knobs.get("store").asString()).isEqualTo(store());
        assertThat(knobs.get("db").get("poolSize").asInt()).isEqualTo(2);
        JsonNode database = info.get("ordersDatabase");
        assertThat(database.get("server").asString()).isEqualTo("embedded");
        assertThat(database.get("maximumPoolSize").asInt()).isEqualTo(2);
        assertThat(database.get("connectionTimeoutMs").asInt()).isEqualTo(1000);
        assertDriverInfo(knobs, database);
    }

    @Test
    void exposesThePoolsMetricsOnTheManagementPort() throws Exception {
        String scrape = getManagement("/actuator/prometheus").body();

        assertThat(scrape).contains(scrapeLines("{application=\"orders-service\",pool=\"orders-db\"}"));
    }

    // The driver's hooks: the JDBC store's (HikariCP's meters and info) here, the r2dbc store's in R2dbcStorePoolTest.

    /** @return {@code orders.store} as /actuator/info shows it */
    String store() {
        return "postgres";
    }

    String activeGauge() {
        return "hikaricp.connections.active";
    }

    String pendingGauge() {
        return "hikaricp.connections.pending";
    }

    String acquireTimer() {
        return "hikaricp.connections.acquire";
    }

    String timeoutCounter() {
        return "hikaricp.connections.timeout";
    }

    /** HikariCP times how long each connection was lent out; r2dbc-pool has no such timer. */
    void assertConnectionsHeldAtLeast(long ms) {
        assertThat(registry.get("hikaricp.connections.usage").tag("pool", "orders-db").timer()
                .max(TimeUnit.MILLISECONDS)).as("the longest a connection was held, ms").isGreaterThanOrEqualTo(ms);
    }

    void assertDriverInfo(JsonNode knobs, JsonNode database) {
        assertThat(knobs.get("db").get("dataDir").asString()).isEqualTo("target/orders-db-pool-test");
        assertThat(database.get("dataDir").asString()).endsWith("/orders-service/target/orders-db-pool-test");
        assertThat(database.get("serverPid").asLong()).isPositive();
    }

    /** @return lines of /actuator/prometheus that must be there, given the pool's tags */
    String[] scrapeLines(String tags) {
        return new String[] {"hikaricp_connections_active" + tags, "hikaricp_connections_pending" + tags,
            "hikaricp_connections_max" + tags + " 2", "hikaricp_connections_acquire_seconds_count" + tags,
            "hikaricp_connections_timeout_total" + tags};
    }

    private void awaitIdlePool() {
        await().atMost(Duration.ofSeconds(10)).until(() -> gauge(activeGauge()) == 0 && gauge(pendingGauge()) == 0);
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
