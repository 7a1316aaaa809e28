package lab.fanout.systemtests;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PromqlNamesTest {

    @Test
    void findsTheMetricInsideAggregationsFunctionsAndMatchers() {
        assertThat(PromqlNames.of("histogram_quantile(0.99, sum by (le, strategy) "
                + "(rate(http_server_requests_seconds_bucket{application=\"main-service\", uri=~\"/a/{x}\"}[1m])))"))
                .containsExactly("http_server_requests_seconds_bucket");
    }

    @Test
    void findsEveryOperandOfBinaryExpressions() {
        assertThat(PromqlNames.of("(sum(rate(a_total[5m])) or 0 * sum(b)) / on (x) group_left (y) c_bytes > 0.5e3"))
                .containsExactly("a_total", "b", "c_bytes");
    }

    @Test
    void ignoresKeywordsLabelNamesDurationsAndNumbers() {
        assertThat(PromqlNames.of("max without (instance) (x offset 5m) unless count by (application) (y{z!=\"w\"}) * 1e3"))
                .containsExactly("x", "y");
    }
}
