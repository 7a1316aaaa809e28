package lab.fanout.main.web;

import org.springframework.test.context.TestPropertySource;

/**
 * Every check of {@link NettyEventLoopBlockHoundIT} with the reactive strategy on HttpClient 5's async client
 * ({@code fanout.reactive.client=httpclient5}, the netty profile's other client; its default is Reactor Netty's),
 * whose calls run on its own I/O threads ({@code reactive-io-N}, marked non-blocking there) and lease their
 * connections on the event loop: neither blocks a loop. In the same JVM as that test (failsafe's {@code blockhound}
 * execution), with the same BlockHound installation.
 */
@TestPropertySource(properties = "fanout.reactive.client=httpclient5")
class HttpClient5ReactiveClientBlockHoundIT extends NettyEventLoopBlockHoundIT {
}
