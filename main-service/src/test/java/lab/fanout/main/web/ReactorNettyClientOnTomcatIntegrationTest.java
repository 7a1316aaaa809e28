package lab.fanout.main.web;

import org.springframework.test.context.ActiveProfiles;

/**
 * Every test of {@link ReactorNettyClientIntegrationTest} on Tomcat with virtual request threads: there the calls run
 * on Reactor Netty's global event loops, the only Netty threads in the process.
 */
@ActiveProfiles(value = "virtual", inheritProfiles = false)
class ReactorNettyClientOnTomcatIntegrationTest extends ReactorNettyClientIntegrationTest {
}
