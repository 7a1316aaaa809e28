package lab.fanout.bench.run;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import lab.fanout.bench.cli.LabCommand;
import lab.fanout.bench.model.Cell;
import lab.fanout.bench.model.Strategy;
import lab.fanout.bench.system.AotCache;
import lab.fanout.bench.system.CpuPlacement;
import lab.fanout.bench.system.LocalSystem.LaunchSpec;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 26, item 3: a cell's db pool is orders-service on PostgreSQL, a restart of the downstreams per value. */
class LocalTargetTest {

    private static Cell cell(Strategy strategy, Integer dbPool) {
        return Cell.custom().strategy(strategy).dbPool(dbPool).concurrency(10).durationSeconds(4).warmupSeconds(3)
                .build();
    }

    /** A block's mainCpus places main-service per cell, over the run's --main-cpus, and a new value restarts all. */
    @Test
    void aCellsPlacementWinsOverTheRunsAndRestartsTheServices() {
        LaunchSpec base = LaunchSpec.custom(Path.of("/tmp/run")).cpus(CpuPlacement.parse("1", 2)).build();
        Cell quota = cell(Strategy.SCOPE_FORK, null).toBuilder().mainCpus("0.5").build();
        assertThat(LocalTarget.spec(base, quota).cpus()).isEqualTo(CpuPlacement.parse("0.5", 2));
        assertThat(LocalTarget.spec(base, cell(Strategy.SCOPE_FORK, null)).cpus()).isEqualTo(base.cpus());
        assertThat(LocalTarget.restarts(base, cell(Strategy.SCOPE_FORK, null), quota)).isEqualTo(1);
    }

    @Test
    void aDbPoolRunsOrdersServiceOnPostgresWithItsDataBesideTheLogs() {
        LaunchSpec base = LaunchSpec.custom(Path.of("/tmp/run")).freePorts(true)
                .logDir(Path.of("/tmp/run/logs")).build();
        assertThat(LocalTarget.spec(base, cell(Strategy.SCOPE_FORK, 5)).extraDownstreamProperties()).isEqualTo(Map.of(
                "orders.store", "postgres", "orders.db.pool-size", "5", "orders.db.connection-timeout", "10s",
                "orders.db.data-dir", "/tmp/run/orders-db"));
        assertThat(LocalTarget.spec(base, cell(Strategy.SCOPE_FORK, null)).extraDownstreamProperties()).isEmpty();
    }

    @Test
    void theConnectionTimeoutFollowsTheDeadlineOfTheRun() {
        LaunchSpec base = new LocalTarget(Path.of("/tmp/run"), Path.of("/tmp/run/logs"),
                Map.of("fanout.deadline", "30s"), List.of(), AotCache.Mode.OFF, CpuPlacement.ALL).base();
        assertThat(LocalTarget.spec(base, cell(Strategy.SCOPE_FORK, 5)).extraDownstreamProperties())
                .containsEntry("orders.db.connection-timeout", "30s");
    }

    @Test
    void aChangeOfDbPoolRestartsAndTheStrategyDoesNot() {
        assertThat(LocalTarget.restarts(cell(Strategy.SCOPE_FORK, 5), cell(Strategy.REACTIVE, 5))).isZero();
        assertThat(LocalTarget.restarts(cell(Strategy.SCOPE_FORK, 5), cell(Strategy.SCOPE_FORK, 20))).isOne();
        assertThat(LocalTarget.restarts(cell(Strategy.SCOPE_FORK, null), cell(Strategy.SCOPE_FORK, 5))).isOne();
    }

    /** Heap after GC would hold what the cell before left: Tomcat's cached processors, idle threads, JFR's threads. */
    @Test
    void aCellThatReadsMainServicesMemoryGetsANewMainServiceEvenOnTheSameKnobs() {
        List<String> nmt = List.of("-Xms2g", "-Xmx2g", "-XX:NativeMemoryTracking=summary");
        Cell low = Cell.custom().strategy(Strategy.THREAD_PER_TASK).jvmOptions(nmt).latencyMs(2000).durationSeconds(4)
                .warmupSeconds(3).build();
        Cell high = Cell.custom().jvmOptions(nmt).concurrency(3000).latencyMs(2000).durationSeconds(4).warmupSeconds(3)
                .build();
        assertThat(LocalTarget.restarts(low, high)).isOne();
        assertThat(LocalTarget.restarts(high, low)).isOne();
        Cell plain = Cell.custom().concurrency(3000).latencyMs(2000).durationSeconds(4).warmupSeconds(3).build();
        assertThat(LocalTarget.restarts(plain, plain)).isZero();
    }

    /**
     * Issue 39: orders-service's memory per waiting request. Its JVM options reach it alone; with Native Memory
     * Tracking every cell gets four new services, as main-service's memory cells get a new main-service.
     */
    @Test
    void ordersJvmOptionsStartOrdersServiceWithThemAndItsMemoryCellsRestartAllFour() {
        List<String> nmt = List.of("-Xms1g", "-Xmx1g", "-XX:NativeMemoryTracking=summary");
        Cell low = Cell.custom().dbPool(20).ordersStore("r2dbc").ordersJvmOptions(nmt).concurrency(50)
                .durationSeconds(4).warmupSeconds(3).build();
        Cell high = Cell.custom().dbPool(20).ordersStore("r2dbc").ordersJvmOptions(nmt).concurrency(400)
                .durationSeconds(4).warmupSeconds(3).build();
        LaunchSpec base = LaunchSpec.defaults(Path.of("/tmp/run"));
        LaunchSpec spec = LocalTarget.spec(base, low);
        assertThat(spec.ordersJvmArgs()).isEqualTo(nmt);
        assertThat(spec.mainJvmArgs()).isEmpty();
        assertThat(LocalTarget.restarts(low, high)).isOne();
        assertThat(LocalTarget.restarts(high, high)).isOne();
        Cell plain = Cell.custom().dbPool(20).ordersStore("r2dbc").concurrency(400).durationSeconds(4).warmupSeconds(3)
                .build();
        assertThat(LocalTarget.restarts(plain, plain)).isZero();
    }

    @Test
    void baseUrlRefusesDbPoolsItCannotRestart() {
        StringWriter err = new StringWriter();
        CommandLine cli = LabCommand.commandLine();
        cli.setErr(new PrintWriter(err));
        int exit = cli.execute("bench", "--preset", "database", "--base-url", "http://127.0.0.1:9",
                "--management-url", "http://127.0.0.1:9", "--dry-run");
        assertThat(exit).isNotZero();
        assertThat(err.toString()).contains("--base-url cannot restart orders-service on PostgreSQL per db pool, but"
                + " [database: dbPools [5, 20, 100], database-memory: dbPools [20]] ask for it: drop --base-url");
    }
}
