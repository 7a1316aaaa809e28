package lab.fanout.main.web;

import org.springframework.test.context.ActiveProfiles;

/**
 * The contract on the {@code netty} profile: every test of {@link PinningIntegrationTest} (pinning (synchronized
 * and native)), on Reactor Netty.
 */
@ActiveProfiles(value = "netty", inheritProfiles = false)
class NettyPinningIntegrationTest extends PinningIntegrationTest {
}
