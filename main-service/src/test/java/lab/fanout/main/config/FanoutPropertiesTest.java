package lab.fanout.main.config;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How the pool's per-route limit follows its total unless set (gh-15 item 1: one slow downstream, not the pool); the
 * reactive strategy's client, httpclient5 unless set, and nothing but the two values it takes.
 */
class FanoutPropertiesTest {

    @Test
    void perRouteIsAThirdOfTheTotalRoundedUpUnlessSet() {
        assertThat(bind(Map.of()).pool().maxPerRoute()).isEqualTo(167);
        assertThat(bind(Map.of("fanout.pool.max-total", "2000")).pool().maxPerRoute()).isEqualTo(667);
        assertThat(bind(Map.of("fanout.pool.max-total", "2000", "fanout.pool.max-per-route", "2000")).pool()
                .maxPerRoute()).isEqualTo(2000);
    }

    @Test
    void theReactiveClientIsReactorNettyUnlessSetToHttpClient5() {
        assertThat(bind(Map.of()).reactive().client()).isEqualTo("reactor-netty");
        assertThat(bind(Map.of("fanout.reactive.client", "httpclient5")).reactive().client())
                .isEqualTo("httpclient5");
    }

    /** As written: {@code @ConditionalOnProperty}, which picks the client's beans, compares the text. */
    @ParameterizedTest
    @ValueSource(strings = {"netty", "REACTOR_NETTY", "httpclient", ""})
    void anotherReactiveClientStopsTheStartNamingTheValidValues(String client) {
        new ApplicationContextRunner().withUserConfiguration(Enable.class)
                .withPropertyValues("fanout.reactive.client=" + client).run(started -> {
                    assertThat(started).hasFailed();
                    assertThat(started.getStartupFailure()).rootCause().hasMessage(
                            "fanout.reactive.client must be httpclient5 or reactor-netty, was " + client);
                });
    }

    @EnableConfigurationProperties(FanoutProperties.class)
    static class Enable {
    }

    private static FanoutProperties bind(Map<String, String> properties) {
        return new Binder(new MapConfigurationPropertySource(properties)).bindOrCreate("fanout", FanoutProperties.class);
    }
}
