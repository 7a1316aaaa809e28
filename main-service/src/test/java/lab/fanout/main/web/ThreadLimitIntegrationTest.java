package lab.fanout.main.web;

import lab.fanout.main.client.Downstream;
import lab.fanout.main.strategy.LimitedPlatformThreads;
import lab.fanout.main.strategy.StrategyName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The thread ceiling ends in a clear answer (gh-23 item 3): when the thread-per-task strategy cannot start a platform
 * thread for a call ({@link LimitedPlatformThreads}: at most 2 alive, and a request makes 3 calls), the request gets
 * 503 {@code thread-limit} at once, the calls already started are cancelled, no pooled connection stays leased, and
 * main-service goes on serving, the other strategies and later thread-per-task requests alike.
 */
@Import(LimitedPlatformThreads.class)
class ThreadLimitIntegrationTest extends FanoutIntegrationTest {

    /** The started calls' downstream latency: the answer must not wait for it. */
    private static final int SLOW_MS = 3000;

    /** Hedged too: each started call's hedge is cancelled, its first attempt and any second not yet sent. */
    @ParameterizedTest
    @ValueSource(strings = {"", "&hedgeAfterMs=1000"})
    void answers503NamingTheCauseCancelsTheStartedCallsAndLeavesNothingLeased(String hedging) {
        serveAll(SLOW_MS);

        Answer answer = backoffice("concurrency=" + StrategyName.THREAD_PER_TASK + hedging);

        assertProblem(answer, HttpStatus.SERVICE_UNAVAILABLE, "thread-limit", StrategyName.THREAD_PER_TASK,
                Downstream.values());
        assertThat(answer).bodyJson().extractingPath("$.detail").asString()
                .contains("unable to create native thread");
        assertThat(answer.millis()).as("the started calls are cancelled, not awaited").isLessThan(SLOW_MS / 2);
        assertThat(leased()).as("pooled connections leased once the request is answered").isZero();
        assertNothingLeftBehind();
    }

    @Test
    void theOtherStrategiesAndLaterRequestsAreServed() {
        serveAll(SLOW_MS);
        assertThat(backoffice(StrategyName.THREAD_PER_TASK)).hasStatus(HttpStatus.SERVICE_UNAVAILABLE);

        serveAll(0);
        for (StrategyName strategy : StrategyName.values()) {
            if (strategy != StrategyName.THREAD_PER_TASK) {
                assertThat(backoffice(strategy)).as(strategy.toString()).hasStatusOk();
            }
        }
        LimitedPlatformThreads.limit(3);
        try {
            assertThat(backoffice(StrategyName.THREAD_PER_TASK)).as("with room for its three threads").hasStatusOk();
        } finally {
            LimitedPlatformThreads.reset();
        }
    }
}
