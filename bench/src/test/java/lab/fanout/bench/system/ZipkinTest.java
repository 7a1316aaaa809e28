package lab.fanout.bench.system;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Issue 42, item 2: what ./lab up --with-zipkin gives the services, sends and links, without starting anything. */
class ZipkinTest {

    @Test
    void theServicesGetTheSpansEndpointAndTheSamplingWithinZeroToOne() {
        assertThat(Zipkin.LOCAL.serviceProperties(1.0))
                .containsEntry("management.tracing.export.zipkin.endpoint", "http://127.0.0.1:9411/api/v2/spans")
                .containsEntry("management.tracing.sampling.probability", "1.0");
        assertThat(Zipkin.LOCAL.serviceProperties(0.0)).containsEntry("management.tracing.sampling.probability", "0.0");
        for (double bad : new double[] {-0.1, 1.01, Double.NaN}) {
            assertThatThrownBy(() -> Zipkin.LOCAL.serviceProperties(bad))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be in 0.0..1.0");
        }
    }

    @Test
    void aTraceStartsSampledWithItsKnownIdAndItsLinkOpensThatTrace() {
        String id = Zipkin.newTraceId();
        assertThat(id).matches("[0-9a-f]{32}").isNotEqualTo("0".repeat(32)).isNotEqualTo(Zipkin.newTraceId());
        // W3C: version 00, trace id, parent id (16 hex, not all zero: the id's first half, whose first byte is odd),
        // flags 01 = sampled, which the services record whatever their sampling probability
        assertThat(Zipkin.sampledTraceparent(id)).matches("00-" + id + "-[0-9a-f]{16}-01")
                .doesNotContain("-0000000000000000-");
        assertThat(Zipkin.LOCAL.traceUrl(id)).hasToString("http://127.0.0.1:9411/zipkin/traces/" + id);
    }

    @Test
    void itListensOnLoopbackOnlyWithInMemoryStorage() {
        assertThat(Zipkin.LOCAL.command(Path.of("/repo/bench/target/zipkin/zipkin-server.jar")))
                .contains("-jar", "/repo/bench/target/zipkin/zipkin-server.jar", "--zipkin.storage.type=mem",
                        "--armeria.ports[0].ip=127.0.0.1", "--armeria.ports[0].port=9411");
    }

    @Test
    void aMissingJarSaysHowToBuildIt() {
        assertThatThrownBy(() -> Zipkin.LOCAL.start(Path.of("/nonexistent/zipkin-server.jar"), Path.of("/tmp/z.log"),
                Path.of("/tmp"))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is missing: run ./lab build");
    }

    @Test
    void noZipkinCountsAsNoSpans() {
        // nothing listens on 9411 in a test run, or one that holds no such trace
        assertThat(Zipkin.LOCAL.spanCount(Zipkin.newTraceId())).isZero();
    }
}
