package lab.fanout.main.web;

import org.springframework.test.context.ActiveProfiles;

/**
 * The contract on the {@code netty} profile: every test of {@link BoundedPoolIntegrationTest} (the bounded pool
 * (bulkhead)), on Reactor Netty.
 */
@ActiveProfiles(value = "netty", inheritProfiles = false)
class NettyBoundedPoolIntegrationTest extends BoundedPoolIntegrationTest {
}
