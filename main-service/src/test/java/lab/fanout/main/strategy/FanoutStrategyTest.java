package lab.fanout.main.strategy;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import lab.fanout.common.Simulation;
import lab.fanout.main.client.CatalogueJson.Account;
import lab.fanout.main.client.CatalogueJson.Item;
import lab.fanout.main.client.CatalogueJson.Order;
import lab.fanout.main.client.CatalogueJson.Price;
import lab.fanout.main.client.CatalogueJson.Product;
import lab.fanout.main.client.Deadline;
import lab.fanout.main.client.Downstream;
import lab.fanout.main.client.FanoutException;
import lab.fanout.main.client.ScriptedDownstreamClient;
import lab.fanout.main.config.BoundedPoolProperties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static lab.fanout.main.client.Downstream.ACCOUNTS;
import static lab.fanout.main.client.Downstream.ORDERS;
import static lab.fanout.main.client.Downstream.PRODUCTS;
import static lab.fanout.main.strategy.TestCalls.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * Each {@link FanoutStrategy} on its own, built as the application builds it, its three calls answered by a
 * {@link ScriptedDownstreamClient}: no HTTP, no Spring. The same {@link Fetched}, failures passed on unchanged, the
 * deadline, and what each strategy does with the sibling calls (docs/strategies.md). Sibling behaviour is read from
 * what happened to each call (interrupted, left to finish, never made), not from a clock.
 * <p>
 * The reactive strategy runs here on the scripted client's {@code fetchAsync} (a virtual thread per call, interrupted
 * when cancelled), through its blocking {@code fetch}: this checks its joining, failure and deadline logic. That it
 * cancels real async HTTP exchanges, and that the controller answers it asynchronously, is checked against WireMock
 * fakes (web/DownstreamFailureIntegrationTest, DeadlineIntegrationTest, ReactiveIntegrationTest).
 */
class FanoutStrategyTest {

    private static final StrategyConfig CONFIG = new StrategyConfig();
    private static final List<FanoutStrategy> ALL = List.of(new SequentialStrategy(),
            CONFIG.completableFutureStrategy(), CONFIG.threadPerTaskStrategy(), CONFIG.virtualThreadPerTaskStrategy(),
            new StructuredScopeStrategy(), new ReactiveStrategy(),
            CONFIG.boundedPoolStrategy(new BoundedPoolProperties(50, 100, Duration.ofSeconds(1))));
    /** Also checks that every StrategyName has exactly one strategy. */
    private static final StrategyRegistry STRATEGIES = new StrategyRegistry(ALL);

    private static final List<Order> SOME_ORDERS = List.of(
            new Order("ord-1", "acc-1", "PLACED", "2026-10-01T09:00:00Z", List.of(new Item("prd-1", 2))));
    private static final List<Product> SOME_PRODUCTS = List.of(
            new Product("prd-1", "SKU-1", "Chair", new Price(new BigDecimal("189.00"), "EUR"), true));
    private static final List<Account> SOME_ACCOUNTS = List.of(
            new Account("acc-1", "Aster Logistics GmbH", "billing@aster.example", "DE", "gold"));

    private static final Duration NOW = Duration.ZERO;
    private static final Duration AMPLE = Duration.ofSeconds(10);
    private static final Duration LONG = Duration.ofSeconds(5);
    /**
     * The deadline of the deadline tests. Not shorter: on a busy machine the test thread can lose the CPU for a
     * hundred ms between opening a scope and forking, and a scope whose timeout has fired never starts its calls.
     */
    private static final Duration BUDGET = Duration.ofMillis(300);
    /** A call that ignores the deadline takes this long: far enough beyond {@link #BUDGET} to tell them apart. */
    private static final Duration BEYOND_BUDGET = Duration.ofMillis(1000);

    private final ScriptedDownstreamClient downstreams = new ScriptedDownstreamClient();

    @AfterAll
    static void closeExecutors() {
        ALL.stream().filter(CompletableFutureStrategy.class::isInstance)
                .forEach(strategy -> ((CompletableFutureStrategy) strategy).close());
    }

    /** A call a strategy left running must not reach into the next test (and the common pool has few threads). */
    @AfterEach
    void waitForCallsLeftRunning() {
        await().atMost(Duration.ofSeconds(10)).until(() -> downstreams.running() == 0);
    }

    @ParameterizedTest
    @EnumSource(StrategyName.class)
    void returnsWhatTheThreeCallsAnswered(StrategyName strategy) {
        answerAll(ms(20));

        assertThat(fetch(strategy, AMPLE)).isEqualTo(new Fetched(SOME_ORDERS, SOME_PRODUCTS, SOME_ACCOUNTS));
        assertThat(downstreams.completed()).containsExactlyInAnyOrder(Downstream.values());
    }

    @ParameterizedTest
    @EnumSource(StrategyName.class)
    void throwsTheFailedCallsExceptionUnchanged(StrategyName strategy) {
        FanoutException failure = downstreamError(PRODUCTS);
        answerAll(ms(20));
        downstreams.fail(PRODUCTS, failure, ms(20));

        assertThatThrownBy(() -> fetch(strategy, AMPLE)).isSameAs(failure);
    }

    @ParameterizedTest
    @EnumSource(StrategyName.class)
    void failsWithDeadlineExceededNamingTheCallThatOutlastedTheDeadline(StrategyName strategy) {
        answerAll(NOW);
        downstreams.answer(ACCOUNTS, SOME_ACCOUNTS, LONG);

        FanoutException failure = catchThrowableOfType(FanoutException.class, () -> fetch(strategy, BUDGET));

        assertThat(failure.kind()).isEqualTo(FanoutException.Kind.DEADLINE_EXCEEDED);
        assertThat(failure.properties()).containsEntry("downstream", "accounts-service");
    }

    /**
     * The strategies that wait on other threads enforce the deadline themselves, even for a call that does not
     * (a downstream trickling its body keeps each socket read under the timeout). Sequential cannot: it runs the
     * calls on the request thread and relies on the client's timeouts.
     */
    @ParameterizedTest
    @EnumSource(names = {"COMPLETABLE_FUTURE", "THREAD_PER_TASK", "VIRTUAL_THREAD_PER_TASK", "SCOPE_FORK", "REACTIVE",
            "BOUNDED_POOL"})
    void parallelStrategiesEndAtTheDeadlineEvenWhenACallIgnoresIt(StrategyName strategy) {
        answerAll(NOW);
        downstreams.ignoringDeadline(ACCOUNTS, SOME_ACCOUNTS, BEYOND_BUDGET);

        FanoutException failure = catchThrowableOfType(FanoutException.class, () -> fetch(strategy, BUDGET));

        assertThat(downstreams.completed()).as("accounts had not answered when the strategy gave up")
                .doesNotContain(ACCOUNTS);
        assertThat(failure.kind()).isEqualTo(FanoutException.Kind.DEADLINE_EXCEEDED);
        assertThat(failure.properties()).containsEntry("downstream", "accounts-service");
    }

    @Test
    void sequentialMakesNoCallAfterAFailedOne() {
        FanoutException failure = downstreamError(ORDERS);
        answerAll(NOW);
        downstreams.fail(ORDERS, failure, NOW);

        assertThatThrownBy(() -> fetch(StrategyName.SEQUENTIAL, AMPLE)).isSameAs(failure);
        assertThat(downstreams.started()).containsExactly(ORDERS);
    }

    @Test
    void scopeForkInterruptsTheSiblingsOfAFailedCallAndReturnsWithNoCallRunning() {
        FanoutException failure = downstreamError(ORDERS);
        answerAll(LONG);
        downstreams.fail(ORDERS, failure, ms(50));

        assertThatThrownBy(() -> fetch(StrategyName.SCOPE_FORK, AMPLE)).isSameAs(failure);
        assertThat(downstreams.running()).as("calls still running when fetch returned").isZero();
        assertThat(downstreams.interrupted()).containsExactlyInAnyOrder(PRODUCTS, ACCOUNTS);
    }

    @Test
    void scopeForkInterruptsEveryCallWhenTheDeadlineRunsOut() {
        for (Downstream downstream : Downstream.values()) {
            downstreams.ignoringDeadline(downstream, List.of(), LONG);
        }

        FanoutException failure = catchThrowableOfType(FanoutException.class,
                () -> fetch(StrategyName.SCOPE_FORK, BUDGET));

        assertThat(failure.kind()).isEqualTo(FanoutException.Kind.DEADLINE_EXCEEDED);
        assertThat(downstreams.running()).as("calls still running when fetch returned").isZero();
        assertThat(downstreams.started()).isNotEmpty();
        assertThat(downstreams.interrupted()).as("interrupted: every call that had started")
                .isEqualTo(downstreams.started());
        assertThat(downstreams.completed()).isEmpty();
    }

    /**
     * {@code Mono.zip} cancels the siblings of the first failed call; cancelling a call aborts it (here: interrupts
     * its scripted thread), so they never answer. The cancellation is asynchronous to the failure, hence the wait.
     */
    @Test
    void reactiveCancelsTheSiblingsOfAFailedCall() {
        FanoutException failure = downstreamError(ORDERS);
        answerAll(LONG);
        downstreams.fail(ORDERS, failure, ms(50));

        assertThatThrownBy(() -> fetch(StrategyName.REACTIVE, AMPLE)).isSameAs(failure);
        await().atMost(Duration.ofSeconds(2)).until(() -> downstreams.interrupted().size() == 2);
        assertThat(downstreams.interrupted()).containsExactlyInAnyOrder(PRODUCTS, ACCOUNTS);
        assertThat(downstreams.completed()).containsExactly(ORDERS);
    }

    /** {@code allOf} completes only when every call has: the siblings of a failed call run to their end. */
    @ParameterizedTest
    @EnumSource(names = {"COMPLETABLE_FUTURE", "THREAD_PER_TASK", "VIRTUAL_THREAD_PER_TASK", "BOUNDED_POOL"})
    void completableFutureStrategiesLetTheSiblingsOfAFailedCallFinishBeforeFailing(StrategyName strategy) {
        FanoutException failure = downstreamError(ORDERS);
        answerAll(ms(300));
        downstreams.fail(ORDERS, failure, ms(20));

        assertThatThrownBy(() -> fetch(strategy, AMPLE)).isSameAs(failure);
        assertThat(downstreams.completed()).as("siblings that had answered when fetch failed")
                .contains(PRODUCTS, ACCOUNTS);
        assertThat(downstreams.interrupted()).isEmpty();
    }

    /**
     * gh-15 item 5: the parallel strategies report the first failure in time, not the first in argument order; the
     * CompletableFuture ones still wait for every call. The common pool runs the calls one after another below
     * parallelism 3 (orders first), so there the earliest failure is orders'.
     */
    @ParameterizedTest
    @EnumSource(names = {"COMPLETABLE_FUTURE", "THREAD_PER_TASK", "VIRTUAL_THREAD_PER_TASK", "SCOPE_FORK", "REACTIVE",
            "BOUNDED_POOL"})
    void parallelStrategiesReportTheEarliestFailure(StrategyName strategy) {
        FanoutException late = downstreamError(ORDERS);
        FanoutException early = downstreamError(PRODUCTS);
        answerAll(NOW);
        downstreams.fail(ORDERS, late, ms(300)).fail(PRODUCTS, early, ms(20));
        boolean oneAfterAnother = strategy == StrategyName.COMPLETABLE_FUTURE && ForkJoinPool.getCommonPoolParallelism() < 3;

        assertThatThrownBy(() -> fetch(strategy, AMPLE)).isSameAs(oneAfterAnother ? late : early);
    }

    /** {@code cancel(true)} does not interrupt a CompletableFuture's running task: the call goes on after the 504. */
    @ParameterizedTest
    @EnumSource(names = {"COMPLETABLE_FUTURE", "THREAD_PER_TASK", "VIRTUAL_THREAD_PER_TASK", "BOUNDED_POOL"})
    void completableFutureStrategiesLeaveACallRunningWhenTheDeadlineRunsOut(StrategyName strategy) {
        answerAll(NOW);
        downstreams.ignoringDeadline(ACCOUNTS, SOME_ACCOUNTS, BEYOND_BUDGET);

        FanoutException failure = catchThrowableOfType(FanoutException.class, () -> fetch(strategy, BUDGET));

        assertThat(failure.kind()).isEqualTo(FanoutException.Kind.DEADLINE_EXCEEDED);
        assertThat(downstreams.running()).as("calls still running when fetch returned").isEqualTo(1);
        await().atMost(Duration.ofSeconds(5)).until(() -> downstreams.running() == 0);
        assertThat(downstreams.completed()).contains(ACCOUNTS);
        assertThat(downstreams.interrupted()).isEmpty();
    }

    /**
     * gh-15 item 5: an interrupted wait is not a 504 "deadline exceeded" (the deadline is 10 s away), and the flag
     * is not left set on the thread that writes the answer.
     */
    @ParameterizedTest
    @EnumSource(names = {"COMPLETABLE_FUTURE", "THREAD_PER_TASK", "VIRTUAL_THREAD_PER_TASK", "SCOPE_FORK", "REACTIVE",
            "BOUNDED_POOL"})
    void anInterruptedWaitIs503InterruptedAndHandled(StrategyName strategy) throws Exception {
        answerAll(Duration.ofSeconds(2));
        CompletableFuture<Throwable> failure = new CompletableFuture<>();
        AtomicBoolean flagLeftSet = new AtomicBoolean();
        Thread request = Thread.ofVirtual().start(() -> {
            try {
                fetch(strategy, AMPLE);
                failure.complete(null);
            } catch (RuntimeException e) {
                flagLeftSet.set(Thread.currentThread().isInterrupted());
                failure.complete(e);
            }
        });
        await().atMost(Duration.ofSeconds(5)).until(() -> downstreams.running() > 0);
        request.interrupt();

        assertThat(failure.get(10, TimeUnit.SECONDS)).isInstanceOfSatisfying(FanoutException.class,
                e -> assertThat(e.kind()).isEqualTo(FanoutException.Kind.INTERRUPTED));
        assertThat(flagLeftSet).isFalse();
    }

    @Test
    void deadlineProblemNamesTheCallsStillUnanswered() {
        answerAll(NOW);
        FanoutCalls calls = calls(AMPLE);
        call(calls, Downstream.ORDERS).fetch();

        FanoutException failure = calls.deadlineExceeded(null);

        assertThat(failure.properties()).containsEntry("downstream", "products-service");
        assertThat(failure.detail()).isEqualTo(
                "The request's deadline of 10000 ms ran out while waiting for products-service, accounts-service");
    }

    /**
     * The slow call's own timeout, capped at the deadline, can fire a moment before the strategy's wait runs out:
     * then no call is unanswered, and the problem must still name a downstream. It names the slowest.
     */
    @Test
    void deadlineProblemNamesTheSlowestCallWhenEveryCallHasJustEnded() {
        answerAll(NOW);
        downstreams.answer(PRODUCTS, SOME_PRODUCTS, ms(50));
        FanoutCalls calls = calls(AMPLE);
        call(calls, Downstream.ORDERS).fetch();
        call(calls, Downstream.PRODUCTS).fetch();
        call(calls, Downstream.ACCOUNTS).fetch();

        FanoutException failure = calls.deadlineExceeded(null);

        assertThat(failure.properties()).containsEntry("downstream", "products-service");
        assertThat(failure.detail()).endsWith("while waiting for products-service");
    }

    private Fetched fetch(StrategyName strategy, Duration budget) {
        return STRATEGIES.get(strategy).fetch(calls(budget));
    }

    private FanoutCalls calls(Duration budget) {
        return new FanoutCalls(downstreams, new Simulation(null, null), Deadline.after(budget));
    }

    private void answerAll(Duration after) {
        downstreams.answer(ORDERS, SOME_ORDERS, after)
                .answer(PRODUCTS, SOME_PRODUCTS, after)
                .answer(ACCOUNTS, SOME_ACCOUNTS, after);
    }

    private static FanoutException downstreamError(Downstream downstream) {
        return new FanoutException(FanoutException.Kind.DOWNSTREAM_ERROR, downstream,
                downstream.serviceName() + " answered 500", null);
    }

    private static Duration ms(long millis) {
        return Duration.ofMillis(millis);
    }
}
