package lab.fanout.main.web;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.micrometer.core.instrument.MeterRegistry;
import lab.fanout.common.Slice;
import lab.fanout.main.client.Downstream;
import lab.fanout.main.strategy.StrategyName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.exactly;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code width=N}: each downstream's catalogue fetched in N calls, one slice each ({@code ?slice=i&slices=N}, as the
 * downstreams serve it), 3 x N calls per request, and an answer byte for byte the same as at width 1, for every
 * strategy. Out of range: 400 naming the range.
 */
class WidthIntegrationTest extends FanoutIntegrationTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    MeterRegistry registry;

    @ParameterizedTest(name = "{0}, width {1}")
    @CsvSource({
            "sequential, 2", "completableFuture, 3", "completableFutureWithThreadTaskExecutor, 5",
            "completableFutureWithVirtualTaskExecutor, 12", "scopeFork, 32", "reactive, 32", "scopeFork, 1",
            "reactive, 7"})
    void answersTheSameBodyWhateverTheWidthWithWidthCallsToEachDownstream(String strategy, int width) {
        serveAll(0);
        String atWidthOne = backoffice("concurrency=" + strategy).body();
        serveSlices(width);

        Answer answer = backoffice("concurrency=" + strategy + "&width=" + width);

        assertThat(answer).hasStatusOk().hasContentTypeCompatibleWith(MediaType.APPLICATION_JSON);
        assertThat(answer.body()).isEqualTo(atWidthOne);
        for (Downstream downstream : Downstream.values()) {
            if (width == 1) {   // the whole catalogue, as before: no slice parameters
                server(downstream).verify(exactly(2), getRequestedFor(urlPathEqualTo(path(downstream))));
                continue;
            }
            for (int slice = 0; slice < width; slice++) {
                server(downstream).verify(exactly(1), getRequestedFor(urlPathEqualTo(path(downstream)))
                        .withQueryParam("slice", equalTo(String.valueOf(slice)))
                        .withQueryParam("slices", equalTo(String.valueOf(width))));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(StrategyName.class)
    void reportsTheWidthInServerTimingAndTheRequestMetrics(StrategyName strategy) {
        serveSlices(4);

        Answer answer = backoffice("concurrency=" + strategy + "&width=4");

        assertThat(answer).hasStatusOk();
        assertThat(answer.header("Server-Timing")).matches("orders;dur=\\d+\\.\\d;desc=\"slowest of 4 calls\", "
                + "products;dur=\\d+\\.\\d;desc=\"slowest of 4 calls\", accounts;dur=\\d+\\.\\d;desc=\"slowest of 4 calls\", "
                + "total;dur=\\d+\\.\\d");
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->   // on Netty recorded as the answer completes
                assertThat(registry.find("http.server.requests").tag("strategy", strategy.toString()).tag("width", "4")
                        .timer()).as("http.server.requests{strategy=%s,width=4}", strategy).isNotNull());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            width=0     | width: must be between 1 and 32 (got '0')
            width=33    | width: must be between 1 and 32 (got '33')
            width=-1    | width: must be between 1 and 32 (got '-1')
            width=wide  | width: 'wide' is not a whole number
            """)
    void answers400NamingTheRangeOfWidth(String query, String detail) {
        Answer answer = backoffice("concurrency=scopeFork&" + query);

        assertThat(answer).hasStatus(HttpStatus.BAD_REQUEST)
                .hasContentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON);
        assertThat(answer).bodyJson().extractingPath("$.type").isEqualTo(PROBLEMS + "bad-parameter");
        assertThat(answer).bodyJson().extractingPath("$.detail").isEqualTo(detail);
        for (Downstream downstream : Downstream.values()) {
            server(downstream).verify(0, anyRequestedFor(anyUrl()));
        }
    }

    /** Each downstream answers {@code ?slice=i&slices=width} with its catalogue's slice i ({@link Slice}), at once. */
    static void serveSlices(int width) {
        for (Downstream downstream : Downstream.values()) {
            JsonNode items = JSON.readTree(catalogue(downstream));
            for (int i = 0; i < width; i++) {
                Slice slice = new Slice(i, width);
                List<JsonNode> part = new ArrayList<>();
                for (int j = slice.from(items.size()); j < slice.to(items.size()); j++) {
                    part.add(items.get(j));
                }
                ArrayNode array = JSON.createArrayNode().addAll(part);
                server(downstream).stubFor(get(urlPathEqualTo(path(downstream)))
                        .withQueryParam("slice", equalTo(String.valueOf(i)))
                        .withQueryParam("slices", equalTo(String.valueOf(width)))
                        .willReturn(okJson(JSON.writeValueAsString(array))));
            }
        }
    }
}
