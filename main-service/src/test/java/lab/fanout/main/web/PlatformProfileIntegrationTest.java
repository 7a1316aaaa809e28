package lab.fanout.main.web;

import lab.fanout.main.admission.QueuedRequests;
import lab.fanout.main.strategy.StrategyName;
import org.apache.coyote.AbstractProtocol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.servlet.context.ServletWebServerApplicationContext;
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
                .hasHeader(Backoffice.STRATEGY_HEADER, strategy.toString())
                .hasHeader(Backoffice.THREAD_HEADER, "platform");
        assertThat(answer.body()).isEqualTo(backoffice(StrategyName.SEQUENTIAL).body());
    }

    /**
     * Tomcat reports its pool's max threads ({@code tomcat_threads_config_max_threads}, the dashboards' platform thread
     * bound) only for a pool it created itself, -1 for one set from outside: the queue-time recording pool
     * (fanout.admission.expire-queued, on by default) must stay Tomcat's own. Read from this context's connector,
     * which the metric reads through JMX (where the test JVM's other contexts' Tomcats also are).
     */
    @Test
    void tomcatReportsTheMaxThreadsOfItsOwnPool(@Autowired ServletWebServerApplicationContext context) {
        var protocol = ((TomcatWebServer) context.getWebServer()).getTomcat().getConnector().getProtocolHandler();
        assertThat(protocol).isInstanceOf(QueuedRequests.Protocol.class);
        assertThat(((AbstractProtocol<?>) protocol).getMaxThreads()).isEqualTo(200);
    }
}
