package lab.fanout.main.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.stream.IntStream;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.WireMockServer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Metrics;
import lab.fanout.main.LiveThreads;
import lab.fanout.main.client.Downstream;
import lab.fanout.main.strategy.StrategyName;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManager;
import org.apache.hc.core5.pool.PoolStats;
import org.assertj.core.api.AssertProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;
import org.springframework.test.web.servlet.client.assertj.RestTestClientResponse;
import org.springframework.test.web.servlet.client.assertj.RestTestClientResponseAssert;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The one fixture of main-service's web tests: main-service on a random port, its three downstreams faked by WireMock
 * (one server each) serving the real {@code catalogue.json} of orders-, products- and accounts-service.
 * <p>
 * The fakes are started once per JVM and reset before each test, so that Spring's context cache can share a context
 * between the classes whose configuration is the same (no {@code @DirtiesContext}): each distinct configuration is
 * one context, and three fakes serve them all. A request no stub matched fails the test. Every test ends by waiting,
 * bounded, until no pooled connection is leased or awaited, so that no call of one test reaches into the next; the
 * failure tests also check that no fan-out thread is left ({@link #assertNothingLeftBehind()}: a JVM thread dump,
 * too slow to take after every test).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
abstract class FanoutIntegrationTest {

    static final String ENDPOINT = "/backoffice/api/v1/backoffice/orders";
    static final String PROBLEMS = "https://fanout-lab.dev/problems/";
    /** How long a test waits for abandoned calls to end before calling them leaked. */
    static final Duration SETTLE = Duration.ofSeconds(5);

    /** Jetty threads per fake: enough for every call of the leak test's concurrent requests. */
    private static final int WIREMOCK_THREADS = 200;

    static final WireMockServer orders = fakeDownstream();
    static final WireMockServer products = fakeDownstream();
    static final WireMockServer accounts = fakeDownstream();

    private static final Map<Downstream, String> catalogues = new ConcurrentHashMap<>();

    /**
     * On the JDK's HTTP/1.1 client. Not {@code @AutoConfigureRestTestClient}'s default client: that one held a
     * second concurrent request to main-service back until the first had been answered, which hides exactly the
     * concurrency these tests look at (the pool-exhaustion test saw 200 after 2 s instead of 503 after 100 ms).
     */
    static RestTestClient client;
    private static HttpClient http;

    @Autowired
    PoolingHttpClientConnectionManager downstreamConnectionPool;

    /**
     * The reactive strategy's pool (HttpClient's async client): checked wherever the blocking pool is. Absent with
     * {@code fanout.reactive.client=reactor-netty}, whose pool is read from its gauges instead
     * ({@link #reactorNettyConnections}).
     */
    @Autowired(required = false)
    PoolingAsyncClientConnectionManager downstreamAsyncConnectionPool;

    @DynamicPropertySource
    static void downstreamUrls(DynamicPropertyRegistry registry) {
        registry.add("fanout.downstreams.orders", orders::baseUrl);
        registry.add("fanout.downstreams.products", products::baseUrl);
        registry.add("fanout.downstreams.accounts", accounts::baseUrl);
    }

    /**
     * A fake downstream on a free port, for the rest of the JVM. Gzip off, as on the real downstreams: should a client
     * ask for gzip (main-service's no longer does), WireMock's gzip stream would hold a dribbled body back until its end.
     */
    private static WireMockServer fakeDownstream() {
        WireMockServer server = new WireMockServer(wireMockConfig().dynamicPort().gzipDisabled(true)
                .containerThreads(WIREMOCK_THREADS));
        server.start();
        return server;
    }

    @BeforeEach
    void resetFakes() {
        for (Downstream downstream : Downstream.values()) {
            server(downstream).resetAll();
        }
    }

    /**
     * A good and a failed request per strategy before any test: the first of each in a JVM loads and links
     * hundreds of classes (seconds on a busy 2-core machine), which no test that looks at elapsed time should pay.
     */
    @BeforeAll
    static void bindClientAndWarmUp(@LocalServerPort int port) {
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        client = RestTestClient.bindToServer(new JdkClientHttpRequestFactory(http)).baseUrl("http://localhost:" + port)
                .build();
        serveAll(0);
        for (StrategyName strategy : StrategyName.values()) {
            client.get().uri(ENDPOINT + "?concurrency=" + strategy).exchange();   // outcome irrelevant: only warming
        }
        answer(Downstream.ORDERS, aResponse().withStatus(500));
        for (StrategyName strategy : StrategyName.values()) {
            client.get().uri(ENDPOINT + "?concurrency=" + strategy).exchange();
        }
    }

    @AfterAll
    static void closeClient() {
        http.close();
    }

    @AfterEach
    void noConnectionLeftBehindNorRequestUnmatched() {
        await().atMost(SETTLE).pollInterval(Duration.ofMillis(20)).untilAsserted(this::assertPoolIdle);
        for (Downstream downstream : Downstream.values()) {
            assertThat(server(downstream).findAllUnmatchedRequests()).as("requests to " + downstream + " no stub matched")
                    .isEmpty();
        }
    }

    /**
     * Waits, at most {@link #SETTLE}, until no pooled connection is leased or awaited and no fan-out thread is
     * alive: neither the executors' {@code fanout-platform-N} / {@code fanout-virtual-N} nor a
     * {@code StructuredTaskScope}'s (its container is named {@code fanout}).
     */
    void assertNothingLeftBehind() {
        await().atMost(SETTLE).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
            assertPoolIdle();
            assertThat(LiveThreads.matching("fanout-platform-", "fanout-virtual-", "fanout/"))
                    .as("live fan-out threads").isEmpty();
        });
    }

    /** Both pools: the blocking strategies' and the reactive strategy's (HttpClient 5's or Reactor Netty's). */
    void assertPoolIdle() {
        PoolStats async = downstreamAsyncConnectionPool == null ? new PoolStats(0, 0, 0, 0)
                : downstreamAsyncConnectionPool.getTotalStats();
        for (var stats : new PoolStats[] {downstreamConnectionPool.getTotalStats(), async}) {
            assertThat(stats.getLeased()).as("leased pooled connections").isZero();
            assertThat(stats.getPending()).as("callers waiting for a pooled connection").isZero();
        }
        assertThat(reactorNettyConnections("active")).as("Reactor Netty's connections in use").isZero();
        assertThat(reactorNettyConnections("pending")).as("calls waiting for a Reactor Netty connection").isZero();
    }

    /** @return connections leased now from both pools */
    int leased() {
        return downstreamConnectionPool.getTotalStats().getLeased() + (downstreamAsyncConnectionPool == null
                ? 0 : downstreamAsyncConnectionPool.getTotalStats().getLeased()) + reactorNettyConnections("active");
    }

    /**
     * @param state {@code active} (in use by a call) or {@code pending} (calls waiting for one)
     * @return the reactive strategy's Reactor Netty connections in that state, over every downstream, from the pool's
     *         own gauges ({@code reactor_netty_connection_provider_<state>_connections{name="downstream-reactive"}},
     *         which Reactor Netty registers in Micrometer's global registry); 0 with HttpClient 5's client
     */
    static int reactorNettyConnections(String state) {
        return (int) Metrics.globalRegistry.find("reactor.netty.connection.provider." + state + ".connections")
                .tag("name", "downstream-reactive").gauges().stream()
                .mapToDouble(Gauge::value).filter(Double::isFinite).sum();
    }

    /**
     * @return how many rounds of one downstream latency the strategy needs for its three blocking calls on this
     * JVM: sequential 3, the thread-per-task, structured, reactive and bounded-pool (200 threads by default)
     * strategies 1, and {@code completableFuture}
     * ceil(3 / common-pool parallelism), because the common pool runs at most that many blocking calls at once
     * (parallelism = cores - 1, so 1 on 2 cores, where it is effectively sequential)
     */
    static int rounds(StrategyName strategy) {
        return switch (strategy) {
            case SEQUENTIAL -> 3;
            case COMPLETABLE_FUTURE -> Math.ceilDiv(3, Math.min(3, ForkJoinPool.getCommonPoolParallelism()));
            case THREAD_PER_TASK, VIRTUAL_THREAD_PER_TASK, SCOPE_FORK, REACTIVE, BOUNDED_POOL -> 1;
        };
    }

    static WireMockServer server(Downstream downstream) {
        return switch (downstream) {
            case ORDERS -> orders;
            case PRODUCTS -> products;
            case ACCOUNTS -> accounts;
        };
    }

    /** @return the seed demo's path of the downstream, written out: main-service must call exactly these */
    static String path(Downstream downstream) {
        return switch (downstream) {
            case ORDERS -> "/order/api/v1/orders";
            case PRODUCTS -> "/product/api/v1/products";
            case ACCOUNTS -> "/account/api/v1/accounts";
        };
    }

    /** @return the downstream service's own {@code catalogue.json}, read from its module (tests run in main-service/) */
    static String catalogue(Downstream downstream) {
        return catalogues.computeIfAbsent(downstream, d -> {
            try {
                return Files.readString(Path.of("..", d.serviceName(), "src", "main", "resources", "catalogue.json"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** The downstream answers its real catalogue after {@code delayMs}. */
    static void serve(Downstream downstream, int delayMs) {
        answer(downstream, aResponse().withHeader("Content-Type", MediaType.APPLICATION_JSON_VALUE)
                .withBody(catalogue(downstream)).withFixedDelay(delayMs));
    }

    static void serveAll(int delayMs) {
        for (Downstream downstream : Downstream.values()) {
            serve(downstream, delayMs);
        }
    }

    static void answer(Downstream downstream, ResponseDefinitionBuilder response) {
        server(downstream).stubFor(get(urlPathEqualTo(path(downstream))).willReturn(response));
    }

    /** @return what a caller of {@code GET /backoffice/api/v1/backoffice/orders?{query}} sees, and how long it took */
    Answer backoffice(String query) {
        return request(ENDPOINT + "?" + query);
    }

    /** @return what a caller of {@code GET {pathAndQuery}} on main-service sees, and how long it took */
    Answer request(String pathAndQuery) {
        long start = System.nanoTime();
        var result = client.get().uri(pathAndQuery).exchange().returnResult();
        return new Answer(RestTestClientResponse.from(result), Duration.ofNanos(System.nanoTime() - start));
    }

    /** @return the answers to {@code n} requests of the strategy sent at once, each on a virtual thread of its own */
    List<Answer> backofficeAtOnce(int n, StrategyName strategy) {
        List<Future<Answer>> answers;
        try (var senders = Executors.newVirtualThreadPerTaskExecutor()) {   // close() waits for every answer
            answers = IntStream.range(0, n).mapToObj(i -> senders.submit(() -> backoffice(strategy))).toList();
        }
        return answers.stream().map(Future::resultNow).toList();
    }

    Answer backoffice(StrategyName strategy) {
        return backoffice("concurrency=" + strategy);
    }

    /** One response as the caller saw it; {@code assertThat(answer)} gives Spring's AssertJ response assertions. */
    record Answer(RestTestClientResponse response, Duration elapsed)
            implements AssertProvider<RestTestClientResponseAssert> {

        @Override
        public RestTestClientResponseAssert assertThat() {
            return response.assertThat();
        }

        long millis() {
            return elapsed.toMillis();
        }

        int status() {
            return response.getExchangeResult().getStatus().value();
        }

        String header(String name) {
            return response.getExchangeResult().getResponseHeaders().getFirst(name);
        }

        String body() {
            return new String(response.getExchangeResult().getResponseBodyContent(), StandardCharsets.UTF_8);
        }
    }

    /**
     * Asserts an RFC 9457 problem as main-service documents it: status, {@code application/problem+json},
     * {@code type}, the {@code strategy} that ran, the {@code downstream} it blames, the strategy header, and
     * no stack trace.
     *
     * @param downstreams the services the problem may blame (more than one where the calls race)
     */
    static void assertProblem(Answer answer, HttpStatus status, String type, StrategyName strategy,
                              Downstream... downstreams) {
        assertThat(answer).hasStatus(status).hasContentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .hasHeader(Backoffice.STRATEGY_HEADER, strategy.toString())
                .containsHeader(Backoffice.THREAD_HEADER).containsHeader("Server-Timing");
        assertThat(answer).bodyJson().extractingPath("$.type").isEqualTo(PROBLEMS + type);
        assertThat(answer).bodyJson().extractingPath("$.status").isEqualTo(status.value());
        assertThat(answer).bodyJson().extractingPath("$.strategy").isEqualTo(strategy.toString());
        assertThat(answer).bodyJson().extractingPath("$.downstream").asString()
                .isIn(Arrays.stream(downstreams).map(Downstream::serviceName).toList());
        assertThat(answer).bodyJson().doesNotHavePath("$.trace");
        assertThat(answer.body()).as("no stack trace").doesNotContain("\tat ");
    }
}
