package lab.fanout.main.web;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.MeterRegistry;
import lab.fanout.main.client.Downstream;
import lab.fanout.main.strategy.StrategyName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.client.RestTestClient;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.exactly;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static lab.fanout.main.client.Downstream.ACCOUNTS;
import static lab.fanout.main.client.Downstream.ORDERS;
import static lab.fanout.main.client.Downstream.PRODUCTS;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a caller of {@code /backoffice/api/v1/backoffice/orders} sees when the downstreams work: the joined body,
 * the latency shape of each strategy, the headers, and 400 problems for bad input. Default ({@code virtual})
 * profile and knobs.
 */
class BackofficeIntegrationTest extends FanoutIntegrationTest {

    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();

    /** Per-call latency of the latency-shape test, the figure. */
    private static final int LATENCY_MS = 300;
    /** What a request may take on top of its downstream latencies (loopback HTTP, JSON, a busy 2-core CI box). */
    private static final int OVERHEAD_MS = 400;

    @ParameterizedTest
    @EnumSource(StrategyName.class)
    void everyStrategyReturnsTheSameBody(StrategyName strategy) {
        serveAll(0);

        Answer answer = backoffice(strategy);

        assertThat(answer).hasStatusOk().hasContentTypeCompatibleWith(MediaType.APPLICATION_JSON);
        assertThat(answer.body()).isEqualTo(backoffice(StrategyName.SEQUENTIAL).body());
    }

    @ParameterizedTest
    @EnumSource(StrategyName.class)
    void seedPathByRestTemplateIsTheSameEndpoint(StrategyName strategy) {
        serveAll(0);

        Answer answer = request(ENDPOINT + "/byRestTemplate?concurrency=" + strategy);

        assertThat(answer).hasStatusOk().hasHeader(Backoffice.STRATEGY_HEADER, strategy.toString());
        assertThat(answer.body()).isEqualTo(backoffice(strategy).body());
    }

    /** Checks the join against the three catalogues directly, not against main-service's own join code. */
    @Test
    void joinsEveryOrderWithItsAccountAndProductsAndTotalsItsLines() {
        serveAll(0);

        JsonNode views = JSON.readTree(backoffice(StrategyName.SCOPE_FORK).body());

        JsonNode orders = JSON.readTree(catalogue(ORDERS));
        Map<String, JsonNode> accounts = byId(JSON.readTree(catalogue(ACCOUNTS)));
        Map<String, JsonNode> products = byId(JSON.readTree(catalogue(PRODUCTS)));
        assertThat(views).as("one view per order, in catalogue order").hasSize(orders.size());
        for (int i = 0; i < orders.size(); i++) {
            JsonNode order = orders.get(i);
            JsonNode view = views.get(i);
            assertThat(view.get("id")).isEqualTo(order.get("id"));
            assertThat(view.get("status")).isEqualTo(order.get("status"));
            assertThat(view.get("placedAt")).isEqualTo(order.get("placedAt"));
            JsonNode account = accounts.get(order.get("accountId").asString());
            for (String field : new String[] {"id", "name", "email", "country", "tier"}) {
                assertThat(view.path("account").get(field)).as(field).isEqualTo(account.get(field));
            }
            BigDecimal total = BigDecimal.ZERO;
            assertThat(view.get("items")).hasSize(order.get("items").size());
            for (int j = 0; j < order.get("items").size(); j++) {
                JsonNode item = order.get("items").get(j);
                JsonNode line = view.get("items").get(j);
                JsonNode product = products.get(item.get("productId").asString());
                assertThat(line.get("productId")).isEqualTo(item.get("productId"));
                assertThat(line.get("quantity")).isEqualTo(item.get("quantity"));
                for (String field : new String[] {"id", "sku", "name", "inStock"}) {
                    assertThat(line.path("product").get(field)).as(field).isEqualTo(product.get(field));
                }
                BigDecimal price = product.path("price").get("amount").decimalValue();
                assertThat(line.path("product").path("price").get("amount").decimalValue()).isEqualByComparingTo(price);
                total = total.add(price.multiply(BigDecimal.valueOf(item.get("quantity").asInt())));
            }
            // the catalogue's prices are all in euros: one entry
            assertThat(view.get("total").propertyNames()).as("currencies of " + order.get("id")).containsExactly("EUR");
            assertThat(view.get("total").get("EUR").decimalValue()).as("total of " + order.get("id"))
                    .isEqualByComparingTo(total);
        }
    }

    /**
     * Every downstream answers after 300 ms. A strategy that can run k calls at once needs ceil(3 / k) rounds of
     * 300 ms: sequential 3 rounds (at least 900 ms), the parallel strategies one round (under 700 ms).
     * <p>
     * Common-pool caveat: {@code completableFuture} runs its calls on {@link ForkJoinPool#commonPool()}, whose
     * parallelism is cores - 1, so 1 on a 2-core machine such as CI, and the JDK does not add threads for calls
     * blocked in socket reads. There it runs the three calls one after another and is effectively sequential
     * (at least 900 ms). The expectation is derived from this JVM's parallelism, so the test holds on any machine.
     */
    @ParameterizedTest
    @EnumSource(StrategyName.class)
    void takesOneDownstreamLatencyPerRoundOfCallsItCanRunAtOnce(StrategyName strategy) {
        int rounds = rounds(strategy);
        serveAll(LATENCY_MS);
        Answer first = backoffice(strategy);
        Answer second = backoffice(strategy);

        for (Answer answer : new Answer[] {first, second}) {
            assertThat(answer).hasStatusOk();
            assertThat(answer.millis()).as("%s: %d round(s) of %d ms", strategy, rounds, LATENCY_MS)
                    .isGreaterThanOrEqualTo((long) rounds * LATENCY_MS);
            Map<String, Double> timing = serverTiming(answer);
            for (Downstream downstream : Downstream.values()) {
                assertThat(timing.get(downstream.timingName())).as("Server-Timing " + downstream)
                        .isGreaterThanOrEqualTo(LATENCY_MS);
            }
            assertThat(timing.get("total")).isGreaterThanOrEqualTo(rounds * LATENCY_MS);
        }
        if (strategy != StrategyName.SEQUENTIAL) {   // the best of two runs, so one scheduling hiccup does not fail it
            assertThat(Math.min(first.millis(), second.millis()))
                    .as("%s: %d round(s) of %d ms plus overhead", strategy, rounds, LATENCY_MS)
                    .isLessThan((long) rounds * LATENCY_MS + OVERHEAD_MS);
        }
    }

    @ParameterizedTest
    @EnumSource(StrategyName.class)
    void namesTheStrategyAndTheVirtualRequestThreadAndTimesEachCall(StrategyName strategy) {
        serveAll(0);

        Answer answer = backoffice(strategy);

        assertThat(answer).hasStatusOk()
                .hasHeader(Backoffice.STRATEGY_HEADER, strategy.toString())
                .hasHeader(Backoffice.THREAD_HEADER, fanoutThread(strategy));
        assertThat(answer.header("Server-Timing"))
                .matches("orders;dur=\\d+\\.\\d, products;dur=\\d+\\.\\d, accounts;dur=\\d+\\.\\d, total;dur=\\d+\\.\\d");
    }

    /** The binding uses StrategyName's aliases, in any case (every alias: StrategyNameTest). */
    @ParameterizedTest
    @CsvSource({
            "seq, sequential",
            "SCOPEFORK, scopeFork",
            "WebClient, reactive",
    })
    void acceptsShortAliasesAndAnyCase(String value, String strategy) {
        serveAll(0);

        assertThat(backoffice("concurrency=" + value)).hasStatusOk()
                .hasHeader(Backoffice.STRATEGY_HEADER, strategy);
    }

    @Test
    void forwardsTheSimulationKnobsToEveryDownstream() {
        serveAll(0);

        assertThat(backoffice("concurrency=scopeFork&latencyMs=7&jitterMs=3")).hasStatusOk();

        for (Downstream downstream : Downstream.values()) {
            server(downstream).verify(exactly(1), getRequestedFor(urlPathEqualTo(path(downstream)))
                    .withQueryParam("latencyMs", equalTo("7")).withQueryParam("jitterMs", equalTo("3")));
        }
    }

    /**
     * Rejected before any downstream is called, with a detail that says what is valid. One knob out of range and
     * main-service's own {@code faultTarget} show the wiring; every knob's limit: orders-service's DownstreamFaultsTest.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            concurrency=fast                           | concurrency: 'fast' is not one of {strategies}
            concurrency=                               | concurrency: is required; one of {strategies}
            latencyMs=100                              | concurrency: is required; one of {strategies}
            concurrency=scopeFork&latencyMs=60001      | latencyMs: must be less than or equal to 60000 (got '60001')
            concurrency=scopeFork&faultTarget=users    | faultTarget[0]: must be one of [orders, products, accounts] (got 'users')
            concurrency=scopeFork&cpuMs=1001           | cpuMs: must be between 0 and 1000 (CPU-ms per request) (got '1001')
            concurrency=scopeFork&cpuMs=-1             | cpuMs: must be between 0 and 1000 (CPU-ms per request) (got '-1')
            concurrency=scopeFork&onDeadline=degrade   | onDeadline: 'degrade' is not one of [fail, partial]
            """)
    void answers400ProblemNamingWhatIsValid(String query, String detail) {
        Answer answer = backoffice(query);

        assertThat(answer).hasStatus(HttpStatus.BAD_REQUEST)
                .hasContentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON);
        assertThat(answer).bodyJson().extractingPath("$.type").isEqualTo(PROBLEMS + "bad-parameter");
        assertThat(answer).bodyJson().extractingPath("$.detail")
                .isEqualTo(detail.replace("{strategies}", Arrays.toString(StrategyName.values())));
        assertThat(answer).bodyJson().doesNotHavePath("$.downstream");
        // as docs/knobs.md says: answered before a strategy is chosen, so without the fan-out's headers (gh-15 item 12)
        assertThat(answer).doesNotContainHeader(Backoffice.STRATEGY_HEADER)
                .doesNotContainHeader(Backoffice.THREAD_HEADER).doesNotContainHeader("Server-Timing");
        for (Downstream downstream : Downstream.values()) {
            server(downstream).verify(0, anyRequestedFor(anyUrl()));
        }
    }

    /**
     * A mistyped knob is refused, not measured as the default (gh-23 item 6): the detail names it, the known
     * parameter it probably meant, and every parameter the endpoint takes, before any downstream is called.
     */
    @ParameterizedTest
    @ValueSource(strings = {"", "/byRestTemplate"})
    void answers400NamingAnUnknownParameterAndTheKnownOnes(String path) {
        serveAll(0);   // so that, were the parameter ignored, the answer would be 200 with the default latency

        Answer answer = request(ENDPOINT + path + "?concurrency=scopeFork&latencyms=2000");

        assertThat(answer).hasStatus(HttpStatus.BAD_REQUEST)
                .hasContentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON);
        assertThat(answer).bodyJson().extractingPath("$.type").isEqualTo(PROBLEMS + "bad-parameter");
        assertThat(answer).bodyJson().extractingPath("$.detail").isEqualTo("latencyms: not a parameter of this"
                + " endpoint (did you mean latencyMs?); it takes [concurrency, latencyMs, jitterMs, errorRate,"
                + " errorStatus, tailRate, tailMs, closeRate, dribbleMs, faultTarget, width, hedgeAfterMs, cpuMs,"
                + " pinning, recycler, onDeadline]");
        for (Downstream downstream : Downstream.values()) {
            server(downstream).verify(0, anyRequestedFor(anyUrl()));
        }
    }

    /** The other side of the check: every parameter the endpoint binds passes it, each with a harmless value. */
    @Test
    void acceptsEveryKnownParameter() {
        serveAll(0);

        assertThat(backoffice("concurrency=scopeFork&width=2&hedgeAfterMs=p95&latencyMs=0&jitterMs=0&errorRate=0"
                + "&errorStatus=500&tailRate=0&tailMs=0&closeRate=0&dribbleMs=0&faultTarget=orders&cpuMs=1&pinning=none"
                + "&recycler=pool&onDeadline=partial"))
                .hasStatusOk();
    }

    /**
     * Reactive's {@code cpuMs} is spent on Reactor's parallel scheduler, as its reference guide says for CPU-bound
     * work, not on the thread that completed the join (an event loop on netty, HttpClient 5's {@code reactive-io-N});
     * a blocking strategy spends it on the thread that ran its fan-out.
     */
    @Test
    void reactiveSpendsCpuMsOnTheParallelSchedulerNotTheEventLoop() {
        serveAll(0);

        Answer reactive = backoffice("concurrency=reactive&cpuMs=1");
        Answer blocking = backoffice("concurrency=scopeFork&cpuMs=1");

        assertThat(reactive).hasStatusOk();
        assertThat(reactive.header(Backoffice.CPU_THREAD_HEADER)).startsWith("parallel-");
        assertThat(blocking.header(Backoffice.CPU_THREAD_HEADER)).isNotBlank().doesNotStartWith("parallel-");
        assertThat(backoffice("concurrency=reactive")).doesNotContainHeader(Backoffice.CPU_THREAD_HEADER);
    }

    /**
     * The circuit breakers are off unless {@code fanout.breaker.enabled}: every one reports Resilience4j's DISABLED
     * state, so dashboards show it, and a frozen downstream is waited out as before (BreakerIntegrationTest: on).
     */
    @Test
    void theCircuitBreakersAreDisabledByDefault(@Autowired MeterRegistry registry) {
        for (Downstream downstream : Downstream.values()) {
            assertThat(registry.find("resilience4j.circuitbreaker.state").tag("name", downstream.serviceName())
                    .tag("state", "disabled").gauge()).as(downstream.serviceName()).isNotNull()
                    .satisfies(gauge -> assertThat(gauge.value()).isEqualTo(1));
        }
    }

    /** @return {@code X-Fanout-Request-Thread} of the strategy: a virtual request thread runs them all here */
    String fanoutThread(StrategyName strategy) {
        return "virtual";
    }

    /** @return {@code Server-Timing} as metric name to duration in ms */
    static Map<String, Double> serverTiming(Answer answer) {
        return Arrays.stream(answer.header("Server-Timing").split(",\\s*"))
                .map(entry -> entry.split(";dur="))
                .collect(Collectors.toMap(pair -> pair[0], pair -> Double.parseDouble(pair[1]),
                        (a, b) -> a, LinkedHashMap::new));
    }

    private static Map<String, JsonNode> byId(JsonNode items) {
        Map<String, JsonNode> byId = new HashMap<>();
        items.forEach(item -> byId.put(item.get("id").asString(), item));
        return byId;
    }

    /**
     * The actuator answers on the management port only (management.server.port): a scrape costs main-service
     * about 20 ms of CPU and {@code /info} shows its knobs, so neither is for callers of the public port.
     */
    @ParameterizedTest
    @ValueSource(strings = {"/actuator/prometheus", "/actuator/info", "/actuator/health"})
    void servesTheActuatorOnTheManagementPortOnly(String endpoint, @LocalManagementPort int managementPort) {
        assertThat(request(endpoint)).as("%s on the public port", endpoint).hasStatus(HttpStatus.NOT_FOUND)
                .hasContentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON);
        RestTestClient.bindToServer().baseUrl("http://localhost:" + managementPort).build()
                .get().uri(endpoint).exchange().expectStatus().isOk();
    }

    /** Kubernetes' probes ask the public port, so that they fail when it stops serving (docs/knobs.md, "Ports"). */
    @ParameterizedTest
    @ValueSource(strings = {"/livez", "/readyz"})
    void answersTheProbesOnThePublicPort(String probe) {
        assertThat(request(probe)).hasStatusOk();
    }
}
