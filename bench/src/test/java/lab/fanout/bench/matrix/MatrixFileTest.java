package lab.fanout.bench.matrix;

import java.nio.file.Path;
import java.util.List;

import lab.fanout.bench.model.Cell;
import lab.fanout.bench.model.JvmOptions;
import lab.fanout.bench.model.Strategy;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MatrixFileTest {

    /** Issue 66: a matrix may place main-service for the whole run (BenchProfileOptionTest: a wrong one refused). */
    @Test
    void aMatrixPlacesMainServiceAndAWrongPlacementIsNamed() {
        String blocks = "blocks:\n  - {name: b, strategies: [scopeFork], profiles: [virtual], concurrencies: [10],"
                + " latenciesMs: [200], requests: 100}\n";
        assertThat(MatrixFile.yaml("m", "mainCpus: \"0.5\"\n" + blocks, "m.yaml").mainCpus()).isEqualTo("0.5");
        assertThat(MatrixFile.yaml("m", blocks, "m.yaml").mainCpus()).isNull();
    }

    @Test
    void presetsParse() {
        List<Cell> quick = MatrixFile.preset("quick").cells();
        assertThat(quick).hasSize(14).allMatch(c -> c.latencyMs() == 200 && c.repetitions() >= 3)
                // the common pool at few clients, so that it measures the strategy, not the deadline
                .allMatch(c -> c.concurrency() == (c.strategy() == Strategy.COMPLETABLE_FUTURE ? 4 : 100));
        assertThat(quick).extracting(Cell::strategy).containsOnly(Strategy.values());
        assertThat(MatrixFile.preset("seed").cells()).hasSize(16)
                .anyMatch(c -> c.poolSize() == 10 && c.concurrency() == 10 && c.requests() == 50);
        assertThat(MatrixFile.preset("scale").cells()).hasSize(120).anyMatch(c -> c.concurrency() == 5000)
                .extracting(Cell::strategy).containsOnly(Strategy.THREAD_PER_TASK, Strategy.VIRTUAL_THREAD_PER_TASK,
                        Strategy.SCOPE_FORK, Strategy.REACTIVE, Strategy.BOUNDED_POOL);
        assertThat(MatrixFile.preset("overhead").cells()).hasSize(8)
                .allMatch(c -> c.concurrency() == 200 && c.poolSize() == 2000 && c.latencyMs() == 200)
                .filteredOn(c -> c.jvmOptions().isEmpty()).hasSize(2);   // the defaults twice: the noise floor
        assertThatThrownBy(() -> MatrixFile.preset("fast")).hasMessage("preset 'fast' is not one of "
                + "[quick, seed, scale, soak, openclosed, scheduler, overhead, tail, cpu, cpu-limit, footprint,"
                + " pinning, database, recycler, faults, overload]");
    }

    @Test
    void footprintPresetHoldsUpTo10000InFlightWithAFixedHeapAndNativeMemoryTracking() {
        List<Cell> footprint = MatrixFile.preset("footprint").cells();
        assertThat(footprint).hasSize(45).allMatch(c -> c.jvmOptions().equals(List.of("-Xms2g", "-Xmx2g",
                "-XX:NativeMemoryTracking=summary")) && c.latencyMs() == 2000 && c.tomcatThreads() == 10_000);
        // pid_max 32,768 here: thread-per-task's 3 threads per request stop it at 3,000 in flight
        assertThat(footprint).filteredOn(c -> c.strategy() == Strategy.THREAD_PER_TASK).extracting(Cell::concurrency)
                .containsOnly(100, 1000, 3000);
        assertThat(footprint).extracting(Cell::concurrency).contains(10_000);
    }

    @Test
    void tailPresetCrossesWidthTailRateAndHedgingForTheThreeHedgingIdioms() {
        List<Cell> tail = MatrixFile.preset("tail").cells();
        assertThat(tail).hasSize(66).allMatch(c -> c.tail().isPresent() && c.poolSize() == 1000)
                .extracting(Cell::strategy).containsOnly(Strategy.VIRTUAL_THREAD_PER_TASK, Strategy.SCOPE_FORK,
                        Strategy.REACTIVE);
        assertThat(tail).extracting(c -> c.tail().orElseThrow().label()).containsOnly("width=1 hedge=off",
                "width=1 hedge=100", "width=1 hedge=p95", "width=3 hedge=off", "width=3 hedge=100", "width=3 hedge=p95",
                "width=10 hedge=off", "width=10 hedge=100", "width=10 hedge=p95");
        assertThat(tail).extracting(c -> c.tail().orElseThrow().tailRate()).containsOnly(0.01, 0.05);
        // the three strategies of one query run one after the other
        assertThat(tail.get(0).query()).isEqualTo(tail.get(2).query()).isNotEqualTo(tail.get(3).query());
        // degrading at the deadline (issue 70 item 2): unhedged, at the 100 ms hedge's time to answer
        assertThat(tail).filteredOn(c -> c.query().contains("onDeadline=partial")).hasSize(12)
                .allMatch(c -> !c.tail().orElseThrow().hedged() && c.block().equals("tail-partial"))
                .extracting(Cell::jvmOptions).containsOnly(List.of("-Dfanout.deadline=150ms"));
        assertThat(tail).filteredOn(c -> !c.query().contains("onDeadline")).extracting(Cell::jvmOptions)
                .containsOnly(List.of());
    }

    @Test
    void cpuPresetGoesFromIoBoundToCpuBoundUnderBothProfiles() {
        List<Cell> cpu = MatrixFile.preset("cpu").cells();
        assertThat(cpu).hasSize(32).extracting(Cell::query).containsOnly("cpuMs=0", "cpuMs=1", "cpuMs=5", "cpuMs=20");
        assertThat(cpu).extracting(Cell::profile).containsOnly("virtual", "platform");
    }

    /** Issue 66 item 4: the pod question, main-service at 0.5, 1.0 and 1.5 cores of quota, and the flags at 0.5. */
    @Test
    void cpuLimitPresetRunsEachCellAtItsQuotaAndGroupsTheRestartsByIt() {
        List<Cell> cells = MatrixFile.preset("cpu-limit").cells();
        assertThat(cells).hasSize(3 * 4 * 3 * 2 + 2 * 2 * 2);
        assertThat(cells).extracting(Cell::mainCpus).containsOnly("0.5", "1.0", "1.5");
        assertThat(cells).extracting(Cell::profile).containsOnly("virtual", "platform", "netty");
        assertThat(cells.stream().filter(c -> !c.jvmOptions().isEmpty())).extracting(Cell::mainCpus)
                .containsOnly("0.5");
        assertThat(cells.getFirst().label()).contains(" cpus=0.5");
        // a placement restarts all four: its cells run together, each value once
        List<String> order = cells.stream().map(Cell::mainCpus).toList();
        assertThat(order.stream().distinct().toList()).containsExactly("0.5", "1.0", "1.5");
        assertThat(order).isSortedAccordingTo(String::compareTo);
    }

    @Test
    void aMainCpusValueThatIsNoPlacementIsNamed() {
        String block = "blocks:\n  - {name: b, strategies: [scopeFork], profiles: [virtual], concurrencies: [10],"
                + " latenciesMs: [200], requests: 100, mainCpus: [half]}\n";
        assertThatThrownBy(() -> MatrixFile.yaml("m", block, "m.yaml")).hasMessageContaining("block 'b': mainCpus"
                + " values must be all, a whole number of cores or a fraction such as 0.5, was half");
    }

    /** Both poller modes: the default's stall, and the carrier bound under platform-thread pollers (gh-23 item 5). */
    @Test
    void pinningPresetCrossesPinningWithBothPollerModesAndAPlatformThreadControl() {
        List<Cell> pinning = MatrixFile.preset("pinning").cells();
        assertThat(pinning).hasSize(11).allMatch(c -> c.profile().equals("virtual") && c.latencyMs() == 100)
                .extracting(Cell::strategy).containsOnly(Strategy.VIRTUAL_THREAD_PER_TASK, Strategy.SCOPE_FORK,
                        Strategy.THREAD_PER_TASK);
        assertThat(pinning).filteredOn(c -> c.jvmOptions().isEmpty()).extracting(Cell::query)
                .containsOnly("pinning=none", "pinning=synchronized", "pinning=native");
        assertThat(pinning).filteredOn(c -> c.jvmOptions().equals(List.of("-Djdk.pollerMode=1"))).hasSize(2)
                .allMatch(c -> c.query().equals("pinning=native") && c.strategy() != Strategy.THREAD_PER_TASK);
    }

    /** Issue 67 item 4: the three recycler modes on a new thread per call, a fixed heap, the pool not the limit. */
    @Test
    void recyclerPresetCrossesTheRecyclerModesWithThreeNewThreadPerCallStrategies() {
        List<Cell> recycler = MatrixFile.preset("recycler").cells();
        assertThat(recycler).hasSize(18).allMatch(c -> c.profile().equals("virtual") && c.latencyMs() == 200
                && c.jvmOptions().equals(List.of("-Xms512m", "-Xmx512m")) && c.poolSize() == 3000)
                .extracting(Cell::strategy).containsOnly(Strategy.VIRTUAL_THREAD_PER_TASK, Strategy.THREAD_PER_TASK,
                        Strategy.SCOPE_FORK);
        assertThat(recycler).extracting(Cell::query)
                .containsOnly("recycler=none", "recycler=threadLocal", "recycler=pool");
        assertThat(recycler).extracting(Cell::concurrency).containsOnly(200, 1000);
    }

    @Test
    void aQueryIsNameValuePairsAndLeavesTheKnobsOfTheirOwnAlone() {
        String base = "blocks:\n  - name: q\n    strategies: [scope]\n    profiles: [virtual]\n"
                + "    concurrencies: [4]\n    latenciesMs: [50]\n    requests: 10\n    queries: ";
        assertThat(MatrixFile.yaml("t", base + "['width=3&hedgeAfterMs=p95', 'width=1']\n", "t.yaml").cells())
                .extracting(Cell::query).containsExactly("width=3&hedgeAfterMs=p95", "width=1");
        assertThatThrownBy(() -> MatrixFile.yaml("t", base + "['width=3&latencyMs=5']\n", "t.yaml"))
                .hasMessageContaining("block 'q': queries values must be name=value pairs joined by &");
        assertThatThrownBy(() -> MatrixFile.yaml("t", base + "['width 3']\n", "t.yaml"))
                .hasMessageContaining("was width 3");
    }

    @Test
    void schedulerPresetSweepsTheCommonPoolAndTheCarriersUnderBothProfiles() {
        List<Cell> cells = MatrixFile.preset("scheduler").cells();
        List<Cell> commonPool = cells.stream().filter(c -> c.block().equals("common-pool")).toList();
        assertThat(commonPool).hasSize(8).allMatch(c -> c.strategy() == Strategy.COMPLETABLE_FUTURE);
        assertThat(commonPool).extracting(c -> JvmOptions.commonPoolParallelism(c.jvmOptions()).orElseThrow())
                .containsExactly(1, 2, 4, 16, 1, 2, 4, 16);
        List<Cell> carriers = cells.stream().filter(c -> c.block().equals("carriers")).toList();
        assertThat(carriers).hasSize(12).extracting(Cell::profile).containsOnly("virtual", "platform");
        assertThat(carriers).anyMatch(c -> c.jvmOptions().equals(List.of("-Djdk.virtualThreadScheduler.parallelism=1",
                "-Djdk.virtualThreadScheduler.maxPoolSize=1", "-Djdk.virtualThreadScheduler.minRunnable=1")));
        // both strategies of one JVM value run one after the other: 6 restarts, not 12
        assertThat(carriers.get(0).jvmOptions()).isEqualTo(carriers.get(1).jvmOptions());
    }

    @Test
    void jvmOptionsIsAListOfOptionListsEachAnAxisValue() {
        Matrix m = MatrixFile.yaml("t", """
                blocks:
                  - name: jvm
                    strategies: cf
                    profiles: virtual
                    jvmOptions:
                      - []
                      - [-Djava.util.concurrent.ForkJoinPool.common.parallelism=4, -XX:+UseZGC]
                    concurrencies: [4, 8]
                    latenciesMs: 50
                    requests: 8
                """, "t.yaml");
        assertThat(m.cells()).extracting(Cell::jvmOptions).containsExactly(List.of(), List.of(),
                List.of("-Djava.util.concurrent.ForkJoinPool.common.parallelism=4", "-XX:+UseZGC"),
                List.of("-Djava.util.concurrent.ForkJoinPool.common.parallelism=4", "-XX:+UseZGC"));
        assertThat(m.cells().get(2).label())
                .endsWith("jvm=[-Djava.util.concurrent.ForkJoinPool.common.parallelism=4, -XX:+UseZGC]");
        assertThat(m.cells().get(2).id(3)).endsWith("-common.parallelism4_UseZGC");
        // a plain list: one option per value
        Matrix plain = MatrixFile.yaml("t", """
                blocks:
                  - name: jvm
                    strategies: cf
                    profiles: virtual
                    jvmOptions: [-Xmx256m, -Xmx512m]
                    concurrencies: 4
                    latenciesMs: 50
                    requests: 8
                """, "t.yaml");
        assertThat(plain.cells()).extracting(Cell::jvmOptions)
                .containsExactly(List.of("-Xmx256m"), List.of("-Xmx512m"));
    }

    @Test
    void csvJvmOptionsAreSpaceSeparatedOnePerValue() {
        Matrix m = MatrixFile.csv("t", """
                name,strategies,profiles,jvmOptions,concurrencies,latenciesMs,requests
                jvm,cf,virtual,-Djava.util.concurrent.ForkJoinPool.common.parallelism=1 \
                -Djava.util.concurrent.ForkJoinPool.common.parallelism=2,4,50,8
                """, "t.csv");
        assertThat(m.cells()).extracting(c -> JvmOptions.commonPoolParallelism(c.jvmOptions()).orElseThrow())
                .containsExactly(1, 2);
    }

    @Test
    void badJvmOptionNamesBlockAndFix() {
        assertThatThrownBy(() -> MatrixFile.yaml("t", """
                blocks:
                  - name: jvm
                    strategies: cf
                    profiles: virtual
                    jvmOptions: [[common.parallelism=4]]
                    concurrencies: 4
                    latenciesMs: 50
                    requests: 8
                """, "t.yaml"))
                .hasMessageContaining("t.yaml: block 'jvm': jvmOptions: 'common.parallelism=4' is not a JVM option")
                .hasMessageContaining("-D<name>=<value>");
    }

    /**
     * Issue 26, item 3: the db pool binds at 5 and 20 (25 and 100 req/s), the HTTP pool (200 req/s) at 100; issue 39:
     * through JDBC and R2DBC.
     */
    @Test
    void databasePresetCrossesTheDbPoolAndDriverWithStrategiesAndProfiles() {
        List<Cell> all = MatrixFile.preset("database").cells();
        List<Cell> db = all.stream().filter(c -> c.block().equals("database")).toList();
        assertThat(db).hasSize(48).allMatch(c -> c.latencyMs() == 200 && c.concurrency() == 60 && c.poolSize() == 120
                && c.ordersJvmOptions().isEmpty());
        assertThat(db).extracting(Cell::dbPool).containsOnly(5, 20, 100);
        assertThat(db).extracting(Cell::profile).containsOnly("virtual", "platform");
        // the db pool and driver change least often: the downstreams restart 5 times, main-service at each profile
        assertThat(db.subList(0, 8)).allMatch(c -> c.dbPool() == 5 && c.ordersStore().equals("postgres"));
        assertThat(db.subList(8, 16)).allMatch(c -> c.dbPool() == 5 && c.ordersStore().equals("r2dbc"));
        assertThat(db.getFirst().label()).contains(" db-pool=5");
        assertThat(db.getFirst().id(1)).contains("-db5");
        // what a waiting request holds in orders-service: a fixed heap and NMT there, all but 20 of c waiting
        List<Cell> memory = all.stream().filter(c -> c.block().equals("database-memory")).toList();
        assertThat(memory).extracting(c -> c.ordersStore() + " " + c.concurrency()).containsExactly("postgres 50",
                "postgres 200", "postgres 400", "r2dbc 50", "r2dbc 200", "r2dbc 400");
        assertThat(memory).allMatch(c -> c.dbPool() == 20 && c.jvmOptions().isEmpty() && c.ordersJvmOptions()
                .equals(List.of("-Xms1g", "-Xmx1g", "-XX:NativeMemoryTracking=summary")));
    }

    /** orders-service's JVM options: one list for every cell of the block, validated as main-service's are. */
    @Test
    void ordersJvmOptionsGoToEveryCellOfTheBlock() {
        String block = "blocks:\n  - name: b\n    strategies: [scope]\n    profiles: [virtual]\n"
                + "    concurrencies: [10, 20]\n    latenciesMs: [50]\n    requests: 20\n    dbPools: [2]\n";
        String nmt = "    ordersJvmOptions: [-Xms1g, -Xmx1g, -XX:NativeMemoryTracking=summary]\n";
        assertThat(MatrixFile.yaml("t", block + nmt, "t.yaml").cells()).hasSize(2)
                .allMatch(c -> c.jvmOptions().isEmpty() && c.ordersJvmOptions().equals(List.of("-Xms1g", "-Xmx1g",
                                "-XX:NativeMemoryTracking=summary"))
                        && c.label().endsWith("orders-jvm=[-Xms1g, -Xmx1g, -XX:NativeMemoryTracking=summary]"));
        assertThat(MatrixFile.yaml("t", block, "t.yaml").cells()).allMatch(c -> c.ordersJvmOptions().isEmpty());
        assertThatThrownBy(() -> MatrixFile.yaml("t", block + "    ordersJvmOptions: [Xmx1g]\n", "t.yaml"))
                .hasMessageContaining("block 'b': ordersJvmOptions: 'Xmx1g' is not a JVM option");
    }

    @Test
    void dbPoolsAreTheOrdersServicesJdbcPoolSizesInItsRange() {
        String block = "blocks:\n  - name: b\n    strategies: [scope]\n    profiles: [virtual]\n    concurrencies: [10]"
                + "\n    latenciesMs: [50]\n    requests: 10\n";
        assertThat(MatrixFile.yaml("t", block, "t.yaml").cells()).singleElement()
                .satisfies(c -> assertThat(c.dbPool()).isNull());   // absent: the memory store
        assertThat(MatrixFile.yaml("t", block + "    dbPools: [2]\n", "t.yaml").cells()).singleElement()
                .satisfies(c -> assertThat(c.dbPool()).isEqualTo(2));
        assertThatThrownBy(() -> MatrixFile.yaml("t", block + "    dbPools: [0]\n", "t.yaml"))
                .hasMessageContaining("block 'b': dbPools values must be in 1..1000, was 0");
        assertThatThrownBy(() -> MatrixFile.yaml("t", block + "    dbPools: [1001]\n", "t.yaml"))
                .hasMessageContaining("dbPools values must be in 1..1000, was 1001");
    }

    /** Issue 39's driver axis: each db pool once per driver, JDBC where none is named; none without a db pool. */
    @Test
    void ordersStoresRunEachDbPoolOncePerDriver() {
        String block = "blocks:\n  - name: b\n    strategies: [scope]\n    profiles: [virtual]\n    concurrencies: [10]"
                + "\n    latenciesMs: [50]\n    requests: 10\n";
        String axis = "    dbPools: [2, 5]\n    ordersStores: [postgres, r2dbc]\n";
        assertThat(MatrixFile.yaml("t", block + axis, "t.yaml").cells())
                .extracting(c -> c.dbPool() + " " + c.ordersStore() + " " + c.id(1).replaceAll(".*-(db.*)", "$1"))
                .containsExactly("2 postgres db2", "2 r2dbc db2r2dbc", "5 postgres db5", "5 r2dbc db5r2dbc");
        assertThat(MatrixFile.yaml("t", block + "    dbPools: [2]\n", "t.yaml").cells()).singleElement()
                .satisfies(c -> assertThat(c.ordersStore()).isEqualTo("postgres"));
        assertThat(MatrixFile.yaml("t", block, "t.yaml").cells()).singleElement()
                .satisfies(c -> assertThat(c.ordersStore()).isNull());
        String jdbc = "    dbPools: [2]\n    ordersStores: [jdbc]\n";
        assertThatThrownBy(() -> MatrixFile.yaml("t", block + jdbc, "t.yaml"))
                .hasMessageContaining("block 'b': ordersStores values must be some of [postgres, r2dbc], was [jdbc]");
        assertThatThrownBy(() -> MatrixFile.yaml("t", block + "    ordersStores: [r2dbc]\n", "t.yaml"))
                .hasMessageContaining("ordersStores needs dbPools");
    }

    @Test
    void cellsAreOrderedForTheFewestRestarts() {
        List<Cell> cells = MatrixFile.preset("quick").cells();
        // all virtual cells first, then all platform ones: main-service restarts once
        assertThat(cells.subList(0, 7)).allMatch(c -> c.profile().equals("virtual"));
        assertThat(cells.subList(7, 14)).allMatch(c -> c.profile().equals("platform"));
    }

    @Test
    void exampleCsvParses() {
        Matrix m = MatrixFile.read(Path.of("matrices/example.csv"));
        assertThat(m.blocks()).extracting(Block::name).containsExactly("pool-size", "tomcat-threads");
        assertThat(m.blocks().getFirst().cells()).hasSize(8).allMatch(c -> c.tomcatThreads() == null);
        assertThat(m.blocks().get(1).cells()).extracting(Cell::tomcatThreads).contains(10, 50, 200);
    }

    @Test
    void otherExamplesParse() {
        assertThat(MatrixFile.read(Path.of("matrices/open-model.yaml")).cells())
                .allMatch(c -> c.ratePerSecond() != null);
    }

    @Test
    void yamlAcceptsSingleValuesForLists() {
        Matrix m = MatrixFile.yaml("t", """
                blocks:
                  - name: one
                    strategies: scope
                    profiles: virtual
                    concurrencies: 4
                    latenciesMs: 50
                    requests: 8
                """, "t.yaml");
        assertThat(m.cells()).singleElement().satisfies(c -> {
            assertThat(c.strategy()).isEqualTo(Strategy.SCOPE_FORK);
            assertThat(c.warmupSeconds()).isEqualTo(5);
            assertThat(c.repetitions()).isEqualTo(3);
            assertThat(c.timeoutSeconds()).isEqualTo(20);
        });
    }

    @Test
    void unknownKeyNamesLineAndValidKeys() {
        assertThatThrownBy(() -> MatrixFile.yaml("t", "blocks:\n  - name: x\n    poolSize: [3]\n", "t.yaml"))
                .hasMessageStartingWith("t.yaml, line 3: unknown key 'poolSize'; valid: [name, strategies, profiles");
    }

    @Test
    void badValuesNameBlockFieldAndValidValues() {
        String base = "blocks:\n  - name: b\n    profiles: [virtual]\n    concurrencies: [10]\n    latenciesMs: [50]\n";
        assertThatThrownBy(() -> MatrixFile.yaml("t", base + "    strategies: [loom]\n    requests: 10\n", "t.yaml"))
                .hasMessageContaining("block 'b': strategies: strategy 'loom' is not one of"
                        + " [sequential, completableFuture");
        assertThatThrownBy(() -> MatrixFile.yaml("t", base + "    strategies: [seq]\n", "t.yaml"))
                .hasMessageContaining("give either requests (per repetition) or durationSeconds");
        assertThatThrownBy(() -> MatrixFile.yaml("t", base + "    strategies: [seq]\n    requests: 5\n", "t.yaml"))
                .hasMessageContaining("requests must be >= every concurrency");
        assertThatThrownBy(() -> MatrixFile.yaml("t", base.replace("[virtual]", "[loom]")
                        + "    strategies: [seq]\n    requests: 10\n", "t.yaml"))
                .hasMessageContaining("profiles must list some of [virtual, platform, netty], was [loom]");
        assertThatThrownBy(() -> MatrixFile.yaml("t", base.replace("[10]", "[ten]")
                        + "    strategies: [seq]\n    requests: 10\n", "t.yaml"))
                .hasMessageContaining("near line").hasMessageContaining("blocks[0].concurrencies[0]");
        assertThatThrownBy(() -> MatrixFile.yaml("t", "blocks: []\n", "t.yaml")).hasMessageContaining("no blocks");
    }

    @Test
    void csvUnknownColumnAndBadRowAreNamed() {
        assertThatThrownBy(() -> MatrixFile.csv("t", "name,strategy\nx,seq\n", "t.csv"))
                .hasMessageContaining("unknown column(s) [strategy]");
        assertThatThrownBy(() -> MatrixFile.csv("t", "name,strategies,profiles,concurrencies,latenciesMs,requests\n"
                        + "x,seq,virtual,ten,50,10\n", "t.csv"))
                .hasMessageContaining("t.csv, line 2");
        assertThatThrownBy(() -> MatrixFile.read(Path.of("matrix.json")))
                .hasMessageContaining("cannot read matrix file");
    }
}
