package lab.fanout.main.config;

import java.time.Duration;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/** The bounded pool's knobs: their defaults, and a value out of range stops the start naming the property. */
class BoundedPoolPropertiesTest {

    private final ApplicationContextRunner context = new ApplicationContextRunner()
            .withUserConfiguration(Enable.class);

    @Test
    void defaultsToTomcatsThreadsAndAQueueAsLong() {
        context.run(started -> assertThat(started.getBean(BoundedPoolProperties.class))
                .isEqualTo(new BoundedPoolProperties(200, 200, Duration.ofSeconds(1))));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "fanout.bounded-pool.threads=0      | must be greater than 0",
            "fanout.bounded-pool.threads=10001  | must be at most 10000",
            "fanout.bounded-pool.queue=-1       | must be greater than 0",
            "fanout.bounded-pool.queue=100001   | must be at most 100000"})
    void aValueOutOfRangeStopsTheStartNamingIt(String property, String reason) {
        context.withPropertyValues(property).run(started -> {
            assertThat(started).hasFailed();
            assertThat(started.getStartupFailure()).rootCause().hasMessageContaining(property.split("=")[0]
                    .substring("fanout.bounded-pool.".length())).hasMessageContaining(reason);
        });
    }

    @EnableConfigurationProperties(BoundedPoolProperties.class)
    static class Enable {
    }
}
