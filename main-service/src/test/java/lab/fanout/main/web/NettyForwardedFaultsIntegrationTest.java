package lab.fanout.main.web;

import org.springframework.test.context.ActiveProfiles;

/**
 * The contract on the {@code netty} profile: every test of {@link ForwardedFaultsIntegrationTest} (faults
 * forwarded to the downstreams), on Reactor Netty.
 */
@ActiveProfiles(value = "netty", inheritProfiles = false)
class NettyForwardedFaultsIntegrationTest extends ForwardedFaultsIntegrationTest {
}
