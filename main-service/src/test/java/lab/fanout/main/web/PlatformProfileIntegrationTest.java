package lab.fanout.main.web;

import lab.fanout.main.server.servlet.QueuedRequests;
import lab.fanout.main.strategy.StrategyName;
import org.apache.coyote.AbstractProtocol;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.servlet.context.ServletWebServerApplicationContext;
import org.springframework.test.context.ActiveProfiles;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code platform} profile: Tomcat's pooled platform request threads instead of a virtual thread per request,
 * every test of {@link BackofficeIntegrationTest} run again against it (the contract on the third server model).
 */
@ActiveProfiles("platform")
class PlatformProfileIntegrationTest extends BackofficeIntegrationTest {

    /** Every strategy answers on Tomcat's pooled platform request thread. */
    @Override
    String fanoutThread(StrategyName strategy) {
        return "platform";
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
