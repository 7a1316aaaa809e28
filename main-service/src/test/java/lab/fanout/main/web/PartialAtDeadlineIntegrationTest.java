package lab.fanout.main.web;

import java.time.Duration;
import java.util.Objects;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import lab.fanout.main.strategy.StrategyName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static lab.fanout.main.client.Downstream.ACCOUNTS;
import static lab.fanout.main.client.Downstream.ORDERS;
import static lab.fanout.main.client.Downstream.PRODUCTS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code onDeadline=partial}: at the deadline (850 ms, as in {@link DeadlineIntegrationTest}, so the two share a
 * context) every strategy answers 200 with the catalogues that arrived, {@code X-Fanout-Missing} naming the one that
 * did not, and the late call cancelled: its pooled connection back at once, not after the downstream's 10 s.
 */
@TestPropertySource(properties = {"fanout.deadline=850ms", "fanout.response-timeout=5s"})
class PartialAtDeadlineIntegrationTest extends FanoutIntegrationTest {

    private static final int DEADLINE_MS = 850;
    private static final int SLOW_MS = 10_000;
    /** How soon after the answer the late call's connection must be back: far below the downstream's 10 s. */
    private static final Duration RELEASED_WITHIN = Duration.ofSeconds(1);

    @Autowired
    MeterRegistry registry;

    @AfterEach
    void leavesNoConnectionOrThreadBehind() {
        assertNothingLeftBehind();
    }

    /** Accounts last: on the common pool with parallelism 1 the orders and products calls run before it. */
    @ParameterizedTest
    @EnumSource(StrategyName.class)
    void answers200WithTheOrdersAndProductsAndMissingAccountsWhenAccountsOutlastsTheDeadline(StrategyName strategy) {
        serve(ORDERS, 0);
        serve(PRODUCTS, 0);
        serve(ACCOUNTS, SLOW_MS);
        double partialBefore = partialAnswers(strategy);

        Answer answer = backoffice("concurrency=" + strategy + "&onDeadline=partial");

        assertThat(answer).hasStatusOk().hasHeader(Backoffice.STRATEGY_HEADER, strategy.toString())
                .hasHeader(Backoffice.MISSING_HEADER, "accounts");
        assertThat(partialAnswers(strategy) - partialBefore).as("fanout_answers_partial_total of " + strategy)
                .isEqualTo(1);
        assertThat(answer).bodyJson().extractingPath("$.length()").isEqualTo(12);   // orders-service's catalogue
        assertThat(answer).bodyJson().extractingPath("$[*].account").asArray().as("no account arrived")
                .hasSize(12).containsOnlyNulls();
        assertThat(answer).bodyJson().extractingPath("$[*].items[*].product").asArray().as("every product arrived")
                .isNotEmpty().doesNotContainNull();
        assertThat(answer).bodyJson().extractingPath("$[0].total").asMap().as("totals from the products").isNotEmpty();
        assertThat(answer.millis()).as("answered at the deadline, not after the downstream's 10 s")
                .isGreaterThanOrEqualTo(DEADLINE_MS).isLessThan(SLOW_MS);
        await().atMost(RELEASED_WITHIN).pollInterval(Duration.ofMillis(20)).untilAsserted(() ->
                assertThat(leased()).as("the late call's pooled connection, leased").isZero());
    }

    /**
     * At width 2 the slices that came are kept: accounts' second slice (acc-1003..acc-1005 of 5) outlasts the
     * deadline, so the 3 orders of acc-1001 and acc-1002 keep their account and the other 9 have none.
     */
    @ParameterizedTest
    @EnumSource(StrategyName.class)
    void keepsTheSlicesThatCameAtWidth2(StrategyName strategy) {
        WidthIntegrationTest.serveSlices(2);
        server(ACCOUNTS).stubFor(get(urlPathEqualTo(path(ACCOUNTS))).withQueryParam("slice", equalTo("1"))
                .withQueryParam("slices", equalTo("2")).willReturn(okJson("[]").withFixedDelay(SLOW_MS)));

        Answer answer = backoffice("concurrency=" + strategy + "&onDeadline=partial&width=2");

        assertThat(answer).hasStatusOk().hasHeader(Backoffice.MISSING_HEADER, "accounts");
        assertThat(answer).bodyJson().extractingPath("$[*].account").asArray().hasSize(12)
                .filteredOn(Objects::nonNull).as("orders whose account is in the first slice").hasSize(3);
        assertThat(answer).bodyJson().extractingPath("$[*].items[*].product").asArray().doesNotContainNull();
        await().atMost(RELEASED_WITHIN).pollInterval(Duration.ofMillis(20)).untilAsserted(() ->
                assertThat(leased()).as("the late call's pooled connection, leased").isZero());
    }

    /** A whole answer under {@code partial} is today's: 200, every part, no {@code X-Fanout-Missing}. */
    @ParameterizedTest
    @EnumSource(StrategyName.class)
    void answersAsWithoutItWhenEveryCallIsInTime(StrategyName strategy) {
        serveAll(0);
        double partialBefore = partialAnswers(strategy);

        Answer answer = backoffice("concurrency=" + strategy + "&onDeadline=partial");

        assertThat(answer).hasStatusOk().doesNotContainHeader(Backoffice.MISSING_HEADER);
        assertThat(partialAnswers(strategy)).as("a whole answer is not counted partial").isEqualTo(partialBefore);
        assertThat(answer).bodyJson().extractingPath("$[*].account").asArray().hasSize(12).doesNotContainNull();
    }

    /** @return {@code fanout_answers_partial_total{strategy}} now, 0 before its first partial answer */
    private double partialAnswers(StrategyName strategy) {
        Counter counter = registry.find("fanout.answers.partial").tag("strategy", strategy.toString()).counter();
        return counter == null ? 0 : counter.count();
    }
}
