package lab.fanout.main.web;

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

/** A downstream slower than the per-call response timeout, with plenty of the request's deadline left: 504. */
@TestPropertySource(properties = {"fanout.response-timeout=500ms", "fanout.deadline=5s"})
class ResponseTimeoutIntegrationTest extends FanoutIntegrationTest {

    private static final int SLOW_MS = 10_000;   // far beyond what is checked: a busy machine has room

    @AfterEach
    void leavesNoConnectionOrThreadBehind() {
        assertNothingLeftBehind();
    }

    @ParameterizedTest
    @EnumSource(StrategyName.class)
    void answers504DownstreamTimeoutNamingTheServiceThatDidNotAnswerInTime(StrategyName strategy) {
        serve(ORDERS, 0);
        serve(PRODUCTS, SLOW_MS);
        serve(ACCOUNTS, 0);

        Answer answer = backoffice(strategy);

        assertProblem(answer, HttpStatus.GATEWAY_TIMEOUT, "downstream-timeout", strategy, PRODUCTS);
        assertThat(answer.millis()).as("cut at the 500 ms response timeout, not after the downstream's 10 s")
                .isLessThan(SLOW_MS);
    }

    /**
     * The headers come in time, then a read of the body waits longer than the response timeout (WireMock sends two
     * chunks over 2 s: a gap of about 1 s, twice the 500 ms timeout). Still the downstream's
     * timeout: it used to read as 502 "sent a body that is not its catalogue", because a failure while JSON is
     * parsed arrives wrapped in the converter's exception.
     */
    @ParameterizedTest
    @EnumSource(StrategyName.class)
    void answers504DownstreamTimeoutWhenTheBodyStallsLongerThanTheResponseTimeout(StrategyName strategy) {
        serve(ORDERS, 0);
        answer(PRODUCTS, okJson(catalogue(PRODUCTS)).withChunkedDribbleDelay(2, 2000));
        serve(ACCOUNTS, 0);

        assertProblem(backoffice(strategy), HttpStatus.GATEWAY_TIMEOUT, "downstream-timeout", strategy, PRODUCTS);
    }
}
