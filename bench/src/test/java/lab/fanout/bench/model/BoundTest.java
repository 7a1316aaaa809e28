package lab.fanout.bench.model;

import org.junit.jupiter.api.Test;

import static lab.fanout.bench.model.Strategy.BOUNDED_POOL;
import static lab.fanout.bench.model.Strategy.COMPLETABLE_FUTURE;
import static lab.fanout.bench.model.Strategy.REACTIVE;
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
    void reactiveReleasesItsRequestThread_soTomcatThreadsDoNotBoundItUnderPlatform() {
        // the seed table's platform cell: 10 threads would cap a waiting strategy at 10 / 2 s = 5 req/s
        Bound b = Bound.of(REACTIVE, false, 200, 10, 500, 500, 2000, 1, null);
        assertThat(b.ceilings()).doesNotContainKey("request threads");
        assertThat(b.requestsPerSecond()).isCloseTo(500 / 6.0, within(1e-9));   // pool: 500 ÷ (3 × 2 s)
        assertThat(b.limit()).isEqualTo("pool");
        // with a pool too large to bind, the clients do: 200 ÷ 2 s, as under the virtual profile
        Bound clients = Bound.of(REACTIVE, false, 200, 10, 5000, 5000, 2000, 1, null);
        assertThat(clients.requestsPerSecond()).isCloseTo(100, within(1e-9));
        assertThat(clients.limit()).isEqualTo("clients");
        assertThat(clients.ceilings())
                .isEqualTo(Bound.of(REACTIVE, true, 200, 10, 5000, 5000, 2000, 1, null).ceilings());
    }

    @Test
    void reactiveIsParallel_oneLatencyOnTheCriticalPath() {
        Bound b = Bound.of(REACTIVE, true, 100, 200, 500, 500, 200, 1, null);
        assertThat(b.requestsPerSecond()).isCloseTo(500, within(1e-9));
        assertThat(b.limit()).isEqualTo("clients");
    }

    @Test
    void everyStrategyButReactiveHoldsItsRequestThread() {
        for (Strategy s : Strategy.values()) {
            assertThat(Bound.of(s, false, 1000, 10, 5000, 5000, 200, 4, null).ceilings().containsKey("request threads"))
                    .as(s.toString()).isEqualTo(s != REACTIVE);
        }
    }

    /** The quick preset's cell: 100 clients, 200 ms, the pool's default 200 threads hold 1,000 calls a second. */
    @Test
    void theBoundedPoolsThreadsBindItsStrategyOnly() {
        Bound b = Bound.of(BOUNDED_POOL, true, 100, 200, 500, 167, 200, 1, null)
                .withBoundedPool(BOUNDED_POOL, 200, 200);
        assertThat(b.requestsPerSecond()).isCloseTo(200 / 0.6, within(1e-9));
        assertThat(b.limit()).isEqualTo(Bound.BOUNDED_POOL);
        Bound other = Bound.of(SCOPE_FORK, true, 100, 200, 500, 167, 200, 1, null);
        assertThat(other.withBoundedPool(SCOPE_FORK, 200, 200)).isEqualTo(other);
        assertThat(b.withBoundedPool(BOUNDED_POOL, null, 200)).isEqualTo(b);
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
        assertThat(Bound.of(SEQUENTIAL, true, 100, 10, 10, 10, 2000, 1, null).requestsPerSecond())
                .isCloseTo(10 / 6.0, within(1e-9));
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

    /** D = 2.17 CPU-ms per request on 2 cores: the CPU allows 2 ÷ 0.00217 = 922 req/s. */
    static final double D = 0.00217;

    @Test
    void littlesLawStillBindsWhereTheCpuAllowsMore() {
        Bound b = Bound.of(SCOPE_FORK, true, 100, 200, 500, 500, 200, 1, null).withCpu(D, 2);
        assertThat(b.limit()).isEqualTo("clients");
        assertThat(b.requestsPerSecond()).isCloseTo(500, within(1e-9));
        assertThat(b.cpuCeiling()).isCloseTo(2 / D, within(1e-9));
        assertThat(b.efficiency(469)).isCloseTo(0.938, within(1e-9));
    }

    @Test
    void theCpuBindsPastTheClientsThePoolCanServe_soakCell() {
        // issue 13: 10,000 clients, pool 2,000, 200 ms: Little's law says 3,333 (pool), the machine is at 98 % CPU
        Bound little = Bound.of(SCOPE_FORK, true, 10_000, 200, 2000, 2000, 200, 1, null);
        assertThat(little.limit()).isEqualTo("pool");
        Bound b = little.withCpu(D, 2);
        assertThat(b.limit()).isEqualTo(Bound.CPU);
        assertThat(b.requestsPerSecond()).isCloseTo(921.66, within(0.01));
        assertThat(b.efficiency(905))
                .isCloseTo(905 * D / 2, within(1e-9));   // = the cores' busy share (utilisation law)
        assertThat(b.ceilings().get("pool")).isCloseTo(3333.33, within(0.01));
        // more cores, same D: the pool binds again
        assertThat(little.withCpu(D, 8).limit()).isEqualTo("pool");
    }

    @Test
    void unknownCpuLeavesLittlesLaw() {
        Bound little = Bound.of(SCOPE_FORK, true, 100, 200, 500, 500, 200, 1, null);
        assertThat(little.withCpu(null, 2)).isEqualTo(little);
        assertThat(little.withCpu(0.0, 2)).isEqualTo(little);
        assertThat(little.cpuCeiling()).isNull();
    }

    @Test
    void aTieNamesTheLittlesLawResource() {
        // 128 clients ÷ 0.25 s = 512 req/s; 2 cores ÷ (1/256 s) = 512 req/s, both exact in binary
        Bound b = Bound.of(SCOPE_FORK, true, 128, 200, 500, 500, 250, 1, null).withCpu(1 / 256.0, 2);
        assertThat(b.ceilings()).containsEntry("clients", 512.0).containsEntry(Bound.CPU, 512.0);
        assertThat(b.limit()).isEqualTo("clients");
    }

    @Test
    void withoutLatencyOnlyTheCpuBounds() {
        Bound b = Bound.of(SCOPE_FORK, true, 10, 200, 500, 500, 0, 1, null).withCpu(0.001, 2);
        assertThat(b.limit()).isEqualTo(Bound.CPU);
        assertThat(b.requestsPerSecond()).isCloseTo(2000, within(1e-9));
    }

    @Test
    void aNativePinOnAVirtualThreadMakesTheCarriersTheResourceHeld() {
        Bound b = Bound.of(Strategy.SCOPE_FORK, true, 20, 200, 500, 167, 100, 1, null);
        // 2 carriers, each held for one call of 100 ms, 3 calls per request: 2 ÷ 0.3 s = 6.67 req/s
        Bound pinned = b.withPinnedCarriers(Strategy.SCOPE_FORK, true, 2, 100);
        assertThat(pinned.limit()).isEqualTo("carriers (pinned)");
        assertThat(pinned.requestsPerSecond()).isCloseTo(6.667, within(1e-3));
        assertThat(b.withPinnedCarriers(Strategy.SEQUENTIAL, true, 2, 100).limit()).isEqualTo("carriers (pinned)");
        // platform threads carry these calls: nothing to pin
        assertThat(b.withPinnedCarriers(Strategy.THREAD_PER_TASK, true, 2, 100)).isEqualTo(b);
        assertThat(b.withPinnedCarriers(Strategy.SEQUENTIAL, false, 2, 100)).isEqualTo(b);
        assertThat(b.withPinnedCarriers(Strategy.SCOPE_FORK, true, null, 100)).isEqualTo(b);
    }

    @Test
    void theJdbcPoolBindsAtItsSizeOverTheQueryTimeUntilTheHttpPoolIsTighter() {
        // the database preset's cells: 100 clients, 200 ms in pg_sleep, HTTP pool 120 = 120 ÷ (3 × 0.2 s) = 200 req/s
        Bound http = Bound.of(Strategy.SCOPE_FORK, true, 100, 200, 120, 120, 200, 1, null);
        assertThat(http.limit()).isEqualTo("pool");
        // 5 connections each held 0.2 s: 25 req/s; 20: 100 req/s
        assertThat(http.withDbPool(5, 200).limit()).isEqualTo(Bound.DB_POOL);
        assertThat(http.withDbPool(5, 200).requestsPerSecond()).isCloseTo(25.0, within(1e-9));
        assertThat(http.withDbPool(20, 200).requestsPerSecond()).isCloseTo(100.0, within(1e-9));
        // 100 connections: 500 req/s, so the HTTP pool's 200 binds, the db pool listed beside it
        Bound wide = http.withDbPool(100, 200);
        assertThat(wide.limit()).isEqualTo("pool");
        assertThat(wide.requestsPerSecond()).isCloseTo(200.0, within(1e-9));
        assertThat(wide.ceilings()).containsEntry(Bound.DB_POOL, 500.0);
        // sequential makes one orders call too: clients 100 ÷ 0.6 s = 167, the db pool's 100 still tighter
        Bound sequential = Bound.of(Strategy.SEQUENTIAL, true, 100, 200, 120, 120, 200, 1, null).withDbPool(20, 200);
        assertThat(sequential.limit()).isEqualTo(Bound.DB_POOL);
        assertThat(sequential.requestsPerSecond()).isCloseTo(100.0, within(1e-9));
        // the memory store, or no latency to hold a connection: unchanged
        assertThat(http.withDbPool(null, 200)).isEqualTo(http);
        assertThat(http.withDbPool(5, 0)).isEqualTo(http);
    }
}
