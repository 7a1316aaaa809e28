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
        Bound b = Bound.littlesLaw().clients(100).latencyMs(200).build();
        assertThat(b.requestsPerSecond()).isCloseTo(500, within(1e-9));
        assertThat(b.limit()).isEqualTo("clients");
        assertThat(b.efficiency(450)).isCloseTo(0.9, within(1e-9));
    }

    @Test
    void sequentialHoldsEachClientForThreeLatencies() {
        Bound b = Bound.littlesLaw().strategy(SEQUENTIAL).clients(100).latencyMs(200).build();
        assertThat(b.requestsPerSecond()).isCloseTo(100 / 0.6, within(1e-9));
    }

    @Test
    void platformProfileIsThreadLimited_seedTable() {
        // seed: Tomcat 10 threads, c=200, 2 s latency: 5 req/s parallel (they measured 4.93), 1.67 sequential (1.64)
        Bound parallel = Bound.littlesLaw().strategy(THREAD_PER_TASK).virtualProfile(false).clients(200)
                .tomcatThreads(10).latencyMs(2000).build();
        assertThat(parallel.requestsPerSecond()).isCloseTo(5, within(1e-9));
        assertThat(parallel.limit()).isEqualTo("request threads");
        Bound sequential = Bound.littlesLaw().strategy(SEQUENTIAL).virtualProfile(false).clients(200).tomcatThreads(10)
                .latencyMs(2000).build();
        assertThat(sequential.requestsPerSecond()).isCloseTo(10 / 6.0, within(1e-9));
    }

    @Test
    void reactiveReleasesItsRequestThread_soTomcatThreadsDoNotBoundItUnderPlatform() {
        // the seed table's platform cell: 10 threads would cap a waiting strategy at 10 / 2 s = 5 req/s
        Bound b = Bound.littlesLaw().strategy(REACTIVE).virtualProfile(false).clients(200).tomcatThreads(10)
                .latencyMs(2000).build();
        assertThat(b.ceilings()).doesNotContainKey("request threads");
        assertThat(b.requestsPerSecond()).isCloseTo(500 / 6.0, within(1e-9));   // pool: 500 ÷ (3 × 2 s)
        assertThat(b.limit()).isEqualTo("pool");
        // with a pool too large to bind, the clients do: 200 ÷ 2 s, as under the virtual profile
        Bound clients = Bound.littlesLaw().strategy(REACTIVE).virtualProfile(false).clients(200).tomcatThreads(10)
                .pool(5000).latencyMs(2000).build();
        assertThat(clients.requestsPerSecond()).isCloseTo(100, within(1e-9));
        assertThat(clients.limit()).isEqualTo("clients");
        assertThat(clients.ceilings())
                .isEqualTo(Bound.littlesLaw().strategy(REACTIVE).clients(200).tomcatThreads(10).pool(5000)
                        .latencyMs(2000).build().ceilings());
    }

    @Test
    void reactiveIsParallel_oneLatencyOnTheCriticalPath() {
        Bound b = Bound.littlesLaw().strategy(REACTIVE).clients(100).latencyMs(200).build();
        assertThat(b.requestsPerSecond()).isCloseTo(500, within(1e-9));
        assertThat(b.limit()).isEqualTo("clients");
    }

    @Test
    void everyStrategyButReactiveHoldsItsRequestThread() {
        for (Strategy s : Strategy.values()) {
            assertThat(Bound.littlesLaw().strategy(s).virtualProfile(false).clients(1000).tomcatThreads(10).pool(5000)
                    .latencyMs(200).parallelism(4).build().ceilings().containsKey("request threads"))
                    .as(s.toString()).isEqualTo(s != REACTIVE);
        }
    }

    /** The quick preset's cell: 100 clients, 200 ms, the pool's default 200 threads hold 1,000 calls a second. */
    @Test
    void theBoundedPoolsThreadsBindItsStrategyOnly() {
        Bound b = Bound.littlesLaw().strategy(BOUNDED_POOL).clients(100).poolPerRoute(167).latencyMs(200)
                .boundedPoolThreads(200).build();
        assertThat(b.requestsPerSecond()).isCloseTo(200 / 0.6, within(1e-9));
        assertThat(b.limit()).isEqualTo(Bound.BOUNDED_POOL);
        Bound other = Bound.littlesLaw().clients(100).poolPerRoute(167).latencyMs(200).build();
        assertThat(other.withBoundedPool(SCOPE_FORK, 200, 200)).isEqualTo(other);
        assertThat(b.withBoundedPool(BOUNDED_POOL, null, 200)).isEqualTo(b);
    }

    @Test
    void virtualProfileIgnoresTomcatThreads() {
        Bound b = Bound.littlesLaw().strategy(VIRTUAL_THREAD_PER_TASK).clients(200).tomcatThreads(10).pool(5000)
                .latencyMs(2000).build();
        assertThat(b.requestsPerSecond()).isCloseTo(100, within(1e-9));
        assertThat(b.limit()).isEqualTo("clients");
    }

    @Test
    void poolLimited_seedPoolTable() {
        // pool 10, c=10, 2 s: 10 connections, 3 held per request for 2 s each -> 10 / 6 = 1.67 req/s (seed: 1.53)
        Bound b = Bound.littlesLaw().strategy(VIRTUAL_THREAD_PER_TASK).clients(10).tomcatThreads(10).pool(10)
                .latencyMs(2000).build();
        assertThat(b.requestsPerSecond()).isCloseTo(10 / 6.0, within(1e-9));
        assertThat(b.limit()).isEqualTo("pool");
        // the same pool bounds sequential exactly as much: 1 connection at a time, but for 3 latencies
        assertThat(Bound.littlesLaw().strategy(SEQUENTIAL).clients(100).tomcatThreads(10).pool(10).latencyMs(2000)
                .build().requestsPerSecond())
                .isCloseTo(10 / 6.0, within(1e-9));
    }

    @Test
    void routeLimitedWhenPerRouteIsSmallerThanAThirdOfTotal() {
        Bound b = Bound.littlesLaw().clients(1000).poolTotal(3000).poolPerRoute(10).latencyMs(200).build();
        assertThat(b.requestsPerSecond()).isCloseTo(50, within(1e-9));
        assertThat(b.limit()).isEqualTo("route");
    }

    @Test
    void commonPoolWithParallelismOneRunsEveryCallOfEveryRequestOneByOne() {
        Bound b = Bound.littlesLaw().strategy(COMPLETABLE_FUTURE).clients(100).latencyMs(200).build();
        assertThat(b.requestsPerSecond()).isCloseTo(1 / 0.6, within(1e-9));
        assertThat(b.limit()).isEqualTo("common pool");
        assertThat(Bound.callsOnCriticalPath(COMPLETABLE_FUTURE, 1)).isEqualTo(3);
        assertThat(Bound.callsOnCriticalPath(COMPLETABLE_FUTURE, 2)).isEqualTo(2);
        assertThat(Bound.callsOnCriticalPath(COMPLETABLE_FUTURE, 7)).isEqualTo(1);
        // with parallelism 7 and one client, the client is the limit again
        assertThat(Bound.littlesLaw().strategy(COMPLETABLE_FUTURE).clients(1).latencyMs(200).parallelism(7).build()
                .limit()).isEqualTo("clients");
    }

    @Test
    void openModelIsBoundedByItsOfferedRate() {
        Bound b = Bound.littlesLaw().clients(400).latencyMs(200).ratePerSecond(300.0).build();
        assertThat(b.requestsPerSecond()).isEqualTo(300);
        assertThat(b.limit()).isEqualTo("rate");
    }

    @Test
    void zeroLatencyIsUnbounded() {
        Bound b = Bound.littlesLaw().clients(10).latencyMs(0).build();
        assertThat(b.requestsPerSecond()).isInfinite();
        assertThat(b.efficiency(100)).isNaN();
    }

    /** D = 2.17 CPU-ms per request on 2 cores: the CPU allows 2 ÷ 0.00217 = 922 req/s. */
    static final double D = 0.00217;

    @Test
    void littlesLawStillBindsWhereTheCpuAllowsMore() {
        Bound b = Bound.littlesLaw().clients(100).latencyMs(200).build().withCpu(D, 2);
        assertThat(b.limit()).isEqualTo("clients");
        assertThat(b.requestsPerSecond()).isCloseTo(500, within(1e-9));
        assertThat(b.cpuCeiling()).isCloseTo(2 / D, within(1e-9));
        assertThat(b.efficiency(469)).isCloseTo(0.938, within(1e-9));
    }

    @Test
    void theCpuBindsPastTheClientsThePoolCanServe_soakCell() {
        // issue 13: 10,000 clients, pool 2,000, 200 ms: Little's law says 3,333 (pool), the machine is at 98 % CPU
        Bound little = Bound.littlesLaw().clients(10_000).pool(2000).latencyMs(200).build();
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
        Bound little = Bound.littlesLaw().clients(100).latencyMs(200).build();
        assertThat(little.withCpu(null, 2)).isEqualTo(little);
        assertThat(little.withCpu(0.0, 2)).isEqualTo(little);
        assertThat(little.cpuCeiling()).isNull();
    }

    @Test
    void aTieNamesTheLittlesLawResource() {
        // 128 clients ÷ 0.25 s = 512 req/s; 2 cores ÷ (1/256 s) = 512 req/s, both exact in binary
        Bound b = Bound.littlesLaw().clients(128).latencyMs(250).build().withCpu(1 / 256.0, 2);
        assertThat(b.ceilings()).containsEntry("clients", 512.0).containsEntry(Bound.CPU, 512.0);
        assertThat(b.limit()).isEqualTo("clients");
    }

    @Test
    void withoutLatencyOnlyTheCpuBounds() {
        Bound b = Bound.littlesLaw().clients(10).latencyMs(0).build().withCpu(0.001, 2);
        assertThat(b.limit()).isEqualTo(Bound.CPU);
        assertThat(b.requestsPerSecond()).isCloseTo(2000, within(1e-9));
    }

    @Test
    void aNativePinOnAVirtualThreadMakesTheCarriersTheResourceHeld() {
        Bound b = Bound.littlesLaw().clients(20).poolPerRoute(167).latencyMs(100).build();
        // 2 carriers, each held for one call of 100 ms, 3 calls per request: 2 ÷ 0.3 s = 6.67 req/s
        Bound pinned = b.withPinnedCarriers(Strategy.SCOPE_FORK, true, 2, 100);
        assertThat(pinned.limit()).isEqualTo("carriers (pinned)");
        assertThat(pinned.requestsPerSecond()).isCloseTo(6.667, within(1e-3));
        assertThat(Bound.littlesLaw().clients(20).poolPerRoute(167).latencyMs(100).pinnedCarriers(2).build())
                .isEqualTo(pinned);
        assertThat(b.withPinnedCarriers(Strategy.SEQUENTIAL, true, 2, 100).limit()).isEqualTo("carriers (pinned)");
        // platform threads carry these calls: nothing to pin
        assertThat(b.withPinnedCarriers(Strategy.THREAD_PER_TASK, true, 2, 100)).isEqualTo(b);
        assertThat(b.withPinnedCarriers(Strategy.SEQUENTIAL, false, 2, 100)).isEqualTo(b);
        assertThat(b.withPinnedCarriers(Strategy.SCOPE_FORK, true, null, 100)).isEqualTo(b);
    }

    @Test
    void theJdbcPoolBindsAtItsSizeOverTheQueryTimeUntilTheHttpPoolIsTighter() {
        // the database preset's cells: 100 clients, 200 ms in pg_sleep, HTTP pool 120 = 120 ÷ (3 × 0.2 s) = 200 req/s
        Bound http = Bound.littlesLaw().clients(100).pool(120).latencyMs(200).build();
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
        Bound sequential = Bound.littlesLaw().strategy(Strategy.SEQUENTIAL).clients(100).pool(120).latencyMs(200)
                .dbPool(20).build();
        assertThat(sequential.limit()).isEqualTo(Bound.DB_POOL);
        assertThat(sequential.requestsPerSecond()).isCloseTo(100.0, within(1e-9));
        // the memory store, or no latency to hold a connection: unchanged
        assertThat(http.withDbPool(null, 200)).isEqualTo(http);
        assertThat(http.withDbPool(5, 0)).isEqualTo(http);
    }
}
