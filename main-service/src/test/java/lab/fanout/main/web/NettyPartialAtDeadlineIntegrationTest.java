package lab.fanout.main.web;

import org.springframework.test.context.ActiveProfiles;

/** Every test of {@link PartialAtDeadlineIntegrationTest} (onDeadline=partial), on Reactor Netty. */
@ActiveProfiles(value = "netty", inheritProfiles = false)
class NettyPartialAtDeadlineIntegrationTest extends PartialAtDeadlineIntegrationTest {
}
