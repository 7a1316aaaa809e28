package lab.fanout.downstream.contract;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every downstream service (orders, products, accounts) promises main-service and the seed demo's {@code ab}
 * lines, checked over real HTTP on a random port: its {@code catalogue.json} at the seed's path and each item at
 * {@code {path}/{id}}, 404 and 400 as problem+json, and the simulated latency (default 200 ms, {@code latencyMs}
 * override, {@code jitterMs} bounded). A service's test extends this and names its path, written out, so that a
 * wrong {@code downstream.path} fails.
 * <p>
 * Shipped in downstream-common's test-jar. Latency bounds are lower bounds plus, where a bound from above is the
 * point (jitter), a generous allowance for a busy 2-core machine.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)   // so that the warm-up knows the path
public abstract class DownstreamServiceContract {

    private static final String PROBLEM_JSON = "application/problem+json";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private final String path;

    @LocalServerPort
    private int port;

    @LocalManagementPort
    private int managementPort;

    /** @param path the seed demo's path of the service, e.g. {@code /order/api/v1/orders} */
    protected DownstreamServiceContract(String path) {
        this.path = path;
    }

    /**
     * A good, a 404 and a 400 request before any test: the first of each in a JVM loads and links hundreds of
     * classes (over a second on a busy 2-core machine), which no test that looks at elapsed time should pay.
     */
    @BeforeAll
    void warmUp() {
        for (String query : new String[] {"?latencyMs=0", "/no-such-id?latencyMs=0", "?latencyMs=-1"}) {
            get(path + query);
        }
    }

    @Test
    void servesItsCatalogueJsonAtTheSeedPath() {
        Response response = get(path + "?latencyMs=0");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.contentType()).startsWith("application/json");
        assertThat(response.json()).isEqualTo(catalogue());
    }

    @Test
    void servesEveryItemById() {
        for (JsonNode item : catalogue()) {
            Response response = get(path + "/" + item.get("id").asString() + "?latencyMs=0");

            assertThat(response.status()).isEqualTo(200);
            assertThat(response.json()).isEqualTo(item);
        }
    }

    /**
     * {@code ?slice=i&slices=n}: the parts in order are the catalogue, each item once, byte for byte as the whole
     * array is written (main-service's {@code width} relies on it: its answer must not depend on the width).
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5, 12, 32})
    void servesTheCatalogueInSlicesThatAddUpToItByteForByte(int slices) {
        String whole = get(path + "?latencyMs=0").body();
        List<String> items = new ArrayList<>();
        for (int slice = 0; slice < slices; slice++) {
            Response response = get(path + "?latencyMs=0&slice=" + slice + "&slices=" + slices);
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.json().isArray()).isTrue();
            String array = response.body();
            if (!array.equals("[]")) {
                items.add(array.substring(1, array.length() - 1));
            }
        }

        assertThat("[" + String.join(",", items) + "]").isEqualTo(whole);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            slices=33          | slices: must be between 1 and 32 (got '33')
            slices=0           | slices: must be between 1 and 32 (got '0')
            slice=-1&slices=4  | slice: must be between 0 and 31 (got '-1')
            slice=4&slices=4   | slice: must be between 0 and 3 for slices=4 (got '4')
            slices=two         | slices: 'two' is not a whole number
            """)
    void answersABadSliceWith400ProblemNamingTheRange(String query, String detail) {
        Response response = get(path + "?latencyMs=0&" + query);

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.contentType()).startsWith(PROBLEM_JSON);
        assertThat(response.json().get("type").asString()).isEqualTo("https://fanout-lab.dev/problems/bad-parameter");
        assertThat(response.json().get("detail").asString()).isEqualTo(detail);
    }

    /** A mistyped knob is refused, not served with the default (gh-23 item 6); {@code {path}/{id}} takes no slice. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            ?latencyMs=0&latencyms=2000      | latencyms: {unknown} (did you mean latencyMs?); {knobs}, slice, slices]
            /no-such-id?latencyMs=0&slices=2 | slices: {unknown}; {knobs}]
            """)
    void answersAnUnknownParameterWith400ProblemNamingTheKnownOnes(String pathAndQuery, String detail) {
        Response response = get(path + pathAndQuery);

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.contentType()).startsWith(PROBLEM_JSON);
        assertThat(response.json().get("type").asString()).isEqualTo("https://fanout-lab.dev/problems/bad-parameter");
        assertThat(response.json().get("detail").asString()).isEqualTo(detail
                .replace("{unknown}", "not a parameter of this endpoint").replace("{knobs}", "it takes [latencyMs,"
                        + " jitterMs, errorRate, errorStatus, tailRate, tailMs, closeRate, dribbleMs, faultTarget"));
    }

    @Test
    void answersAnUnknownIdWith404Problem() {
        Response response = get(path + "/no-such-id?latencyMs=0");

        assertThat(response.status()).isEqualTo(404);
        assertThat(response.contentType()).startsWith(PROBLEM_JSON);
        assertThat(response.json().get("type").asString()).isEqualTo("https://fanout-lab.dev/problems/unknown-id");
        assertThat(response.json().get("detail").asString())
                .isEqualTo("No item has id 'no-such-id'; GET " + path + " lists them all.");
    }

    @Test
    void answersAnUnknownPathWith404Problem() {
        Response response = get("/no/such/path");

        assertThat(response.status()).isEqualTo(404);
        assertThat(response.contentType()).startsWith(PROBLEM_JSON);
    }

    @Test
    void takesTheDefault200MsLatencyWhenNoneIsAsked() {
        assertThat(get(path).millis()).isGreaterThanOrEqualTo(200);
        assertThat(get(path + "/" + catalogue().get(0).get("id").asString()).millis()).isGreaterThanOrEqualTo(200);
    }

    @Test
    void takesTheLatencyTheCallerAsksFor() {
        assertThat(get(path + "?latencyMs=450").millis()).isGreaterThanOrEqualTo(450);
    }

    @Test
    void jitteredRequestsTakeAtLeastTheAskedLatency() {
        List<Long> millis = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            Response response = get(path + "?latencyMs=50&jitterMs=100");
            assertThat(response.status()).isEqualTo(200);
            millis.add(response.millis());
        }

        // the upper bound is a property of the delay itself (SimulationDelayTest); over HTTP on a busy 2-core CI
        // machine a cold request can take far longer than its delay, so only the lower bound is asserted here
        assertThat(millis).allSatisfy(ms -> assertThat(ms).isGreaterThanOrEqualTo(50L));
    }

    /**
     * Rejected with the limit in the detail: a bad knob never becomes a silent default (that would answer 200). A
     * range and a conversion failure show each service's wiring; every knob's limit: orders-service's
     * DownstreamFaultsTest.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            latencyMs=60001  | latencyMs: must be less than or equal to 60000 (got '60001')
            latencyMs=abc    | latencyMs: 'abc' is not a whole number
            """)
    void answersABadLatencyWith400ProblemNamingTheLimits(String query, String detail) {
        Response response = get(path + "?" + query);

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.contentType()).startsWith(PROBLEM_JSON);
        assertThat(response.json().get("type").asString()).isEqualTo("https://fanout-lab.dev/problems/bad-parameter");
        assertThat(response.json().get("detail").asString()).isEqualTo(detail);
    }

    /**
     * The actuator answers on the management port only (management.server.port): a scrape costs CPU and
     * {@code /info} shows the knobs, so neither is for the public port. The probes' groups stay on the public port.
     */
    @ParameterizedTest
    @ValueSource(strings = {"/actuator/prometheus", "/actuator/info", "/actuator/health"})
    void servesTheActuatorOnTheManagementPortOnly(String endpoint) {
        assertThat(get(port, endpoint).status()).as("%s on the public port %d", endpoint, port).isEqualTo(404);
        assertThat(get(managementPort, endpoint).status()).as("%s on the management port %d", endpoint, managementPort)
                .isEqualTo(200);
    }

    /** Kubernetes' probes ask the public port, so that they fail when it stops serving (docs/knobs.md, "Ports"). */
    @ParameterizedTest
    @ValueSource(strings = {"/livez", "/readyz"})
    void answersTheProbesOnThePublicPort(String probe) {
        assertThat(get(probe).status()).isEqualTo(200);
    }

    /** @return this service's {@code classpath:catalogue.json}, as the service reads it */
    private static JsonNode catalogue() {
        try (InputStream in = new ClassPathResource("catalogue.json").getInputStream()) {
            return JSON.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Response get(String pathAndQuery) {
        return get(port, pathAndQuery);
    }

    private static Response get(int port, String pathAndQuery) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + pathAndQuery)).build();
        long start = System.nanoTime();
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            return new Response(response, Duration.ofNanos(System.nanoTime() - start));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private record Response(HttpResponse<String> response, Duration elapsed) {

        int status() {
            return response.statusCode();
        }

        String contentType() {
            return response.headers().firstValue("Content-Type").orElse("");
        }

        String body() {
            return response.body();
        }

        JsonNode json() {
            return JSON.readTree(response.body());
        }

        long millis() {
            return elapsed.toMillis();
        }
    }
}
