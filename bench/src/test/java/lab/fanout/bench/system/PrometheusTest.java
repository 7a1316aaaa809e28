package lab.fanout.bench.system;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Which Prometheus drops a scrape whose {@code _count} lines carry exemplars (before 2.43, prometheus#11984). */
class PrometheusTest {

    @Test
    void debian12s242DropsExemplarsOnCountAnd243OnTakesThem() {
        assertThat(Prometheus.before243("prometheus, version 2.42.0+ds (branch: debian/sid, revision: 2.42.0+ds-5)"))
                .isTrue();
        assertThat(Prometheus.before243("prometheus, version 1.8.2 (branch: HEAD)")).isTrue();
        assertThat(Prometheus.before243("prometheus, version 2.43.0 (branch: HEAD)")).isFalse();
        assertThat(Prometheus.before243("prometheus, version 2.53.1 (branch: HEAD)")).isFalse();
        assertThat(Prometheus.before243("prometheus, version 3.5.0 (branch: HEAD)")).isFalse();
        assertThat(Prometheus.before243("no version here")).as("unknown: leave the exemplars on").isFalse();
    }
}
