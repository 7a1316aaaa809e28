package lab.fanout.reliability;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import lab.fanout.bench.system.LocalSystem;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Hedged requests (issue 27) measured at the real orders-service: half of its calls take 1.5 s more
 * ({@code tailRate=0.5}), a call unanswered after 200 ms gets a second copy. Whichever copy loses is cancelled by
 * main-service with the strategy's own idiom, and orders-service sees it: the connection closed before it answered
 * ({@code downstream_requests_abandoned_total}), once per loser that main-service counts cancelled
 * ({@code fanout_hedges_losers_cancelled_total}); afterwards no pooled connection is leased.
 * <p>
 * Warm, the copies answer 1.5 s apart or more, so a loser cannot answer before its cancel reaches it; cold (the
 * first hedge of a JVM, a class loaded on the way) a fast call can take over 200 ms and both copies answer together.
 * Such a dead heat is counted apart ({@code fanout_hedges_losers_answered_total}), so every hedge sent ends one way
 * or the other. A loser ends after its request was answered (the cancel runs on another thread), and the downstream
 * counts the abandoned call when its simulated work ends: both are awaited, not read at once.
 */
class HedgedLosersIT {

    private static final int REQUESTS = 10;
    private static final int WARM_UP = 4;
    private static final String ORDERS = "downstream=\"orders-service\"";

    private final HttpClient http = HttpClient.newHttpClient();

    @ParameterizedTest
    @ValueSource(strings = {"completableFutureWithThreadTaskExecutor", "completableFutureWithVirtualTaskExecutor",
            "scopeFork", "reactive"})
    void everyCancelledLoserIsSeenAbandonedByTheDownstream(String strategy) throws Exception {
        LocalSystem system = RunningServices.get();
        URI main = system.managementUrl("main-service");
        URI orders = system.managementUrl("orders-service");
        String losers = ORDERS + ",strategy=\"" + strategy + "\"";
        for (int i = 0; i < WARM_UP; i++) {
            hedgedRequest(system, strategy);
        }
        // no call of this or an earlier test still runs at orders-service: its abandoned count is final
        awaitQuiet(main, orders);
        double abandonedBefore = Metrics.sum(orders, "downstream_requests_abandoned_total", "");
        double cancelledBefore = Metrics.sum(main, "fanout_hedges_losers_cancelled_total", losers);
        double answeredBefore = Metrics.sum(main, "fanout_hedges_losers_answered_total", losers);
        double sentBefore = Metrics.sum(main, "fanout_hedges_sent_total", losers);

        for (int i = 0; i < REQUESTS; i++) {
            hedgedRequest(system, strategy);
        }

        awaitQuiet(main, orders);
        double sent = Metrics.sum(main, "fanout_hedges_sent_total", losers) - sentBefore;
        double cancelled = Metrics.sum(main, "fanout_hedges_losers_cancelled_total", losers) - cancelledBefore;
        double answered = Metrics.sum(main, "fanout_hedges_losers_answered_total", losers) - answeredBefore;
        // no hedge in 10 requests has a probability of 0.5^10, about 0.1 %
        assertThat(sent).as("hedges sent").isBetween(1.0, (double) REQUESTS);
        assertThat(cancelled + answered).as("losers cancelled (%s) or answered (%s): one per hedge sent",
                cancelled, answered).isEqualTo(sent);
        assertThat(cancelled).as("losers cancelled").isPositive();
        // the gauge drops when the simulated work ends, an instant before the abandoned call is counted
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                assertThat(Metrics.sum(orders, "downstream_requests_abandoned_total", "") - abandonedBefore)
                        .as("losers orders-service saw abandoned").isEqualTo(cancelled));
    }

    private void hedgedRequest(LocalSystem system, String strategy) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(system.mainBaseUrl().resolve(
                "/backoffice/api/v1/backoffice/orders?concurrency=" + strategy + "&latencyMs=50"
                        + "&faultTarget=orders&tailRate=0.5&tailMs=1500&hedgeAfterMs=200")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    }

    /** Waits until orders-service serves no call and main-service leases no pooled connection (both pools). */
    private static void awaitQuiet(URI main, URI orders) {
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
            assertThat(Metrics.sum(orders, "downstream_requests_in_flight", "")).as("orders-service in flight").isZero();
            assertThat(Metrics.sum(main, "httpcomponents_httpclient_pool_total_connections", "state=\"leased\""))
                    .as("pooled connections leased, both pools").isZero();
        });
    }
}
