package lab.fanout.main.web;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import lab.fanout.main.client.Downstream;
import lab.fanout.main.strategy.StrategyName;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.async.methods.SimpleRequestBuilder;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;

import static lab.fanout.main.client.Downstream.ACCOUNTS;
import static lab.fanout.main.client.Downstream.ORDERS;
import static lab.fanout.main.client.Downstream.PRODUCTS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A pool of one connection and a 100 ms acquire timeout: while one request holds the connection, another cannot
 * lease one in time and gets 503 {@code pool-exhausted} instead of queueing without bound. Profile {@code shared}
 * (as a deployment that others can reach): the per-request simulation knobs are refused.
 */
@ActiveProfiles({"virtual", "shared"})
@TestPropertySource(properties = {"fanout.pool.max-total=1", "fanout.pool.max-per-route=1",
        "fanout.pool.acquire-timeout=100ms", "fanout.reactive.client=httpclient5"})   // Reactor Netty's pool:
        // ReactorNettyClientIntegrationTest
class PoolExhaustedIntegrationTest extends FanoutIntegrationTest {

    private static final int HOLD_MS = 2000;   // 20 x the acquire timeout: room for a busy machine
    /** Per class, not per JVM: {@link NettyPoolExhaustedIntegrationTest} runs these tests again. */
    private static ExecutorService background;

    @Autowired
    CloseableHttpAsyncClient downstreamAsyncClient;

    @BeforeAll
    static void openBackground() {
        background = Executors.newVirtualThreadPerTaskExecutor();
    }

    @AfterAll
    static void closeBackground() {
        background.close();
    }

    @AfterEach
    void leavesNoConnectionOrThreadBehind() {
        assertNothingLeftBehind();
    }

    @ParameterizedTest
    @EnumSource(value = StrategyName.class, names = "REACTIVE", mode = EnumSource.Mode.EXCLUDE)
    void answers503PoolExhaustedWhileAnotherRequestHoldsTheOnlyConnection(StrategyName strategy) {
        serve(ORDERS, HOLD_MS);
        serve(PRODUCTS, 0);
        serve(ACCOUNTS, 0);
        CompletableFuture<Answer> holder = CompletableFuture.supplyAsync(
                () -> backoffice(StrategyName.SEQUENTIAL), background);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> downstreamConnectionPool.getTotalStats().getLeased() == 1);

        Answer answer = backoffice(strategy);

        Downstream[] blamed = strategy == StrategyName.SEQUENTIAL ? new Downstream[] {ORDERS} : Downstream.values();
        assertProblem(answer, HttpStatus.SERVICE_UNAVAILABLE, "pool-exhausted", strategy, blamed);
        assertThat(answer.millis()).as("gave up at the acquire timeout, not when the connection came back")
                .isLessThan(HOLD_MS);
        assertThat(holder.join()).as("the request holding the connection is unharmed").hasStatusOk();
    }

    /**
     * As above for the reactive strategy, whose pool is the async client's (of the same size). A backoffice request
     * cannot hold it here: a reactive request needs three connections at once, so with a pool of one it would itself
     * end with 503. The holder is one call on that async client, as another request's would be.
     */
    @Test
    void reactiveAnswers503PoolExhaustedWhileAnotherCallHoldsTheOnlyConnectionOfItsPool() throws Exception {
        serve(ORDERS, HOLD_MS);
        serve(PRODUCTS, 0);
        serve(ACCOUNTS, 0);
        Future<SimpleHttpResponse> holder = downstreamAsyncClient.execute(
                SimpleRequestBuilder.get(orders.baseUrl() + path(ORDERS)).build(), null);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> downstreamAsyncConnectionPool.getTotalStats().getLeased() == 1);

        Answer answer = backoffice(StrategyName.REACTIVE);

        assertProblem(answer, HttpStatus.SERVICE_UNAVAILABLE, "pool-exhausted", StrategyName.REACTIVE,
                Downstream.values());
        assertThat(answer.millis()).as("gave up at the acquire timeout, not when the connection came back")
                .isLessThan(HOLD_MS);
        assertThat(holder.get(10, TimeUnit.SECONDS).getCode()).as("the call holding the connection is unharmed")
                .isEqualTo(200);
    }

    /**
     * Where anyone can call, a flood asking for a minute's latency must not hold the pool (gh-15 item 1). The fake
     * downstreams honour {@code latencyMs} as the real ones do (3 s here); with the knobs on, the flood held the
     * only connection and the normal request got 503.
     */
    @Test
    void aFloodAskingForLatencyIsRefusedAndNormalRequestsAreServed() {
        for (Downstream downstream : Downstream.values()) {
            serve(downstream, 0);
            server(downstream).stubFor(get(urlPathEqualTo(path(downstream))).withQueryParam("latencyMs", matching(".+"))
                    .willReturn(aResponse().withHeader("Content-Type", "application/json")
                            .withBody(catalogue(downstream)).withFixedDelay(3000)));
        }
        List<CompletableFuture<Answer>> flood = IntStream.range(0, 10).mapToObj(i -> CompletableFuture.supplyAsync(
                () -> backoffice("concurrency=scopeFork&latencyMs=60000"), background)).toList();

        Answer normal = backoffice(StrategyName.SCOPE_FORK);

        assertThat(normal).hasStatusOk();
        for (CompletableFuture<Answer> slow : flood) {
            Answer refused = slow.join();
            assertThat(refused).hasStatus(HttpStatus.FORBIDDEN)
                    .hasContentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON);
            assertThat(refused).bodyJson().extractingPath("$.type").isEqualTo(PROBLEMS + "request-knobs-disabled");
        }
    }
}
