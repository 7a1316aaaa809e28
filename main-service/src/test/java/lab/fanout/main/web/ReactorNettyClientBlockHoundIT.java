package lab.fanout.main.web;

import org.springframework.test.context.TestPropertySource;

/**
 * Every check of {@link NettyEventLoopBlockHoundIT} with the reactive strategy on Reactor Netty's client
 * ({@code fanout.reactive.client=reactor-netty}), whose calls run on the server's own event loops: its pool, connects,
 * reads and decoding there block no loop either. In the same JVM as that test (failsafe's {@code blockhound}
 * execution), with the same BlockHound installation.
 */
@TestPropertySource(properties = "fanout.reactive.client=reactor-netty")
class ReactorNettyClientBlockHoundIT extends NettyEventLoopBlockHoundIT {
}
