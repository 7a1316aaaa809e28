package lab.fanout.orders.store;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.stream.IntStream;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The pool-exhausted scenario for an orders-service on a database store (postgres or r2dbc) with
 * {@code orders.db.pool-size=2} and {@code orders.db.connection-timeout=1s}, whichever server it runs on (embedded or
 * in a container): two slow
 * requests hold both connections, the third is answered 503 {@code database-pool-exhausted} after about 1 s, the
 * holders still get their 200, and the pool ends idle.
 */
final class PoolExhaustion {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private PoolExhaustion() {
    }

    /**
     * @param port   orders-service's server port
     * @param active the pool's connections in use (HikariCP's active gauge or MXBean, r2dbc-pool's acquired gauge)
     * @throws Exception a failed request; AssertionError where an answer or the pool is not as described above
     */
    static void assertThirdRequestIs503(int port, IntSupplier active) throws Exception {
        String path = "http://localhost:" + port + "/order/api/v1/orders";
        List<CompletableFuture<HttpResponse<String>>> holders = IntStream.range(0, 2)
                .mapToObj(i -> HTTP.sendAsync(request(path + "?latencyMs=4000"), HttpResponse.BodyHandlers.ofString()))
                .toList();
        await().atMost(Duration.ofSeconds(10)).until(() -> active.getAsInt() == 2);

        long start = System.nanoTime();
        HttpResponse<String> refused = HTTP.send(request(path + "?latencyMs=0"), HttpResponse.BodyHandlers.ofString());
        Duration waited = Duration.ofNanos(System.nanoTime() - start);

        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        JsonNode problem = JSON.readTree(refused.body());
        assertThat(problem.get("type").asString()).isEqualTo("https://fanout-lab.dev/problems/database-pool-exhausted");
        assertThat(problem.get("detail").asString()).isEqualTo("All 2 database connections stayed busy for 1000 ms"
                + " (orders.db.pool-size, orders.db.connection-timeout).");
        assertThat(waited).isBetween(Duration.ofMillis(900), Duration.ofMillis(3000));
        for (CompletableFuture<HttpResponse<String>> holder : holders) {
            assertThat(holder.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> active.getAsInt() == 0);
    }

    private static HttpRequest request(String url) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build();
    }
}
