package lab.fanout.main.web;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import lab.fanout.main.client.Downstream;
import lab.fanout.main.strategy.StrategyName;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Hedged requests ({@code hedgeAfterMs}) against downstreams that see a cancelled call ({@link TailDownstream}): the
 * second copy beats a slow first one, the loser is cancelled with the strategy's own idiom (the downstream sees its
 * connection closed, the pools end with nothing leased), the meters count it, and over many requests hedging cuts a
 * 1 s tail. The common-pool strategy is left out: with parallelism 1 (2 cores) its one worker runs the first copy and
 * the second can only start when the first has ended (docs/knobs.md, "hedgeAfterMs").
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class HedgingIntegrationTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String ENDPOINT = "/backoffice/api/v1/backoffice/orders?";

    /** Per class, not per JVM: {@link NettyHedgingIntegrationTest} runs these tests again, on fakes of its own. */
    static TailDownstream orders;
    static TailDownstream products;
    static TailDownstream accounts;
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @LocalServerPort
    int port;
    @Autowired
    MeterRegistry registry;
    @Autowired
    PoolingHttpClientConnectionManager pool;
    /** The reactive strategy's pool with {@code fanout.reactive.client=httpclient5} (the netty subclass); else absent. */
    @Autowired(required = false)
    PoolingAsyncClientConnectionManager asyncPool;

    @DynamicPropertySource
    static void downstreamUrls(DynamicPropertyRegistry registry) {
        registry.add("fanout.downstreams.orders", orders::baseUrl);
        registry.add("fanout.downstreams.products", products::baseUrl);
        registry.add("fanout.downstreams.accounts", accounts::baseUrl);
    }

    @BeforeEach
    void resetDownstreams() {
        for (TailDownstream downstream : new TailDownstream[] {orders, products, accounts}) {
            downstream.reset();
        }
    }

    @AfterEach
    void poolsEndIdle() {
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(pool.getTotalStats().getLeased()).as("leased").isZero();
            assertThat(reactiveLeased()).as("leased (reactive)").isZero();
        });
    }

    /** The reactive strategy's connections in use: HttpClient 5's async pool's, or Reactor Netty's (its gauges). */
    int reactiveLeased() {
        return asyncPool != null ? asyncPool.getTotalStats().getLeased()
                : FanoutIntegrationTest.reactorNettyConnections("active");
    }

    @BeforeAll
    static void startDownstreams() {
        orders = TailDownstream.serving(Downstream.ORDERS);
        products = TailDownstream.serving(Downstream.PRODUCTS);
        accounts = TailDownstream.serving(Downstream.ACCOUNTS);
    }

    @AfterAll
    static void stopDownstreams() throws IOException {
        orders.close();
        products.close();
        accounts.close();
    }

    /**
     * orders' first copy takes 2 s, the second (sent after 100 ms) answers at once: the caller has the answer long
     * before 2 s, orders-service sees the first copy's connection closed unanswered, and no connection stays leased.
     */
    @ParameterizedTest
    @EnumSource(names = {"THREAD_PER_TASK", "VIRTUAL_THREAD_PER_TASK", "SCOPE_FORK", "REACTIVE", "BOUNDED_POOL"})
    void theSecondCopyWinsAndTheLoserIsCancelledAtTheDownstream(StrategyName strategy) {
        orders.script(2000);
        double sent = count("fanout.hedges.sent", strategy);
        double won = count("fanout.hedges.won", strategy);
        double cancelled = count("fanout.hedges.losers.cancelled", strategy);
        double wasted = count("fanout.hedges.wasted", strategy);

        long start = System.nanoTime();
        int status = get("concurrency=" + strategy + "&latencyMs=0&hedgeAfterMs=100").statusCode();
        long millis = (System.nanoTime() - start) / 1_000_000;

        assertThat(status).isEqualTo(200);
        assertThat(millis).as("answered by the second copy, not after the first copy's 2 s").isLessThan(1500);
        await().atMost(Duration.ofSeconds(1)).untilAsserted(() -> {
            assertThat(orders.abandoned()).as("first copies orders-service saw cancelled").isEqualTo(1);
            assertThat(pool.getTotalStats().getLeased() + reactiveLeased()).isZero();
        });
        assertThat(orders.received()).as("two copies").isEqualTo(2);
        assertThat(orders.answered()).isEqualTo(1);
        assertThat(products.received() + accounts.received()).as("fast calls: no hedge").isEqualTo(2);
        assertThat(count("fanout.hedges.sent", strategy) - sent).isEqualTo(1);
        assertThat(count("fanout.hedges.won", strategy) - won).isEqualTo(1);
        assertThat(count("fanout.hedges.losers.cancelled", strategy) - cancelled).isEqualTo(1);
        assertThat(count("fanout.hedges.wasted", strategy) - wasted).as("seconds the loser ran").isBetween(0.09, 1.5);
    }

    /**
     * Each call is slow (1 s more) with probability 0.05, so a request of 3 calls is slow with probability
     * 1 - 0.95^3 = 14 %: about 29 of 200 (fewer than 12 has a probability of about 0.03 %). Hedged after 100 ms, a call
     * is slow only if both copies are: 0.25 %, so a request 0.75 %, about 1.5 of 200 (9 or more: about 0.01 %).
     */
    @ParameterizedTest
    @EnumSource(names = {"THREAD_PER_TASK", "VIRTUAL_THREAD_PER_TASK", "SCOPE_FORK", "REACTIVE"})
    void hedgingCutsAOneSecondTail(StrategyName strategy) throws Exception {
        String tail = "concurrency=" + strategy + "&latencyMs=10&tailRate=0.05&tailMs=1000";

        int slowUnhedged = slowRequests(tail, 200);
        int slowHedged = slowRequests(tail + "&hedgeAfterMs=100", 200);
        System.out.printf("%s: of 200 requests, %d met the 1 s tail unhedged, %d hedged after 100 ms%n", strategy,
                slowUnhedged, slowHedged);   // the figures docs/reliability.md quotes

        assertThat(slowUnhedged).as("requests of 200 that met the tail, unhedged").isGreaterThanOrEqualTo(12);
        assertThat(slowHedged).as("requests of 200 that met the tail, hedged after 100 ms").isLessThanOrEqualTo(8);
    }

    /** {@code hedgeAfterMs=p95}: once the window knows orders' latency, a 2 s first copy is hedged after about it. */
    @ParameterizedTest
    @EnumSource(names = {"THREAD_PER_TASK", "VIRTUAL_THREAD_PER_TASK", "SCOPE_FORK", "REACTIVE"})
    void theAdaptiveHedgeWaitsForTheRecentP95(StrategyName strategy) {
        for (int i = 0; i < 40; i++) {
            assertThat(get("concurrency=scopeFork&latencyMs=20").statusCode()).isEqualTo(200);
        }
        orders.script(2000);
        double sent = count("fanout.hedges.sent", strategy);

        long start = System.nanoTime();
        int status = get("concurrency=" + strategy + "&latencyMs=20&hedgeAfterMs=p95").statusCode();
        long millis = (System.nanoTime() - start) / 1_000_000;

        assertThat(status).isEqualTo(200);
        assertThat(millis).as("hedged after the recent p95, not after the first copy's 2 s").isLessThan(1500);
        assertThat(count("fanout.hedges.sent", strategy) - sent).isEqualTo(1);
        await().atMost(Duration.ofSeconds(1)).until(() -> orders.abandoned() == 1);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            concurrency=sequential&hedgeAfterMs=100 | hedgeAfterMs: sequential makes one call at a time and cannot send a second copy of a slow one; hedge with one of [completableFuture, completableFutureWithThreadTaskExecutor, completableFutureWithVirtualTaskExecutor, scopeFork, reactive, completableFutureWithBoundedPool]
            concurrency=scopeFork&hedgeAfterMs=soon | hedgeAfterMs: must be a whole number of milliseconds from 0 to 60000, or p95 (got 'soon')
            concurrency=scopeFork&hedgeAfterMs=60001 | hedgeAfterMs: must be a whole number of milliseconds from 0 to 60000, or p95 (got '60001')
            concurrency=reactive&hedgeAfterMs=-1    | hedgeAfterMs: must be a whole number of milliseconds from 0 to 60000, or p95 (got '-1')
            """)
    void answers400NamingWhatIsValid(String query, String detail) {
        HttpResponse<String> answer = get(query);

        assertThat(answer.statusCode()).isEqualTo(400);
        assertThat(answer.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        JsonNode problem = JSON.readTree(answer.body());
        assertThat(problem.get("type").asString()).isEqualTo("https://fanout-lab.dev/problems/bad-parameter");
        assertThat(problem.get("detail").asString()).isEqualTo(detail);
        assertThat(orders.received() + products.received() + accounts.received()).as("calls made").isZero();
    }

    @Test
    void noHedgeIsSentForACallThatAnswersInTime() {
        double sent = count("fanout.hedges.sent", StrategyName.SCOPE_FORK);

        assertThat(get("concurrency=scopeFork&latencyMs=0&hedgeAfterMs=500").statusCode()).isEqualTo(200);

        assertThat(count("fanout.hedges.sent", StrategyName.SCOPE_FORK) - sent).isZero();
        assertThat(orders.received() + products.received() + accounts.received()).isEqualTo(3);
    }

    /** @return how many of {@code n} requests, 20 at a time, took 1 s or more */
    private int slowRequests(String query, int n) throws Exception {
        List<Callable<Long>> requests = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            requests.add(() -> {
                long start = System.nanoTime();
                assertThat(get(query).statusCode()).isEqualTo(200);
                return (System.nanoTime() - start) / 1_000_000;
            });
        }
        int slow = 0;
        try (ExecutorService clients = Executors.newFixedThreadPool(20)) {
            for (Future<Long> millis : clients.invokeAll(requests)) {
                if (millis.get() >= 1000) {
                    slow++;
                }
            }
        }
        return slow;
    }

    /** @return the counter's total for orders-service under {@code strategy}, 0 before it exists */
    private double count(String name, StrategyName strategy) {
        Counter counter = registry.find(name).tag("strategy", strategy.toString())
                .tag("downstream", "orders-service").counter();
        return counter == null ? 0 : counter.count();
    }

    private HttpResponse<String> get(String query) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + ENDPOINT + query)).build();
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
