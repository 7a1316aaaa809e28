package lab.fanout.main;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;

import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.matching.RequestPatternBuilder;
import lab.fanout.main.client.FanoutCallMeters;
import lab.fanout.main.client.Downstream;
import lab.fanout.main.strategy.StrategyName;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static lab.fanout.main.FaultsFixture.call;
import static lab.fanout.main.FaultsFixture.catalogue;
import static lab.fanout.main.FaultsFixture.path;
import static lab.fanout.main.FaultsFixture.serveCatalogue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Faults asked of main-service: the fault knobs go to the {@code faultTarget} downstreams only, with the call's
 * budget; the failures they cause reach the caller as problems naming the service; and a downstream that dribbles
 * its body past the deadline costs every strategy no more than the deadline, leaving no call running.
 * The fakes answer each knob the way the real downstreams do (see orders-service's DownstreamFaultsTest).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"fanout.deadline=1500ms", "fanout.response-timeout=1s"})
class ForwardedFaultsTest {

    private static final int DEADLINE_MS = 1500;
    private static final int DRIBBLE_MS = 6000;

    @RegisterExtension
    static final WireMockExtension orders = FaultsFixture.fakeDownstream();
    @RegisterExtension
    static final WireMockExtension products = FaultsFixture.fakeDownstream();
    @RegisterExtension
    static final WireMockExtension accounts = FaultsFixture.fakeDownstream();

    private static final HttpClient caller = FaultsFixture.caller();

    @LocalServerPort
    int port;

    @Autowired
    FanoutCallMeters calls;

    @Autowired
    PoolingHttpClientConnectionManager downstreamConnectionPool;

    @DynamicPropertySource
    static void downstreamUrls(DynamicPropertyRegistry registry) {
        registry.add("fanout.downstreams.orders", orders::baseUrl);
        registry.add("fanout.downstreams.products", products::baseUrl);
        registry.add("fanout.downstreams.accounts", accounts::baseUrl);
    }

    /** The first request of each strategy loads hundreds of classes: no timed test should pay for that. */
    @BeforeAll
    static void warmUp(@LocalServerPort int port) {
        serveAll();
        for (StrategyName strategy : StrategyName.values()) {
            call(caller, port, "concurrency=" + strategy);
        }
    }

    @AfterAll
    static void closeCaller() {
        caller.close();
    }

    @BeforeEach
    void fakes() {
        serveAll();
        // as the real downstreams do: closeRate=1 closes without a response, dribbleMs spreads the body
        orders.stubFor(get(urlPathEqualTo(path(Downstream.ORDERS))).withQueryParam("closeRate", equalTo("1.0"))
                .willReturn(aResponse().withFault(Fault.EMPTY_RESPONSE)));
        orders.stubFor(get(urlPathEqualTo(path(Downstream.ORDERS))).withQueryParam("dribbleMs", equalTo("" + DRIBBLE_MS))
                .willReturn(okJson(catalogue(Downstream.ORDERS)).withChunkedDribbleDelay(20, DRIBBLE_MS)));
    }

    @Test
    void faultKnobsReachOnlyTheTargetAndEveryCallCarriesItsBudget() {
        HttpResponse<String> response = call(caller, port,
                "concurrency=scopeFork&latencyMs=0&faultTarget=orders&errorRate=0&tailMs=0");

        assertThat(response.statusCode()).isEqualTo(200);
        orders.verify(1, catalogueCall(Downstream.ORDERS).withQueryParam("latencyMs", equalTo("0"))
                .withQueryParam("errorRate", equalTo("0.0")).withQueryParam("tailMs", equalTo("0"))
                .withQueryParam("faultTarget", absent()));
        products.verify(1, catalogueCall(Downstream.PRODUCTS).withQueryParam("latencyMs", equalTo("0"))
                .withQueryParam("errorRate", absent()).withQueryParam("tailMs", absent()));
        accounts.verify(1, catalogueCall(Downstream.ACCOUNTS).withQueryParam("latencyMs", equalTo("0"))
                .withQueryParam("errorRate", absent()).withQueryParam("tailMs", absent()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"faultTarget=orders,accounts", "faultTarget=orders&faultTarget=accounts"})
    void targetsCanBeListedWithCommasOrRepeated(String targets) {
        assertThat(call(caller, port, "concurrency=sequential&errorRate=0&" + targets).statusCode()).isEqualTo(200);

        orders.verify(1, catalogueCall(Downstream.ORDERS).withQueryParam("errorRate", equalTo("0.0")));
        accounts.verify(1, catalogueCall(Downstream.ACCOUNTS).withQueryParam("errorRate", equalTo("0.0")));
        products.verify(1, catalogueCall(Downstream.PRODUCTS).withQueryParam("errorRate", absent()));
    }

    @Test
    void unknownTargetIs400NamingTheValidOnes() {
        HttpResponse<String> response = call(caller, port, "concurrency=sequential&faultTarget=users&errorRate=1");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(response.body()).contains("faultTarget[0]: must be one of [orders, products, accounts] (got 'users')");
        orders.verify(0, getRequestedFor(urlPathEqualTo(path(Downstream.ORDERS))));
    }

    @Test
    void knobBeyondItsLimitIs400BeforeAnyCall() {
        HttpResponse<String> response = call(caller, port, "concurrency=sequential&faultTarget=orders&tailMs=3600000");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("tailMs: must be less than or equal to 60000");
        orders.verify(0, getRequestedFor(urlPathEqualTo(path(Downstream.ORDERS))));
    }

    @ParameterizedTest
    @EnumSource(StrategyName.class)
    void closedConnectionIs502NamingTheService(StrategyName strategy) {
        HttpResponse<String> response = call(caller, port, "concurrency=" + strategy + "&faultTarget=orders&closeRate=1");

        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(response.body()).contains("\"downstream\":\"orders-service\"")
                .contains("orders-service closed the connection without a response")
                .contains("\"strategy\":\"" + strategy + "\"");
    }

    /**
     * Each chunk arrives within the 1 s response timeout, the whole body only after 6 s: only the deadline watchdog
     * stops the call. Without it the sequential strategy answers after 6 s, and the CompletableFuture strategies
     * answer 504 at the deadline but leave the call running (a thread and a pooled connection) for 4.5 s more.
     */
    @ParameterizedTest
    @EnumSource(StrategyName.class)
    void bodyDribbledPastTheDeadlineIs504AtTheDeadlineAndLeavesNoCallRunning(StrategyName strategy) {
        long start = System.nanoTime();
        HttpResponse<String> response = call(caller, port,
                "concurrency=" + strategy + "&faultTarget=orders&dribbleMs=" + DRIBBLE_MS);
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);

        assertThat(response.statusCode()).isEqualTo(504);
        assertThat(response.body()).contains("https://fanout-lab.dev/problems/deadline-exceeded")
                .contains("\"downstream\":\"orders-service\"");
        assertThat(elapsed).isLessThan(Duration.ofMillis(DEADLINE_MS + 1500));
        await().atMost(Duration.ofSeconds(1)).untilAsserted(() -> {
            assertThat(calls.inFlight()).as("calls still running").isZero();
            assertThat(downstreamConnectionPool.getTotalStats().getLeased()).as("leased connections").isZero();
        });
    }

    private static RequestPatternBuilder catalogueCall(Downstream downstream) {
        return getRequestedFor(urlPathEqualTo(path(downstream)))
                .withHeader("X-Fanout-Budget-Ms", matching("[0-9]{1,4}"));
    }

    private static void serveAll() {
        serveCatalogue(orders, Downstream.ORDERS);
        serveCatalogue(products, Downstream.PRODUCTS);
        serveCatalogue(accounts, Downstream.ACCOUNTS);
    }
}
