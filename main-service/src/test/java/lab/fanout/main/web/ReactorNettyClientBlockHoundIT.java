package lab.fanout.main.web;

import org.springframework.test.context.TestPropertySource;

/**
 * Every check of {@link NettyEventLoopBlockHoundIT} with the reactive strategy on Reactor Netty's client
 * ({@code fanout.reactive.client=reactor-netty}, the netty profile's default), whose calls run on the server's own
 * event loops: its pool, connects, reads and decoding there block no loop either. In the same JVM as that test
 * (failsafe's {@code blockhound} execution), with the same BlockHound installation, and after it. The other way
 * round (Reactor Netty's context first) HttpClient 5's then caught hundreds of its own {@code reactive-io-N} threads
 * parked in a thread pool's queue (2026-12-06, not yet understood), so the order seen green stays.
 */
@TestPropertySource(properties = "fanout.reactive.client=reactor-netty")
class ReactorNettyClientBlockHoundIT extends NettyEventLoopBlockHoundIT {
}
