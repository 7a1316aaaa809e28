package lab.fanout.main.web;

import org.springframework.test.context.ActiveProfiles;

/**
 * The contract on the {@code netty} profile: every test of {@link HedgingIntegrationTest} (hedged calls), on
 * Reactor Netty.
 */
@ActiveProfiles(value = "netty", inheritProfiles = false)
class NettyHedgingIntegrationTest extends HedgingIntegrationTest {
}
