package lab.fanout.main.web;

import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;

/**
 * The contract on the {@code netty} profile: every test of {@link PoolExhaustedIntegrationTest} (an exhausted
 * connection pool), on Reactor Netty with the shared profile too.
 * <p>
 * The reactive strategy on HttpClient 5's async client ({@code fanout.reactive.client=httpclient5}, not the
 * profile's default), whose pool these checks read; Reactor Netty's client's exhausted pool and cancelled calls are
 * {@link ReactorNettyClientIntegrationTest}'s.
 */
@TestPropertySource(properties = "fanout.reactive.client=httpclient5")
@ActiveProfiles(value = {"netty", "shared"}, inheritProfiles = false)
class NettyPoolExhaustedIntegrationTest extends PoolExhaustedIntegrationTest {
}
