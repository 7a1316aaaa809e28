package lab.fanout.main.web;

import org.springframework.test.context.ActiveProfiles;

/**
 * The contract on the {@code netty} profile: every test of {@link DeadlineIntegrationTest} (the per-request
 * deadline (504s, cancelled calls)), on Reactor Netty.
 */
@ActiveProfiles(value = "netty", inheritProfiles = false)
class NettyDeadlineIntegrationTest extends DeadlineIntegrationTest {
}
