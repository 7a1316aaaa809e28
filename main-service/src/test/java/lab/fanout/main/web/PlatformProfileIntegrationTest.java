package lab.fanout.main.web;

import io.micrometer.core.instrument.MeterRegistry;
import lab.fanout.main.strategy.StrategyName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.ActiveProfiles;

import static org.assertj.core.api.Assertions.assertThat;

/** The {@code platform} profile: Tomcat's pooled platform request threads instead of a virtual thread per request. */
@ActiveProfiles("platform")
class PlatformProfileIntegrationTest extends FanoutIntegrationTest {

    @ParameterizedTest
    @EnumSource(StrategyName.class)
    void answersOnAPlatformRequestThreadWithTheSameBodyAsSequential(StrategyName strategy) {
        serveAll(0);

        Answer answer = backoffice(strategy);

        assertThat(answer).hasStatusOk()
                .hasHeader(BackofficeController.STRATEGY_HEADER, strategy.toString())
                .hasHeader(BackofficeController.THREAD_HEADER, "platform");
        assertThat(answer.body()).isEqualTo(backoffice(StrategyName.SEQUENTIAL).body());
    }

    /**
     * Tomcat reports its pool's max threads (the dashboards' platform thread bound, Little's law D) only for a pool it
     * created itself: main-service's own, queue-time recording pool (fanout.admission.expire-queued) makes it -1.
     */
    @Test
    void tomcatReportsTheMaxThreadsOfItsOwnPool(@Autowired MeterRegistry meters) {
        assertThat(meters.get("tomcat.threads.config.max").gauge().value()).isEqualTo(200);
    }
}
