package lab.fanout.main.web;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import lab.fanout.main.strategy.Recycler;
import lab.fanout.main.strategy.StrategyName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpStatus;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code recycler} (issue 67 item 4): where each downstream call takes its work buffer, read from
 * {@code fanout.recycler.allocations} and {@code fanout.recycler.reuses} by {@code mode}. With a new thread per call
 * (the virtual-thread executor, scopeFork's forks, thread-per-task's platform threads) a ThreadLocal cache never hits:
 * N requests allocate 3 x N buffers and reuse none; the shared pool allocates at most the buffers held at once (three,
 * one request at a time) and reuses the rest. A bad value is a 400 naming the valid ones.
 */
class RecyclerIntegrationTest extends FanoutIntegrationTest {

    private static final int REQUESTS = 10;
    private static final int CALLS = 3 * REQUESTS;

    @Autowired
    MeterRegistry registry;

    @Test
    void answers400NamingTheValidValuesForAnUnknownRecycler() {
        Answer answer = backoffice("concurrency=" + StrategyName.VIRTUAL_THREAD_PER_TASK + "&recycler=jackson");

        assertThat(answer).hasStatus(HttpStatus.BAD_REQUEST);
        assertThat(answer).bodyJson().extractingPath("$.type").isEqualTo(PROBLEMS + "bad-parameter");
        assertThat(answer).bodyJson().extractingPath("$.detail")
                .isEqualTo("recycler: 'jackson' is not one of [none, threadLocal, pool]");
    }

    @ParameterizedTest
    @EnumSource(value = StrategyName.class, names = {"VIRTUAL_THREAD_PER_TASK", "SCOPE_FORK", "THREAD_PER_TASK"})
    void threadLocalOnANewThreadPerCallAllocatesForEveryCallAndReusesNone(StrategyName strategy) {
        double[] before = counts(Recycler.THREAD_LOCAL);

        requests(strategy, Recycler.THREAD_LOCAL);

        double[] after = counts(Recycler.THREAD_LOCAL);
        assertThat(after[0] - before[0]).as("allocations").isEqualTo(CALLS);
        assertThat(after[1] - before[1]).as("reuses").isZero();
    }

    @ParameterizedTest
    @EnumSource(value = StrategyName.class, names = {"VIRTUAL_THREAD_PER_TASK", "SCOPE_FORK", "THREAD_PER_TASK"})
    void poolAllocatesAtMostTheBuffersHeldAtOnceAndReusesTheRest(StrategyName strategy) {
        double[] before = counts(Recycler.POOL);

        requests(strategy, Recycler.POOL);

        double allocations = counts(Recycler.POOL)[0] - before[0];
        double reuses = counts(Recycler.POOL)[1] - before[1];
        assertThat(allocations).as("allocations").isLessThanOrEqualTo(3).isLessThanOrEqualTo(Recycler.POOL_CAPACITY);
        assertThat(reuses).as("reuses").isPositive().isEqualTo(CALLS - allocations);
    }

    /** The contrast: sequential makes its three calls on the request thread, whose cache hits for the later two. */
    @Test
    void threadLocalOnTheRequestThreadReusesForTheRequestsLaterCalls() {
        double[] before = counts(Recycler.THREAD_LOCAL);

        requests(StrategyName.SEQUENTIAL, Recycler.THREAD_LOCAL);

        double[] after = counts(Recycler.THREAD_LOCAL);
        assertThat(after[0] - before[0]).as("allocations").isLessThanOrEqualTo(REQUESTS);
        assertThat(after[1] - before[1]).as("reuses").isGreaterThanOrEqualTo(2 * REQUESTS);
    }

    /** Reactive has no thread per call: each call still takes one buffer, on the thread that subscribes it. */
    @Test
    void reactiveTakesOneBufferPerCall() {
        double[] before = counts(Recycler.THREAD_LOCAL);

        requests(StrategyName.REACTIVE, Recycler.THREAD_LOCAL);

        double[] after = counts(Recycler.THREAD_LOCAL);
        assertThat(after[0] - before[0] + after[1] - before[1]).as("buffers taken").isEqualTo(CALLS);
    }

    @Test
    void noneTakesNoBuffer() {
        double[] before = counts(Recycler.NONE);

        requests(StrategyName.VIRTUAL_THREAD_PER_TASK, Recycler.NONE);

        assertThat(counts(Recycler.NONE)).containsExactly(before);
        assertThat(before).containsExactly(0, 0);
    }

    private void requests(StrategyName strategy, Recycler recycler) {
        serveAll(0);
        for (int i = 0; i < REQUESTS; i++) {
            assertThat(backoffice("concurrency=" + strategy + "&recycler=" + recycler)).hasStatusOk();
        }
    }

    /** @return {allocations, reuses} so far under {@code recycler} (0 before the first) */
    private double[] counts(Recycler recycler) {
        return new double[] {count("fanout.recycler.allocations", recycler), count("fanout.recycler.reuses", recycler)};
    }

    private double count(String name, Recycler recycler) {
        Counter counter = registry.find(name).tag("mode", recycler.toString()).counter();
        return counter == null ? 0 : counter.count();
    }
}
