package lab.fanout.bench.model;

import org.junit.jupiter.api.Test;

import static lab.fanout.bench.model.Strategy.COMPLETABLE_FUTURE;
import static lab.fanout.bench.model.Strategy.SCOPE_FORK;
import static lab.fanout.bench.model.Strategy.SEQUENTIAL;
import static lab.fanout.bench.model.Strategy.THREAD_PER_TASK;
import static lab.fanout.bench.model.Strategy.VIRTUAL_THREAD_PER_TASK;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class BoundTest {

    @Test
    void issueGoal_virtualProfile_c100_200ms_isClientLimitedAt500() {
        Bound b = Bound.of(SCOPE_FORK, true, 100, 200, 500, 500, 200, 1, null);
        assertThat(b.requestsPerSecond()).isCloseTo(500, within(1e-9));
        assertThat(b.limit()).isEqualTo("clients");
        assertThat(b.efficiency(450)).isCloseTo(0.9, within(1e-9));
    }

    @Test
    void sequentialHoldsEachClientForThreeLatencies() {
        Bound b = Bound.of(SEQUENTIAL, true, 100, 200, 500, 500, 200, 1, null);
        assertThat(b.requestsPerSecond()).isCloseTo(100 / 0.6, within(1e-9));
    }

    @Test
    void platformProfileIsThreadLimited_seedTable() {
        // seed: Tomcat 10 threads, c=200, 2 s latency: 5 req/s parallel (they measured 4.93), 1.67 sequential (1.64)
        Bound parallel = Bound.of(THREAD_PER_TASK, false, 200, 10, 500, 500, 2000, 1, null);
        assertThat(parallel.requestsPerSecond()).isCloseTo(5, within(1e-9));
        assertThat(parallel.limit()).isEqualTo("request threads");
        Bound sequential = Bound.of(SEQUENTIAL, false, 200, 10, 500, 500, 2000, 1, null);
        assertThat(sequential.requestsPerSecond()).isCloseTo(10 / 6.0, within(1e-9));
    }

    @Test
    void virtualProfileIgnoresTomcatThreads() {
        Bound b = Bound.of(VIRTUAL_THREAD_PER_TASK, true, 200, 10, 5000, 5000, 2000, 1, null);
        assertThat(b.requestsPerSecond()).isCloseTo(100, within(1e-9));
        assertThat(b.limit()).isEqualTo("clients");
    }

    @Test
    void poolLimited_seedPoolTable() {
        // pool 10, c=10, 2 s: 10 connections, 3 held per request for 2 s each -> 10 / 6 = 1.67 req/s (seed: 1.53)
        Bound b = Bound.of(VIRTUAL_THREAD_PER_TASK, true, 10, 10, 10, 10, 2000, 1, null);
        assertThat(b.requestsPerSecond()).isCloseTo(10 / 6.0, within(1e-9));
        assertThat(b.limit()).isEqualTo("pool");
        // the same pool bounds sequential exactly as much: 1 connection at a time, but for 3 latencies
        assertThat(Bound.of(SEQUENTIAL, true, 100, 10, 10, 10, 2000, 1, null).requestsPerSecond()).isCloseTo(10 / 6.0, within(1e-9));
    }

    @Test
    void routeLimitedWhenPerRouteIsSmallerThanAThirdOfTotal() {
        Bound b = Bound.of(SCOPE_FORK, true, 1000, 200, 3000, 10, 200, 1, null);
        assertThat(b.requestsPerSecond()).isCloseTo(50, within(1e-9));
        assertThat(b.limit()).isEqualTo("route");
    }

    @Test
    void commonPoolWithParallelismOneRunsEveryCallOfEveryRequestOneByOne() {
        Bound b = Bound.of(COMPLETABLE_FUTURE, true, 100, 200, 500, 500, 200, 1, null);
        assertThat(b.requestsPerSecond()).isCloseTo(1 / 0.6, within(1e-9));
        assertThat(b.limit()).isEqualTo("common pool");
        assertThat(Bound.callsOnCriticalPath(COMPLETABLE_FUTURE, 1)).isEqualTo(3);
        assertThat(Bound.callsOnCriticalPath(COMPLETABLE_FUTURE, 2)).isEqualTo(2);
        assertThat(Bound.callsOnCriticalPath(COMPLETABLE_FUTURE, 7)).isEqualTo(1);
        // with parallelism 7 and one client, the client is the limit again
        assertThat(Bound.of(COMPLETABLE_FUTURE, true, 1, 200, 500, 500, 200, 7, null).limit()).isEqualTo("clients");
    }

    @Test
    void openModelIsBoundedByItsOfferedRate() {
        Bound b = Bound.of(SCOPE_FORK, true, 400, 200, 500, 500, 200, 1, 300.0);
        assertThat(b.requestsPerSecond()).isEqualTo(300);
        assertThat(b.limit()).isEqualTo("rate");
    }

    @Test
    void zeroLatencyIsUnbounded() {
        Bound b = Bound.of(SCOPE_FORK, true, 10, 200, 500, 500, 0, 1, null);
        assertThat(b.requestsPerSecond()).isInfinite();
        assertThat(b.efficiency(100)).isNaN();
    }
}
