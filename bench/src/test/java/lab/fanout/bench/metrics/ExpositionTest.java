package lab.fanout.bench.metrics;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ExpositionTest {

    static final String TEXT = """
            # HELP jvm_threads_live_threads The current number of live threads
            # TYPE jvm_threads_live_threads gauge
            jvm_threads_live_threads{application="main-service"} 18.0
            jvm_threads_virtual_live_threads{application="main-service",scheduling_status="mounted"} 2.0
            jvm_threads_virtual_live_threads{application="main-service",scheduling_status="queued"} 5.0
            httpcomponents_httpclient_pool_total_connections{httpclient="downstream",state="available"} 7.0
            httpcomponents_httpclient_pool_total_connections{httpclient="downstream",state="leased"} 42.0
            process_cpu_time_ns_total{application="main-service"} 1.69E10
            process_cpu_usage{application="main-service"} NaN
            """;

    @Test
    void sumsOverTheLabelsNotAskedFor() {
        Exposition e = Exposition.parse(TEXT);
        assertThat(e.sum("jvm_threads_live_threads")).hasValue(18.0);
        assertThat(e.sum("jvm_threads_virtual_live_threads")).hasValue(7.0);
        assertThat(e.sum("httpcomponents_httpclient_pool_total_connections", Map.of("state", "leased"))).hasValue(42.0);
        assertThat(e.sum("process_cpu_time_ns_total")).hasValue(1.69e10);
        assertThat(e.sum("process_cpu_usage").getAsDouble()).isNaN();
    }

    @Test
    void anAbsentMetricIsEmptyNeverZero() {
        Exposition e = Exposition.parse(TEXT);
        assertThat(e.sum("httpcomponents_httpclient_pool_total_pending")).isEmpty();
        assertThat(e.sum("httpcomponents_httpclient_pool_total_connections", Map.of("state", "pending"))).isEmpty();
    }
}
