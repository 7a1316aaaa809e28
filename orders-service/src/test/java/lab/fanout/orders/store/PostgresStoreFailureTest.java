package lab.fanout.orders.store;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import io.micrometer.core.instrument.MeterRegistry;
import lab.fanout.orders.testing.RestartablePostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The database goes away and comes back while orders-service runs. The server is the test's own (the external-server
 * path, {@code orders.db.url}): a {@link RestartablePostgres}, an embedded PostgreSQL on a fixed port whose data
 * directory survives a stop, so that the test can stop it, freeze it, and start it again with the migrated catalogue
 * still there.
 * <p>
 * What the caller sees: 503 {@code database-unavailable} problem+json within the connection timeout (1 s here, plus
 * a busy machine's slack), never a hang, every connection back in the pool; and 200 again, without a restart, once
 * the database is back. This class runs the JDBC store ({@code postgres}, HikariCP); {@link R2dbcStoreFailureTest}
 * runs the same tests on the {@code r2dbc} store, naming its pool's gauges instead.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "orders.store=postgres", "orders.db.pool-size=2", "orders.db.connection-timeout=1s"})
@DirtiesContext   // its pool would go on trying the deleted server of this class
class PostgresStoreFailureTest {

    private static final String PATH = "/order/api/v1/orders";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    /** The connection timeout plus room for a busy 2-core machine; a hang would take far longer. */
    private static final Duration ANSWER_BOUND = Duration.ofMillis(3000);

    private static RestartablePostgres database;

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Autowired
    MeterRegistry registry;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry properties) throws IOException {
        database = RestartablePostgres.start("orders-db-failure-test");
        properties.add("orders.db.url", database::jdbcUrl);
    }

    @BeforeEach
    void databaseIsUp() throws IOException {
        database.startAgain();
        await().atMost(Duration.ofSeconds(15)).until(() -> get(PATH + "?latencyMs=0").statusCode() == 200);
    }

    @AfterEach
    void everyConnectionIsBackInThePool() {
        await().atMost(Duration.ofSeconds(10)).until(() -> gauge(activeGauge()) == 0 && gauge(pendingGauge()) == 0);
    }

    @AfterAll
    static void deleteTheDatabase() throws IOException {
        database.close();
    }

    @Test
    void aStoppedDatabaseIs503ProblemWithinTheConnectionTimeoutAndServesAgainOnceItIsBack() throws Exception {
        database.stop();

        // more requests than connections, at once: none may wait for another's timeout, none may hang
        List<CompletableFuture<Answer>> answers = IntStream.range(0, 5).mapToObj(i -> timedAsync(PATH + "?latencyMs=0"))
                .toList();
        for (CompletableFuture<Answer> answer : answers) {
            assertDatabaseUnavailable(answer.get());
        }
        assertDatabaseUnavailable(timed(PATH + "/ord-3001?latencyMs=0"));   // the pool's retries are no better
        await().atMost(Duration.ofSeconds(10)).until(() -> gauge(activeGauge()) == 0);
        // the health says so, the probes do not: a restart of orders-service would not bring the database back
        assertThat(getManagement("/actuator/health").statusCode()).isEqualTo(503);
        assertThat(getManagement("/actuator/health/readiness").statusCode()).isEqualTo(200);
        assertThat(getManagement("/actuator/health/liveness").statusCode()).isEqualTo(200);

        database.startAgain();
        await().atMost(Duration.ofSeconds(15)).until(() -> get(PATH + "?latencyMs=0").statusCode() == 200);
        assertThat(get(PATH + "/ord-3001?latencyMs=0").statusCode()).isEqualTo(200);
        assertThat(getManagement("/actuator/health").statusCode()).isEqualTo(200);
    }

    /**
     * A database that stops answering mid-query (every server process frozen with SIGSTOP) must not hold the request:
     * the socket read gives up the connection timeout after the query's sleep should have ended.
     */
    @Test
    void aFrozenDatabaseIs503ProblemOnceTheQueryOverrunsItsSleepByTheConnectionTimeout() throws Exception {
        List<Long> pids = database.serverProcesses();
        signal("STOP", pids);
        try {
            Answer answer = timed(PATH + "?latencyMs=300");
            assertDatabaseUnavailable(answer);
            assertThat(answer.elapsed()).isGreaterThanOrEqualTo(Duration.ofMillis(1300));
        } finally {
            signal("CONT", pids);
        }
        await().atMost(Duration.ofSeconds(15)).until(() -> get(PATH + "?latencyMs=0").statusCode() == 200);
    }

    /**
     * More requests than connections while the database is frozen: the two that hold a connection give up their
     * query once it overruns its sleep by the connection timeout, the three that wait for one give up at the timeout
     * (503 pool-exhausted: the pool cannot tell a frozen server's connections from busy ones). None may wait for a
     * connection and then for a query on top: that is what the pool's acquire timeout prevents.
     */
    @Test
    void aFrozenDatabaseAnswersEveryWaitingRequest503WithinItsSleepPlusTheConnectionTimeout() throws Exception {
        List<Long> pids = database.serverProcesses();
        signal("STOP", pids);
        List<Answer> answers;
        try {
            List<CompletableFuture<Answer>> pending = IntStream.range(0, 5)
                    .mapToObj(i -> timedAsync(PATH + "?latencyMs=1000")).toList();
            answers = pending.stream().map(CompletableFuture::join).toList();
        } finally {
            signal("CONT", pids);
        }
        assertThat(answers).allSatisfy(answer -> {
            assertThat(answer.status()).isEqualTo(503);
            assertThat(answer.contentType()).startsWith("application/problem+json");
            assertThat(answer.elapsed()).as("1 s sleep + 1 s timeout + slack").isLessThan(Duration.ofMillis(3500));
        });
        await().atMost(Duration.ofSeconds(15)).until(() -> get(PATH + "?latencyMs=0").statusCode() == 200);
    }

    private void assertDatabaseUnavailable(Answer answer) {
        assertThat(answer.status()).isEqualTo(503);
        assertThat(answer.contentType()).startsWith("application/problem+json");
        JsonNode problem = JSON.readTree(answer.body());
        assertThat(problem.get("type").asString()).isEqualTo("https://fanout-lab.dev/problems/database-unavailable");
        assertThat(problem.get("detail").asString()).doesNotContain("Exception", "jdbc:");
        assertThat(answer.elapsed()).isLessThan(ANSWER_BOUND);
    }

    private static void signal(String signal, List<Long> pids) throws IOException, InterruptedException {
        List<String> command = Stream.concat(Stream.of("kill", "-" + signal), pids.stream().map(String::valueOf))
                .toList();
        assertThat(new ProcessBuilder(command).inheritIO().start().waitFor()).as(String.join(" ", command)).isZero();
    }

    /** @return the pool's gauge of connections in use (HikariCP's here) */
    String activeGauge() {
        return "hikaricp.connections.active";
    }

    /** @return the pool's gauge of requests waiting for a connection */
    String pendingGauge() {
        return "hikaricp.connections.pending";
    }

    private double gauge(String name) {
        return registry.get(name).tag("pool", "orders-db").gauge().value();
    }

    private CompletableFuture<Answer> timedAsync(String pathAndQuery) {
        long start = System.nanoTime();
        return HTTP.sendAsync(request(pathAndQuery), HttpResponse.BodyHandlers.ofString())
                .thenApply(response -> Answer.of(response, start));
    }

    private Answer timed(String pathAndQuery) throws IOException, InterruptedException {
        long start = System.nanoTime();
        return Answer.of(HTTP.send(request(pathAndQuery), HttpResponse.BodyHandlers.ofString()), start);
    }

    private HttpResponse<String> get(String pathAndQuery) throws IOException, InterruptedException {
        return HTTP.send(request(pathAndQuery), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> getManagement(String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + managementPort + path))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest request(String pathAndQuery) {
        return HttpRequest.newBuilder(URI.create("http://localhost:" + port + pathAndQuery))
                .timeout(Duration.ofSeconds(30)).build();
    }

    private record Answer(int status, String contentType, String body, Duration elapsed) {

        static Answer of(HttpResponse<String> response, long start) {
            return new Answer(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""),
                    response.body(), Duration.ofNanos(System.nanoTime() - start));
        }
    }
}
