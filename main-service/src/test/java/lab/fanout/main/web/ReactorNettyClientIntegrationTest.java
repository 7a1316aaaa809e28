package lab.fanout.main.web;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.github.tomakehurst.wiremock.http.Fault;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import lab.fanout.main.client.Downstream;
import lab.fanout.main.strategy.StrategyName;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.netty.resources.ConnectionProvider;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.client.reactive.ClientHttpConnector;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;
import org.springframework.web.reactive.function.client.WebClient;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.serverError;
import static lab.fanout.main.client.Downstream.ACCOUNTS;
import static lab.fanout.main.client.Downstream.ORDERS;
import static lab.fanout.main.client.Downstream.PRODUCTS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The {@code reactive} strategy with {@code fanout.reactive.client=reactor-netty}, on the {@code netty} profile (its
 * calls on the server's event loops; {@link ReactorNettyClientOnTomcatIntegrationTest} runs them again on Tomcat):
 * the same answers and problems as on HttpClient 5's async client for the same downstream faults, and no Apache
 * client beside it.
 * <p>
 * One connection per downstream ({@code max-per-route=1}: Reactor Netty's limit is per remote address, so a request's
 * three calls still get one each), a 100 ms acquire timeout, a 3 s response timeout. After every test no connection
 * of Reactor Netty's pool is in use or awaited and no fan-out thread is alive ({@link #assertNothingLeftBehind()},
 * which reads the pool's own gauges).
 * <p>
 * Reactor Netty tags a pool's gauges with an {@code id} that is its pool key's hash (remote address and client
 * configuration), not the provider's: a second context with the same configuration, calling the same fakes, would
 * register the same meters, get the first context's back, and read that idle pool. So each context is closed after
 * its class, which disposes its provider and removes its gauges.
 */
@ActiveProfiles(value = "netty", inheritProfiles = false)
@DirtiesContext   // closed after the class, so the next one's pool has gauges of its own (see the class comment)
@TestPropertySource(properties = {"fanout.reactive.client=reactor-netty", "fanout.pool.max-per-route=1",
        "fanout.pool.acquire-timeout=100ms", "fanout.response-timeout=3s", "fanout.deadline=8s"})
class ReactorNettyClientIntegrationTest extends FanoutIntegrationTest {

    private static final StrategyName REACTIVE = StrategyName.REACTIVE;
    /** How long the holder of orders' only connection keeps it: 20 x the acquire timeout. */
    private static final int HOLD_MS = 2000;
    /** Far beyond the 3 s response timeout. */
    private static final int NEVER_MS = 10_000;
    /** The failing call's latency, so that its slow siblings are surely in flight by then. */
    private static final int FAST_FAILURE_MS = 100;
    /** The siblings' latency: within the 3 s response timeout, so only a cancel can free their connections earlier. */
    private static final int SLOW_MS = 2500;
    /**
     * How long after the answer the cancelled siblings' connections may still be in use: as
     * DownstreamFailureIntegrationTest's bound for HttpClient 5, 1 s, which still ends 1.4 s before the siblings'
     * {@value #SLOW_MS} ms (answer near {@value #FAST_FAILURE_MS} ms), so siblings left running fail the test.
     */
    private static final Duration RELEASE_BOUND = Duration.ofSeconds(1);

    @Autowired
    ApplicationContext context;

    @Autowired
    MeterRegistry meters;

    @Autowired
    WebClient downstreamWebClient;

    @AfterEach
    void leavesNoConnectionOrThreadBehind() {
        assertNothingLeftBehind();
    }

    @Test
    void theReactiveCallsRunOnReactorNettysPoolAndNoApacheAsyncClientExists() {
        assertThat(context.getBeansOfType(ConnectionProvider.class)).as("Reactor Netty's pool")
                .containsOnlyKeys("downstreamReactiveConnectionProvider");
        assertThat(context.getBean(ClientHttpConnector.class)).isInstanceOf(ReactorClientHttpConnector.class);
        assertThat(context.getBeanNamesForType(CloseableHttpAsyncClient.class)).as("HttpClient 5's async client")
                .isEmpty();
        assertThat(context.containsBean("downstreamAsyncConnectionPool")).as("its pool").isFalse();
        assertThat(context.containsBean("reactiveIoThreads")).as("its threads").isFalse();
        // per downstream, as many connections as the blocking strategies' pool allows a route (Reactor Netty's limit
        // is per remote address; it has none across them: docs/strategies.md)
        assertThat(context.getBean(ConnectionProvider.class).maxConnections()).as("connections per downstream")
                .isEqualTo(context.getBean(PoolingHttpClientConnectionManager.class).getDefaultMaxPerRoute())
                .isEqualTo(1);
    }

    /** The body of the blocking strategies (HttpClient 5's classic client), and every call observed as before. */
    @Test
    void answersTheSameBodyAndRecordsEveryCallInHttpClientRequests() {
        serveAll(0);
        long before = clientRequests();

        Answer answer = backoffice(REACTIVE);

        assertThat(answer).hasStatusOk().hasContentTypeCompatibleWith(MediaType.APPLICATION_JSON)
                .hasHeader(Backoffice.STRATEGY_HEADER, REACTIVE.toString());
        await().atMost(SETTLE).untilAsserted(() -> assertThat(clientRequests() - before)
                .as("http.client.requests recorded, one per downstream").isEqualTo(Downstream.values().length));
        assertThat(answer.body()).isEqualTo(backoffice(StrategyName.SEQUENTIAL).body());
    }

    /**
     * Another call holds orders' only connection for {@value #HOLD_MS} ms, made on the strategy's own WebClient as
     * another request's would be: Reactor Netty keeps a pool per remote address and per client configuration, so a
     * call on another {@code HttpClient}, even over the same {@code ConnectionProvider}, would not compete. The
     * reactive request's call to orders waits the 100 ms acquire timeout and the request ends with 503.
     */
    @Test
    void answers503PoolExhaustedWithinTheAcquireTimeoutWhileAnotherCallHoldsTheOnlyConnection() throws Exception {
        serve(ORDERS, HOLD_MS);
        serve(PRODUCTS, 0);
        serve(ACCOUNTS, 0);
        CompletableFuture<String> holder = downstreamWebClient.get().uri(orders.baseUrl() + path(ORDERS))
                .retrieve().bodyToMono(String.class).toFuture();
        await().atMost(Duration.ofSeconds(5)).until(() -> reactorNettyConnections("active") == 1);

        Answer answer = backoffice(REACTIVE);

        assertProblem(answer, HttpStatus.SERVICE_UNAVAILABLE, "pool-exhausted", REACTIVE, ORDERS);
        assertThat(answer.millis()).as("gave up at the acquire timeout, not when the connection came back")
                .isLessThan(HOLD_MS);
        assertThat(holder.get(10, TimeUnit.SECONDS)).as("the call holding the connection is unharmed")
                .isEqualTo(catalogue(ORDERS));
    }

    @Test
    void answers504DownstreamTimeoutWhenNoResponseComesWithinTheResponseTimeout() {
        serve(ORDERS, 0);
        serve(PRODUCTS, NEVER_MS);
        serve(ACCOUNTS, 0);

        Answer answer = backoffice(REACTIVE);

        assertProblem(answer, HttpStatus.GATEWAY_TIMEOUT, "downstream-timeout", REACTIVE, PRODUCTS);
        assertThat(answer).bodyJson().extractingPath("$.detail")
                .isEqualTo("products-service sent no response within the response timeout");
        assertThat(answer.millis()).as("cut at the 3 s response timeout").isLessThan(NEVER_MS);
    }

    /** Two chunks over 8 s: the headers in time, then a gap of about 4 s in the body. */
    @Test
    void answers504DownstreamTimeoutWhenTheBodyStallsLongerThanTheResponseTimeout() {
        serve(ORDERS, 0);
        answer(PRODUCTS, okJson(catalogue(PRODUCTS)).withChunkedDribbleDelay(2, 8000));
        serve(ACCOUNTS, 0);

        assertProblem(backoffice(REACTIVE), HttpStatus.GATEWAY_TIMEOUT, "downstream-timeout", REACTIVE, PRODUCTS);
    }

    /**
     * orders fails after {@value #FAST_FAILURE_MS} ms while products and accounts take {@value #SLOW_MS} ms:
     * {@code Mono.zip} cancels them, and Reactor Netty closes their connections. The caller gets the 502 near the
     * failure, and within {@link #RELEASE_BOUND} of it the pool's active-connections gauge reads 0.
     */
    @Test
    void aFailedCallsCancelledSiblingsReleaseTheirConnections() {
        answer(ORDERS, serverError().withFixedDelay(FAST_FAILURE_MS));
        serve(PRODUCTS, SLOW_MS);
        serve(ACCOUNTS, SLOW_MS);

        Answer answer = backoffice(REACTIVE);

        long answered = System.nanoTime();
        await().atMost(RELEASE_BOUND).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(5))
                .untilAsserted(() -> assertThat(reactorNettyConnections("active"))
                        .as(() -> "connections still in use %d ms after the caller had the answer (bound %d ms)"
                                .formatted((System.nanoTime() - answered) / 1_000_000, RELEASE_BOUND.toMillis()))
                        .isZero());
        assertProblem(answer, HttpStatus.BAD_GATEWAY, "downstream-error", REACTIVE, ORDERS);
        assertThat(answer.millis()).as("answered near the fast failure, not after the slow siblings")
                .isLessThan(SLOW_MS / 2);
    }

    @Test
    void answers502NamingTheServiceThatResetTheConnectionAsOnHttpClient5() {
        serveAll(0);
        answer(ACCOUNTS, aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER));

        Answer answer = backoffice(REACTIVE);

        assertProblem(answer, HttpStatus.BAD_GATEWAY, "downstream-error", REACTIVE, ACCOUNTS);
        assertThat(answer).bodyJson().extractingPath("$.detail")
                .isEqualTo("accounts-service reset or broke the connection");
    }

    /** @return http.client.requests recorded so far for the three downstreams */
    private long clientRequests() {
        return meters.find("http.client.requests").timers().stream()
                .filter(timer -> timer.getId().getTag("client.name") != null
                        && timer.getId().getTag("client.name").endsWith("-service"))
                .mapToLong(Timer::count).sum();
    }
}
