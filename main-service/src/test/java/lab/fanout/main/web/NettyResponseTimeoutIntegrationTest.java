package lab.fanout.main.web;

import org.springframework.test.context.ActiveProfiles;

/**
 * The contract on the {@code netty} profile: every test of {@link ResponseTimeoutIntegrationTest} (the per-call
 * response timeout), on Reactor Netty.
 */
@ActiveProfiles(value = "netty", inheritProfiles = false)
class NettyResponseTimeoutIntegrationTest extends ResponseTimeoutIntegrationTest {
}
