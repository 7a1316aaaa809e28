package lab.fanout.main.config;

import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/** How the pool's per-route limit follows its total unless set (gh-15 item 1: one slow downstream, not the pool). */
class FanoutPropertiesTest {

    @Test
    void perRouteIsAThirdOfTheTotalRoundedUpUnlessSet() {
        assertThat(bind(Map.of()).pool().maxPerRoute()).isEqualTo(167);
        assertThat(bind(Map.of("fanout.pool.max-total", "2000")).pool().maxPerRoute()).isEqualTo(667);
        assertThat(bind(Map.of("fanout.pool.max-total", "2000", "fanout.pool.max-per-route", "2000")).pool()
                .maxPerRoute()).isEqualTo(2000);
    }

    private static FanoutProperties bind(Map<String, String> properties) {
        return new Binder(new MapConfigurationPropertySource(properties)).bindOrCreate("fanout", FanoutProperties.class);
    }
}
