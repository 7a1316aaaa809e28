package lab.fanout.reliability;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import lab.fanout.bench.system.LocalSystem;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What becomes of the sibling calls when one call fails, measured at the real downstreams: orders fails at once
 * ({@code errorRate=1}, a failure skips the latency) while products and accounts take 3 s. StructuredTaskScope
 * cancels the siblings (the downstreams count them abandoned) and answers at once, and so does reactive's
 * {@code Mono.zip}. For both, a sibling cancelled before its request went out (its thread not yet run, or still
 * leasing or opening a connection: orders fails within milliseconds) never reaches its downstream, so the check is
 * that every sibling that arrives is abandoned, and none answered; the CompletableFuture strategies
 * wait for both siblings and answer after them; sequential never calls them. The strategies are main-service's own
 * list (StrategyName, as its 400 for an unknown {@code concurrency} names them; its Boot jar lends this module no
 * classes), so a new strategy is checked too, by default as one that waits for its siblings.
 */
class SiblingCallsFaultsIT {

    private static final int SIBLING_MS = 3000;
    private static final List<String> SIBLINGS = List.of("products-service", "accounts-service");

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /** @return every strategy main-service knows, read from its 400 for an unknown one ("... is not one of [a, b]") */
    static List<String> strategies() throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(RunningServices.get().mainBaseUrl().resolve(
                "/backoffice/api/v1/backoffice/orders?concurrency=none")).build(), HttpResponse.BodyHandlers.ofString());
        Matcher names = Pattern.compile("is not one of \\[([^\\]]+)]").matcher(response.body());
        assertThat(names.find()).as("main-service's 400 names its strategies: %s", response.body()).isTrue();
        List<String> strategies = Arrays.stream(names.group(1).split(",")).map(String::strip).toList();
        assertThat(strategies).as("strategies").contains("sequential", "scopeFork", "reactive");
        return strategies;
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void siblingsOfAFailedCall(String strategy) throws Exception {
        LocalSystem system = RunningServices.get();
        double abandonedBefore = abandoned(system);
        double siblingCallsBefore = siblingCalls(system);

        long start = System.nanoTime();
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(system.mainBaseUrl().resolve(
                "/backoffice/api/v1/backoffice/orders?concurrency=" + strategy + "&latencyMs=" + SIBLING_MS
                        + "&faultTarget=orders&errorRate=1")).build(), HttpResponse.BodyHandlers.ofString());
        Duration timeToError = Duration.ofNanos(System.nanoTime() - start);

        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(response.body()).contains("\"downstream\":\"orders-service\"");
        switch (strategy) {
            case "sequential" -> {
                assertThat(timeToError).isLessThan(Duration.ofMillis(SIBLING_MS - 1000));
                // none, for as long as a sibling call, had one been made, would take to end
                await().during(Duration.ofMillis(SIBLING_MS)).atMost(Duration.ofMillis(SIBLING_MS + 5000))
                        .until(() -> siblingCalls(system) == siblingCallsBefore);
            }
            case "scopeFork", "reactive" -> {
                assertThat(timeToError).isLessThan(Duration.ofMillis(SIBLING_MS - 1000));
                // an answered sibling counts a call and no abandonment (an abandoned one counts its abandonment first):
                // none may, for as long as an uncancelled sibling would take to answer
                await().during(Duration.ofMillis(SIBLING_MS + 1000)).atMost(Duration.ofMillis(SIBLING_MS + 6000))
                        .until(() -> siblingCalls(system) - siblingCallsBefore <= abandoned(system) - abandonedBefore);
                // each sibling that arrived is counted abandoned when its work ends; an answered one never is
                await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(abandoned(system) - abandonedBefore)
                        .as("siblings abandoned = sibling calls that reached a downstream")
                        .isEqualTo(siblingCalls(system) - siblingCallsBefore));
                assertThat(siblingCalls(system) - siblingCallsBefore).as("sibling calls").isBetween(0.0, 2.0);
            }
            default -> {
                assertThat(timeToError).isGreaterThanOrEqualTo(Duration.ofMillis(SIBLING_MS));
                await().atMost(Duration.ofSeconds(15)).until(() -> siblingCalls(system) == siblingCallsBefore + 2);
                assertThat(abandoned(system)).as("siblings abandoned").isEqualTo(abandonedBefore);
            }
        }
    }

    private static double abandoned(LocalSystem system) {
        return SIBLINGS.stream().mapToDouble(s -> Metrics.sum(url(system, s), "downstream_requests_abandoned_total", ""))
                .sum();
    }

    /** @return the siblings' finished catalogue requests (Micrometer records a request when it ends) */
    private static double siblingCalls(LocalSystem system) {
        return SIBLINGS.stream().mapToDouble(s -> Metrics.sum(url(system, s), "http_server_requests_seconds_count",
                "uri=\"" + RunningServices.path(s) + "\"")).sum();
    }

    /** @return where the service's metrics are: its management port */
    private static URI url(LocalSystem system, String service) {
        return system.managementUrl(service);
    }
}
