package lab.fanout.main.web;

import lab.fanout.main.strategy.StrategyName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

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
}
