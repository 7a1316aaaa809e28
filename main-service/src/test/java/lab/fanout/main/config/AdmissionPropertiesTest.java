package lab.fanout.main.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/** The overloaded answer's status: 429 by default, 503 on request, anything else stops the start naming the knob. */
class AdmissionPropertiesTest {

    private final ApplicationContextRunner context = new ApplicationContextRunner()
            .withUserConfiguration(Enable.class);

    @Test
    void refusesWith429ByDefault() {
        context.run(started -> assertThat(started.getBean(AdmissionProperties.class).refusalStatus()).isEqualTo(429));
    }

    @Test
    void refusesWith503OnRequest() {
        context.withPropertyValues("fanout.admission.refusal-status=503").run(started ->
                assertThat(started.getBean(AdmissionProperties.class).refusalStatus()).isEqualTo(503));
    }

    @ParameterizedTest
    @ValueSource(strings = {"500", "200", "0"})
    void anotherStatusStopsTheStartNamingTheKnobAndItsValues(String status) {
        context.withPropertyValues("fanout.admission.refusal-status=" + status).run(started -> {
            assertThat(started).hasFailed();
            assertThat(started.getStartupFailure()).rootCause()
                    .hasMessage("fanout.admission.refusal-status must be 429 or 503, was " + status);
        });
    }

    @EnableConfigurationProperties(AdmissionProperties.class)
    static class Enable {
    }
}
