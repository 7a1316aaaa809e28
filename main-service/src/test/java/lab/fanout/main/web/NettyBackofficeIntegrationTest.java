package lab.fanout.main.web;

import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import lab.fanout.main.LiveThreads;
import lab.fanout.main.strategy.StrategyName;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.reactor.netty.NettyWebServer;
import org.springframework.boot.web.server.reactive.context.ReactiveWebServerApplicationContext;
import org.springframework.test.context.ActiveProfiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The {@code netty} profile: main-service on Spring WebFlux and Reactor Netty answers as on Tomcat, every test of
 * {@link BackofficeIntegrationTest} run again against it.
 */
@ActiveProfiles("netty")
class NettyBackofficeIntegrationTest extends BackofficeIntegrationTest {

    /** Tomcat is on the classpath too (the other profiles): the profile must pick Reactor Netty, not Tomcat's adapter. */
    @Test
    void servesOnReactorNetty(@Autowired ReactiveWebServerApplicationContext context) {
        assertThat(context.getWebServer()).isInstanceOf(NettyWebServer.class);
        // accepting on a selector thread of its own (WebFluxServerConfig), not on the loops that serve
        assertThat(LiveThreads.matching("reactor-http-select-")).as("Reactor Netty's accepting thread").isNotEmpty();
    }

    /**
     * The same meter and tags as on Tomcat, so that dashboards and the bench read every server alike: this request's
     * strategy and width counted under the endpoint's route template, and no other strategy's series moved.
     */
    @Test
    void countsTheRequestInHttpServerRequestsByStrategyAndRoute(@Autowired MeterRegistry registry) {
        serveAll(0);
        long before = count(registry, StrategyName.SCOPE_FORK);
        long othersBefore = count(registry, StrategyName.SEQUENTIAL);

        assertThat(backoffice("concurrency=scopeFork&width=2")).hasStatusOk();

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->   // recorded as the answer completes
                assertThat(count(registry, StrategyName.SCOPE_FORK)).isEqualTo(before + 1));
        assertThat(registry.find("http.server.requests").tags("strategy", "scopeFork", "width", "2", "uri", ENDPOINT,
                "status", "200").timer()).isNotNull();
        assertThat(count(registry, StrategyName.SEQUENTIAL)).isEqualTo(othersBefore);
    }

    private static long count(MeterRegistry registry, StrategyName strategy) {
        return registry.find("http.server.requests").tag("strategy", strategy.toString()).timers().stream()
                .mapToLong(Timer::count).sum();
    }

    /** The reactive strategy runs on the event loop (a platform thread); the blocking ones on a virtual thread each. */
    @Override
    String fanoutThread(StrategyName strategy) {
        return strategy == StrategyName.REACTIVE ? "platform" : "virtual";
    }
}
