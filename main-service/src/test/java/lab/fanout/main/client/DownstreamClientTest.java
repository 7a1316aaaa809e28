package lab.fanout.main.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import lab.fanout.common.Simulation;
import lab.fanout.common.Slice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.awaitility.Awaitility.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The real {@link DownstreamClient} (pooled HttpClient 5, RestClient) against one WireMock orders-service, without
 * a web server: how a call's failure is classified when the request's deadline is what cut it short.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = "fanout.response-timeout=5s")
class DownstreamClientTest {

    private static final ParameterizedTypeReference<List<CatalogueJson.Order>> ORDERS = new ParameterizedTypeReference<>() { };
    private static final Simulation NO_SIMULATION = new Simulation(null, null);

    @RegisterExtension
    static final WireMockExtension orders = WireMockExtension.newInstance()
            .options(wireMockConfig().dynamicPort()).failOnUnmatchedRequests(true).build();

    @Autowired
    DownstreamClient client;

    @DynamicPropertySource
    static void ordersUrl(DynamicPropertyRegistry registry) {
        registry.add("fanout.downstreams.orders", orders::baseUrl);
    }

    /**
     * The response timeout of a call is capped at the deadline's remaining time; when that capped timeout fires,
     * the caller must read "deadline exceeded", not "the downstream exceeded its 5 s response timeout". Repeated,
     * because it was a race: a timeout rounded down to whole ms fired up to 1 ms before the deadline.
     */
    @Test
    void aTimeoutCutShortByTheDeadlineIsDeadlineExceeded() {
        orders.stubFor(get(urlPathEqualTo("/order/api/v1/orders")).willReturn(okJson("[]").withFixedDelay(1000)));

        List<FanoutException.Kind> kinds = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            Deadline deadline = Deadline.after(Duration.ofMillis(50 + i));
            kinds.add(catchThrowableOfType(FanoutException.class,
                    () -> client.fetch(Downstream.ORDERS, Slice.WHOLE, ORDERS, NO_SIMULATION, deadline, new Exchange())).kind());
        }

        assertThat(kinds).containsOnly(FanoutException.Kind.DEADLINE_EXCEEDED);
    }

    /**
     * scopeFork interrupts the siblings of a failed call; the interrupted virtual thread's socket read fails with
     * "Closed by interrupt". That is a cancellation, not the downstream's failure (it was logged as a WARN per call).
     */
    @Test
    void anInterruptedCallIsCancelledNotFailed() throws Exception {
        orders.stubFor(get(urlPathEqualTo("/order/api/v1/orders")).willReturn(okJson("[]").withFixedDelay(2000)));
        var failure = new CompletableFuture<Throwable>();
        Thread caller = Thread.ofVirtual().start(() -> {
            try {
                client.fetch(Downstream.ORDERS, Slice.WHOLE, ORDERS, NO_SIMULATION, Deadline.after(Duration.ofSeconds(10)),
                        new Exchange());
                failure.complete(null);
            } catch (RuntimeException e) {
                failure.complete(e);
            }
        });
        await().until(() -> !orders.getAllServeEvents().isEmpty());
        caller.interrupt();

        assertThat(failure.get()).isInstanceOfSatisfying(FanoutException.class, e -> {
            assertThat(e.kind()).isEqualTo(FanoutException.Kind.DOWNSTREAM_ERROR);
            assertThat(e.detail()).isEqualTo("The call to orders-service was cancelled");
        });
    }

    @Test
    void aSpentDeadlineFailsWithoutCallingTheDownstream() {
        Deadline spent = Deadline.after(Duration.ZERO);

        FanoutException failure = catchThrowableOfType(FanoutException.class,
                () -> client.fetch(Downstream.ORDERS, Slice.WHOLE, ORDERS, NO_SIMULATION, spent, new Exchange()));

        assertThat(failure.kind()).isEqualTo(FanoutException.Kind.DEADLINE_EXCEEDED);
        assertThat(failure.properties()).containsEntry("downstream", "orders-service");
        orders.verify(0, anyRequestedFor(anyUrl()));
    }
}
