package lab.fanout.main.web;

import org.springframework.test.context.ActiveProfiles;

/**
 * The contract on the {@code netty} profile: every test of {@link PoolExhaustedIntegrationTest} (an exhausted
 * connection pool), on Reactor Netty with the shared profile too.
 */
@ActiveProfiles(value = {"netty", "shared"}, inheritProfiles = false)
class NettyPoolExhaustedIntegrationTest extends PoolExhaustedIntegrationTest {
}
