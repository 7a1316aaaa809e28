package lab.fanout.reliability;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import lab.fanout.bench.system.LocalSystem;
import lab.fanout.bench.system.LocalSystem.LaunchSpec;
import lab.fanout.orders.testing.RestartablePostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * main-service in front of an orders-service that keeps its orders in PostgreSQL (issue 26): the joined answer is
 * byte for byte the one main-service gives in front of the default memory store (the shared {@link RunningServices}),
 * for every strategy; and with the database stopped, main-service names orders as the failed call (502
 * {@code downstream-error}, orders-service having answered 503) within orders' connection timeout, then answers 200
 * again once the database is back, nothing restarted. The database is the test's own, given to orders-service as
 * {@code orders.db.url}, so that the test can stop and start it: orders-service's {@link RestartablePostgres}, from
 * its test jar.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OrdersPostgresStoreIT {

    private static final String PATH = "/backoffice/api/v1/backoffice/orders";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static RestartablePostgres database;
    private static LocalSystem postgresSystem;

    @BeforeAll
    static void startTheLabOnPostgres() throws IOException {
        database = RestartablePostgres.start("orders-db-it");
        Path repo = RunningServices.REPO;
        // the properties go to the three downstreams; products- and accounts-service have no orders.* and ignore them
        postgresSystem = LocalSystem.start(LaunchSpec.custom(repo).freePorts(true)
                .logDir(repo.resolve("reliability-tests/target/service-logs-postgres"))
                .extraDownstreamProperties(Map.of("orders.store", "postgres",
                        "orders.db.url", database.jdbcUrl(),
                        "orders.db.connection-timeout", "1s")).build());
    }

    @AfterAll
    static void stopEverything() throws IOException {
        if (postgresSystem != null) {
            postgresSystem.close();
        }
        if (database != null) {
            database.close();
        }
    }

    @Order(1)
    @ParameterizedTest
    @ValueSource(strings = {"sequential", "completableFuture", "completableFutureWithThreadTaskExecutor",
            "completableFutureWithVirtualTaskExecutor", "scopeFork", "reactive"})
    void mainServiceAnswersTheSameBytesWithEitherStore(String strategy) throws Exception {
        String query = PATH + "?concurrency=" + strategy + "&latencyMs=0";
        HttpResponse<byte[]> memory = get(RunningServices.get().mainBaseUrl(), query);
        HttpResponse<byte[]> postgres = get(postgresSystem.mainBaseUrl(), query);

        assertThat(memory.statusCode()).isEqualTo(200);
        assertThat(postgres.statusCode()).isEqualTo(200);
        assertThat(new String(postgres.body())).isEqualTo(new String(memory.body()));
        assertThat(postgres.body()).isEqualTo(memory.body());
    }

    @Order(2)
    @Test
    void withTheDatabaseStoppedMainServiceNamesOrdersAsFailedAndRecoversWhenItIsBack() throws Exception {
        database.stop();
        try {
            for (String strategy : List.of("scopeFork", "reactive", "sequential")) {
                long start = System.nanoTime();
                HttpResponse<byte[]> response = get(postgresSystem.mainBaseUrl(),
                        PATH + "?concurrency=" + strategy + "&latencyMs=0");
                Duration elapsed = Duration.ofNanos(System.nanoTime() - start);

                String body = new String(response.body());
                assertThat(response.statusCode()).as(body).isEqualTo(502);
                assertThat(body).contains("\"type\":\"https://fanout-lab.dev/problems/downstream-error\"",
                        "\"downstream\":\"orders-service\"", "orders-service answered 503");
                assertThat(elapsed).as(strategy).isLessThan(Duration.ofSeconds(4));   // orders' timeout is 1 s
            }
        } finally {
            database.startAgain();
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> get(postgresSystem.mainBaseUrl(),
                PATH + "?concurrency=scopeFork&latencyMs=0").statusCode() == 200);
        URI orders = postgresSystem.managementUrl("orders-service");
        await().atMost(Duration.ofSeconds(10)).until(() ->
                Metrics.sum(orders, "hikaricp_connections_active", "pool=\"orders-db\"") == 0);
    }

    private static HttpResponse<byte[]> get(URI base, String pathAndQuery) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(base.resolve(pathAndQuery)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }
}
