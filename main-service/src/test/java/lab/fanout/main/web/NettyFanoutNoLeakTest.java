package lab.fanout.main.web;

import org.springframework.test.context.ActiveProfiles;

/**
 * The contract on the {@code netty} profile: every test of {@link FanoutNoLeakTest} (nothing left behind), on
 * Reactor Netty.
 */
@ActiveProfiles(value = "netty", inheritProfiles = false)
class NettyFanoutNoLeakTest extends FanoutNoLeakTest {
}
