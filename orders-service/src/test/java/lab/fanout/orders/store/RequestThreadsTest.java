package lab.fanout.orders.store;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import lab.fanout.orders.OrdersServiceApplication;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where a waiting request's thread goes. Tomcat gets two platform request threads (virtual threads off), the pool
 * eight connections, and eight requests of 1 s arrive at once. The JDBC store holds a request thread for the whole
 * wait, so two threads answer them in four waves; the r2dbc store hands the thread back while the query sleeps
 * (Spring MVC's asynchronous answer, {@link lab.fanout.downstream.NonBlockingCatalogueStore}), so the pool, not the
 * threads, binds: one wave.
 */
class RequestThreadsTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void theJdbcStoreHoldsARequestThreadPerWaitingRequest() throws Exception {
        assertThat(eightRequestsOfOneSecondOnTwoThreads("postgres")).isGreaterThanOrEqualTo(Duration.ofMillis(3500));
    }

    @Test
    void theR2dbcStoreReleasesTheRequestThreadWhileTheQueryWaits() throws Exception {
        assertThat(eightRequestsOfOneSecondOnTwoThreads("r2dbc")).isLessThan(Duration.ofMillis(2500));
    }

    /** @return how long the eight took, all answered 200 */
    private static Duration eightRequestsOfOneSecondOnTwoThreads(String store) throws Exception {
        try (ConfigurableApplicationContext service = new SpringApplicationBuilder(OrdersServiceApplication.class)
                .run("--server.port=0", "--management.server.port=0", "--orders.store=" + store,
                        "--spring.threads.virtual.enabled=false", "--server.tomcat.threads.max=2",
                        "--server.tomcat.threads.min-spare=2", "--orders.db.pool-size=8",
                        "--orders.db.connection-timeout=10s")) {
            String url = "http://localhost:" + service.getEnvironment().getRequiredProperty("local.server.port")
                    + "/order/api/v1/orders";
            send(url + "?latencyMs=0").join();   // the first request loads classes: not timed
            long start = System.nanoTime();
            List<CompletableFuture<HttpResponse<String>>> answers = IntStream.range(0, 8)
                    .mapToObj(i -> send(url + "?latencyMs=1000")).toList();
            assertThat(answers).allSatisfy(answer -> assertThat(answer.join().statusCode()).isEqualTo(200));
            return Duration.ofNanos(System.nanoTime() - start);
        }
    }

    private static CompletableFuture<HttpResponse<String>> send(String url) {
        return HTTP.sendAsync(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
