package lab.fanout.bench.system;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What the bench reads from a service's {@code /actuator/info} knobs, and what it makes of a missing one. */
class ServiceInfoTest {

    static final String MAIN = """
            {"app": {"name": "x"},
             "knobs": {"runtime": {"profiles": ["platform"], "availableProcessors": 2, "virtualRequestThreads": false,
                                   "tomcatThreadsMax": 10, "tomcatMaxConnections": 20000, "commonPoolParallelism": 1,
                                   "carrierParallelism": 2, "carrierMaxPoolSize": 256, "carrierMinRunnable": 1,
                                   "garbageCollectors": ["G1 Young Generation", "G1 Old Generation"],
                                   "maxHeapBytes": 2082471936, "jvmInputArguments": ["--enable-preview", "-Dx=1"]},
                       "fanout": {"pool": {"maxTotal": 500, "maxPerRoute": 500, "acquireTimeout": "PT5S"},
                                  "deadline": "PT10S", "reactive": {"client": "httpclient5"}},
                       "fanout.bounded-pool": {"threads": 50, "queue": 100, "retryAfter": "PT1S"},
                       "simulation": {"requestKnobs": false}}}""";

    @Test
    void readsMainServiceKnobs() {
        ServiceInfo info = ServiceInfo.parse(MAIN);
        assertThat(info.present()).isTrue();
        assertThat(info.profile()).isEqualTo("platform");
        assertThat(info.virtualRequestThreads()).isFalse();
        assertThat(info.tomcatThreads()).isEqualTo(10);
        assertThat(info.commonPoolParallelism()).isEqualTo(1);
        assertThat(info.carrierParallelism()).isEqualTo(2);
        assertThat(info.carrierMaxPoolSize()).isEqualTo(256);
        assertThat(info.carrierMinRunnable()).isEqualTo(1);
        assertThat(info.garbageCollectors()).containsExactly("G1 Young Generation", "G1 Old Generation");
        assertThat(info.maxHeapBytes()).isEqualTo(2082471936L);
        assertThat(info.jvmInputArguments()).containsExactly("--enable-preview", "-Dx=1");
        assertThat(info.poolMaxTotal()).isEqualTo(500);
        assertThat(info.poolMaxPerRoute()).isEqualTo(500);
        assertThat(info.latencyMs()).isNull();
        assertThat(info.availableProcessors()).isEqualTo(2);
        assertThat(info.requestKnobs()).isFalse();
        assertThat(info.boundedPoolThreads()).isEqualTo(50);
        assertThat(info.deployment(200).boundedPool()).isEqualTo(50);
        assertThat(info.reactiveClient()).isEqualTo("httpclient5");
        assertThat(info.deployment(200).reactiveClient()).isEqualTo("httpclient5");
        assertThat(info.summary()).isEqualTo("profile=platform tomcatThreads=10 pool=500/500 commonPoolParallelism=1"
                + " carrierParallelism=2 jvm=[-Dx=1]");
    }

    /** Reactor Netty reports no Tomcat threads: the bench's first netty cell once died here on an unboxed null. */
    @Test
    void aMainServiceOnReactorNettyHasNoTomcatThreads() {
        ServiceInfo info = ServiceInfo.parse(MAIN
                .replace("\"platform\"], ", "\"netty\"], \"webServer\": \"reactor-netty\", ")
                .replace("\"virtualRequestThreads\": false", "\"virtualRequestThreads\": true")
                .replace("\"tomcatThreadsMax\": 10, \"tomcatMaxConnections\": 20000, ", ""));
        assertThat(info.tomcatThreads()).isNull();
        assertThat(info.deployment(200).tomcatThreads()).isNull();
        assertThat(info.deployment(200).virtual()).isTrue();
        assertThat(info.summary()).startsWith("profile=netty (virtual request threads) pool=500/500 ");
    }

    @Test
    void readsADownstreamsLatency() {
        ServiceInfo info = ServiceInfo.parse("""
                {"knobs": {"runtime": {"profiles": ["default"], "virtualRequestThreads": true},
                           "downstream": {"latency": "PT0.2S", "jitter": "PT0S"}}}""");
        assertThat(info.latencyMs()).isEqualTo(200);
        assertThat(info.poolMaxTotal()).isNull();
        assertThat(info.summary()).isEqualTo("latency=200ms");
    }

    /** orders-service names its driver only on R2DBC; a pool without one is JDBC's, no pool the memory store. */
    @Test
    void readsOrdersServicesStoreAndPool() {
        assertThat(ServiceInfo.parse("""
                {"ordersDatabase": {"maximumPoolSize": 5, "driver": "r2dbc"}}""")).satisfies(i -> {
                    assertThat(i.dbPoolSize()).isEqualTo(5);
                    assertThat(i.ordersStore()).isEqualTo("r2dbc");
                });
        assertThat(ServiceInfo.parse("""
                {"ordersDatabase": {"maximumPoolSize": 20}}""").ordersStore()).isEqualTo("postgres");
        assertThat(ServiceInfo.parse("{\"knobs\": {}}").ordersStore()).isNull();
    }

    @Test
    void aServiceWithoutKnobsReadsAsAbsentWithDefaults() {
        ServiceInfo info = ServiceInfo.parse("{}");
        assertThat(info.present()).isFalse();
        assertThat(info.summary()).isEqualTo("(no knobs at /actuator/info)");
        assertThat(info.profile()).isEqualTo("?");
        assertThat(info.virtualRequestThreads()).isFalse();
        assertThat(info.tomcatThreads()).isNull();
        assertThat(info.maxHeapBytes()).isNull();
        assertThat(info.garbageCollectors()).isEqualTo(List.of());
        assertThat(info.jvmInputArguments()).isEmpty();
        assertThat(info.availableProcessors()).isEqualTo(1);
        assertThat(info.requestKnobs()).isTrue();
    }
}
