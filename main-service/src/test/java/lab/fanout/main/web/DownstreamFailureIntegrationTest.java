package lab.fanout.main.web;

import java.time.Duration;

import com.github.tomakehurst.wiremock.http.Fault;
import lab.fanout.main.client.Downstream;
import lab.fanout.main.strategy.StrategyName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.http.HttpStatus;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.exactly;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.serverError;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static lab.fanout.main.client.Downstream.ACCOUNTS;
import static lab.fanout.main.client.Downstream.ORDERS;
import static lab.fanout.main.client.Downstream.PRODUCTS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A failing downstream as the caller sees it: 502 problem+json naming the service, and what each strategy does with
 * the sibling calls of the failed one (docs/strategies.md). After every test, no pooled connection is leased and
 * no fan-out thread is alive once the request and its sibling calls have ended.
 */
class DownstreamFailureIntegrationTest extends FanoutIntegrationTest {

    /** The failing call fails after this long, so that its slow siblings are surely in flight by then. */
    private static final int FAST_FAILURE_MS = 100;
    /** The siblings' latency: far beyond the fast failure, well within the 5 s response timeout. */
    private static final int SLOW_MS = 4000;   // scopeFork must answer in half of it: room for a busy machine
    /**
     * How long after the answer the abandoned calls' connections may take to be back in the pool. Measured (issue 41):
     * reactive's failed call released its own connection up to 28 ms after the caller had the 502 (1 of 30 requests,
     * the test JVM on one core beside 4 stress-ng hogs; 0 ms in the other 29 and in 55 on 2 cores); 1 s is 35 times
     * that, and 3 s short of the siblings' {@value #SLOW_MS} ms, so siblings left running still fail the test.
     */
    private static final Duration RELEASE_BOUND = Duration.ofSeconds(1);

    @AfterEach
    void leavesNoConnectionOrThreadBehind() {
        assertNothingLeftBehind();
    }

    @ParameterizedTest
    @EnumSource(StrategyName.class)
    void answers502NamingTheServiceThatAnswered500(StrategyName strategy) {
        serveAll(0);
        answer(PRODUCTS, serverError());

        Answer answer = backoffice(strategy);

        assertProblem(answer, HttpStatus.BAD_GATEWAY, "downstream-error", strategy, PRODUCTS);
        assertThat(answer).bodyJson().extractingPath("$.detail").isEqualTo("products-service answered 500");
    }

    @ParameterizedTest
    @EnumSource(StrategyName.class)
    void answers502NamingTheServiceThatResetTheConnection(StrategyName strategy) {
        serveAll(0);
        answer(ACCOUNTS, aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER));

        Answer answer = backoffice(strategy);

        assertProblem(answer, HttpStatus.BAD_GATEWAY, "downstream-error", strategy, ACCOUNTS);
        // gh-15 item 3: a fixed, documented text; the Java exception type (SocketException) only in the log
        assertThat(answer).bodyJson().extractingPath("$.detail").isEqualTo("accounts-service reset or broke the connection");
    }

    @ParameterizedTest
    @EnumSource(StrategyName.class)
    void answers502NamingTheServiceThatSentSomethingOtherThanItsCatalogue(StrategyName strategy) {
        serveAll(0);
        answer(ORDERS, okJson("{\"orders\": \"not an array\"}"));

        assertProblem(backoffice(strategy), HttpStatus.BAD_GATEWAY, "downstream-error", strategy, ORDERS);
    }

    @Test
    void sequentialNeverMakesTheCallsAfterAFailedOne() {
        failFastWhileSiblingsAreSlow();

        Answer answer = backoffice(StrategyName.SEQUENTIAL);

        assertProblem(answer, HttpStatus.BAD_GATEWAY, "downstream-error", StrategyName.SEQUENTIAL, ORDERS);
        products.verify(0, getRequestedFor(urlPathEqualTo(path(PRODUCTS))));
        accounts.verify(0, getRequestedFor(urlPathEqualTo(path(ACCOUNTS))));
    }

    /**
     * The point of structured concurrency: the failed call cancels the scope, which interrupts the slow siblings;
     * their virtual threads, blocked in socket reads, close their connections at once. The reactive strategy does the
     * same with no thread: {@code Mono.zip} cancels the siblings, which aborts their async exchanges and closes their
     * connections. The caller gets the 502 about when the failure happened, and every connection is back in its pool
     * within {@link #RELEASE_BOUND} of it, long before the siblings' 4 s (which would still be holding theirs if not
     * cancelled). Not at the answer itself: reactive's failed call gives its own connection back just after the
     * error has left it (ReactiveStrategy), which a busy core can delay past the caller's reading of the pool.
     */
    @ParameterizedTest
    @EnumSource(names = {"SCOPE_FORK", "REACTIVE"})
    void abandonsTheSlowSiblingsAndAnswersAtTheFastFailure(StrategyName strategy) {
        failFastWhileSiblingsAreSlow();

        Answer answer = backoffice(strategy);

        long answered = System.nanoTime();
        await().atMost(RELEASE_BOUND).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(5))
                .untilAsserted(() -> assertThat(leased())
                        .as(() -> "connections still held %d ms after the caller had the answer (bound %d ms)"
                                .formatted((System.nanoTime() - answered) / 1_000_000, RELEASE_BOUND.toMillis()))
                        .isZero());
        assertProblem(answer, HttpStatus.BAD_GATEWAY, "downstream-error", strategy, ORDERS);
        assertThat(answer.millis()).as("answered near the fast failure, not after the slow siblings")
                .isLessThan(SLOW_MS / 2);
        assertEveryDownstreamWasCalledOnce();
    }

    /**
     * The documented cost of {@code CompletableFuture.allOf}: it completes only when every call has, so the request
     * fails only after the slowest sibling has answered (on the common pool with parallelism below 3 the siblings
     * even run one after another: longer still).
     */
    @ParameterizedTest
    @EnumSource(names = {"COMPLETABLE_FUTURE", "THREAD_PER_TASK", "VIRTUAL_THREAD_PER_TASK", "BOUNDED_POOL"})
    void completableFutureStrategiesWaitForTheSlowestSiblingBeforeFailing(StrategyName strategy) {
        failFastWhileSiblingsAreSlow();

        Answer answer = backoffice(strategy);

        assertProblem(answer, HttpStatus.BAD_GATEWAY, "downstream-error", strategy, ORDERS);
        assertThat(answer.millis()).as("waited for the slowest sibling").isGreaterThanOrEqualTo(SLOW_MS);
        assertEveryDownstreamWasCalledOnce();
    }

    /** orders answers 500 after {@value #FAST_FAILURE_MS} ms; products and accounts answer after {@value #SLOW_MS} ms. */
    private static void failFastWhileSiblingsAreSlow() {
        answer(ORDERS, serverError().withFixedDelay(FAST_FAILURE_MS));
        serve(PRODUCTS, SLOW_MS);
        serve(ACCOUNTS, SLOW_MS);
    }

    private static void assertEveryDownstreamWasCalledOnce() {
        for (Downstream downstream : Downstream.values()) {
            server(downstream).verify(exactly(1), getRequestedFor(urlPathEqualTo(path(downstream))));
        }
    }
}
