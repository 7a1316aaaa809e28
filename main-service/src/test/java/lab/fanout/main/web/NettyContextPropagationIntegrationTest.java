package lab.fanout.main.web;

import org.springframework.test.context.ActiveProfiles;

/**
 * The {@code netty} profile: every test of {@link ContextPropagationIntegrationTest} against main-service on Spring
 * WebFlux, where the trace arrives in the Reactor context and the blocking strategies run on a virtual thread of
 * their own.
 */
@ActiveProfiles("netty")
class NettyContextPropagationIntegrationTest extends ContextPropagationIntegrationTest {
}
