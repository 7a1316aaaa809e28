package lab.fanout.main.web;

import org.springframework.test.context.ActiveProfiles;

/**
 * The contract on the {@code netty} profile: every test of {@link DownstreamFailureIntegrationTest} (downstream
 * failures (502s, 503s) and their cleanup), on Reactor Netty.
 */
@ActiveProfiles(value = "netty", inheritProfiles = false)
class NettyDownstreamFailureIntegrationTest extends DownstreamFailureIntegrationTest {
}
