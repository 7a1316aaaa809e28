package lab.fanout.main.web;

import lab.fanout.main.client.Downstream;
import lab.fanout.main.strategy.StrategyName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.http.HttpStatus;
import org.springframework.test.context.TestPropertySource;

import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static lab.fanout.main.client.Downstream.ACCOUNTS;
import static lab.fanout.main.client.Downstream.ORDERS;
import static lab.fanout.main.client.Downstream.PRODUCTS;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The request's deadline (850 ms here) bounds the whole fan-out, whatever the per-call response timeout (5 s):
 * 504 {@code deadline-exceeded}, told apart from a single call's {@code downstream-timeout}.
 */
@TestPropertySource(properties = {"fanout.deadline=850ms", "fanout.response-timeout=5s"})
class DeadlineIntegrationTest extends FanoutIntegrationTest {

    private static final int DEADLINE_MS = 850;
    private static final int SLOW_MS = 10_000;   // far beyond what is checked: a busy machine has room

    @AfterEach
    void leavesNoConnectionOrThreadBehind() {
        assertNothingLeftBehind();
    }

    /**
     * The CompletableFuture strategies give up waiting at the deadline but do not interrupt the slow call; it ends
     * by itself, its response timeout having been capped at the deadline, and the check after the test sees it
     * gone.
     */
    @ParameterizedTest
    @EnumSource(StrategyName.class)
    void answers504DeadlineExceededWhenADownstreamOutlastsTheDeadline(StrategyName strategy) {
        serve(ORDERS, SLOW_MS);
        serve(PRODUCTS, 0);
        serve(ACCOUNTS, 0);

        Answer answer = backoffice(strategy);

        assertProblem(answer, HttpStatus.GATEWAY_TIMEOUT, "deadline-exceeded", strategy, blamedForSlowOrders(strategy));
        assertThat(answer).bodyJson().extractingPath("$.detail").asString().contains("deadline of 850 ms");
        assertThat(answer.millis()).as("ended at the deadline, not after the downstream's 10 s")
                .isGreaterThanOrEqualTo(DEADLINE_MS).isLessThan(SLOW_MS);
    }

    /**
     * As above with the stall inside the body: the headers come in time, then a chunk every 300 ms for a minute, each
     * gap inside every read timeout (even one capped at the time left). Only the deadline's alarm ends the call:
     * without it sequential answered after the whole body, and the CompletableFuture strategies answered 504 but left
     * the call running, which the check after the test (5 s) finds. It used to read as 502 "sent a body that is not
     * its catalogue".
     */
    @ParameterizedTest
    @EnumSource(StrategyName.class)
    void answers504DeadlineExceededAndCutsTheCallWhenTheBodyStallsPastTheDeadline(StrategyName strategy) {
        answer(ORDERS, okJson(catalogue(ORDERS)).withChunkedDribbleDelay(200, 60_000));
        serve(PRODUCTS, 0);
        serve(ACCOUNTS, 0);

        Answer answer = backoffice(strategy);

        assertProblem(answer, HttpStatus.GATEWAY_TIMEOUT, "deadline-exceeded", strategy, blamedForSlowOrders(strategy));
        assertThat(answer.millis()).as("ended at the deadline, not with the minute-long body").isLessThan(30_000);
    }

    /**
     * Three calls of 300 ms each fit the 850 ms deadline only when they overlap: sequential (and the common pool
     * with parallelism 1, as on a 2-core machine) runs out of it on the third call.
     */
    @ParameterizedTest
    @EnumSource(StrategyName.class)
    void theDeadlineCoversTheSumOfCallsThatRunOneAfterAnother(StrategyName strategy) {
        serveAll(300);

        Answer answer = backoffice(strategy);

        if (rounds(strategy) == 3) {
            assertProblem(answer, HttpStatus.GATEWAY_TIMEOUT, "deadline-exceeded", strategy, ACCOUNTS);
        } else {
            assertThat(answer).hasStatusOk();
        }
    }

    /**
     * @return orders-service, the slow one; on the common pool with parallelism below 3 the calls queued behind it
     * had not started when the deadline ran out, so the problem may name any of the unanswered services
     */
    private static Downstream[] blamedForSlowOrders(StrategyName strategy) {
        return strategy == StrategyName.COMPLETABLE_FUTURE && rounds(strategy) > 1
                ? Downstream.values() : new Downstream[] {ORDERS};
    }
}
