package lab.fanout.bench.run;

import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import lab.fanout.bench.cli.LabCommand;
import lab.fanout.bench.report.ResultsCsv;
import lab.fanout.bench.system.Ports;
import lab.fanout.bench.system.Processes;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

/**
 * {@code ./lab bench} end to end on a tiny matrix: the real four jars on free ports, hey, every output file and
 * column. No assertion on speed; only on what the simulation guarantees (a response cannot be faster than its
 * downstream latency on the critical path).
 */
class BenchIT {

    static final Path REPO = Path.of("..").toAbsolutePath().normalize();

    static final String MATRIX = """
            blocks:
              - name: tiny
                strategies: [scopeFork, sequential]
                profiles: [virtual]
                concurrencies: [4]
                latenciesMs: [50]
                requests: 24
                warmupSeconds: 1
                repetitions: 3
            """;

    @BeforeAll
    static void heyInstalled() {
        if (!Processes.onPath("hey")) {
            String hint = "hey is not installed: apt-get install -y hey";
            if ("true".equals(System.getenv("CI"))) {
                fail(hint + " (CI=true: this test must run)");
            }
            abort(hint);
        }
    }

    @Test
    void tinyMatrixWritesEveryFileAndColumn(@TempDir Path tmp) throws Exception {
        Path matrix = Files.writeString(tmp.resolve("tiny.yaml"), MATRIX);
        Path out = tmp.resolve("out");
        System.setProperty("lab.repo", REPO.toString());
        System.setProperty("lab.maxWarmupSeconds", "2");   // a tiny load may never let the JIT settle

        // --own-services: never reuse or stop a developer's ./lab up; --jvm-option: it reaches main-service (gh-13);
        // --forks 2: both cells, a fresh start of the services, both cells again
        int exit = LabCommand.commandLine().execute("bench", "--matrix", matrix.toString(), "--out", out.toString(),
                "--own-services", "--jvm-option=-Djava.util.concurrent.ForkJoinPool.common.parallelism=3",
                "--forks", "2");

        assertThat(exit).isZero();
        List<CSVRecord> rows;
        try (Reader r = Files.newBufferedReader(out.resolve("results.csv"))) {
            rows = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(r).getRecords();
        }
        assertThat(rows).hasSize(12);
        assertThat(rows.getFirst().toMap().keySet()).containsExactlyElementsOf(ResultsCsv.header());
        assertThat(rows).extracting(r -> r.get("fork")).containsExactly("1", "1", "1", "1", "1", "1", "2", "2", "2",
                "2", "2", "2");
        assertThat(rows).extracting(r -> r.get("warmup_settled")).allMatch(v -> v.equals("true") || v.equals("false"));
        // each fork's main-service was a new process, on new free ports from the OS
        assertThat(port(rows.get(6))).isNotEqualTo(port(rows.getFirst()));
        assertThat(rows).extracting(r -> r.get("strategy")).containsOnly("scopeFork", "sequential");
        assertThat(rows).allSatisfy(r -> {
            assertThat(r.get("latency_ms")).isEqualTo("50");
            assertThat(r.get("requests")).isEqualTo("24");
            assertThat(Long.parseLong(r.get("answered")) + transport(r.get("error_kinds"))).isEqualTo(24);
            assertThat(r.get("profile")).isEqualTo("virtual");
            assertThat(r.get("common_pool_parallelism")).isEqualTo("3");
            assertThat(r.get("jvm_options")).isEqualTo("-Djava.util.concurrent.ForkJoinPool.common.parallelism=3");
            assertThat(r.get("peak_platform_threads")).isNotEmpty();
            double floor = r.get("strategy").equals("sequential") ? 150 : 50;
            assertThat(Double.parseDouble(r.get("p50_ms"))).isGreaterThanOrEqualTo(floor);
            double littlesLaw = r.get("strategy").equals("sequential") ? 26.667 : 80;
            assertThat(Double.parseDouble(r.get("littles_bound_req_per_s"))).isEqualTo(littlesLaw);
            assertThat(r.get("littles_bound_limit")).isEqualTo("clients");
            // the harness started the services, so /proc shows each one's CPU; a cold JIT may make the CPU the limit
            assertThat(List.of("cpu_ms_per_req_main", "cpu_ms_per_call_orders", "cpu_ms_per_call_products",
                    "cpu_ms_per_call_accounts", "cpu_demand_ms_per_req", "cpu_bound_req_per_s"))
                    .allSatisfy(c -> assertThat(Double.parseDouble(r.get(c))).as(c).isPositive());
            // hey sends 24 requests in well under one clock tick (10 ms) of CPU, so /proc may say 0 for it
            assertThat(Double.parseDouble(r.get("cpu_ms_per_req_driver"))).as("cpu_ms_per_req_driver").isNotNegative();
            assertThat(Double.parseDouble(r.get("bound_req_per_s")))
                    .isEqualTo(Math.min(littlesLaw, Double.parseDouble(r.get("cpu_bound_req_per_s"))));
            assertThat(r.get("bound_limit")).isIn("clients", "CPU");
        });
        String md = Files.readString(out.resolve("results.md"));
        assertThat(md).contains("| scopeFork | StructuredTaskScope |").contains("| sequential |  |")
                .contains("Bound (limit)").contains("Machine: ").contains("![tiny-throughput.png]")
                .contains("Forks: 2 (each cell in 2 fresh starts of the services");
        for (String png : List.of("tiny-throughput.png", "tiny-latency.png", "tiny-efficiency.png")) {
            assertThat(out.resolve(png)).isNotEmptyFile();
        }
        assertThat(Files.readString(out.resolve("environment.txt")))
                .contains("cpu_model: ", "cores: ", "git_commit: ", "jdk: ");
        assertThat(out.resolve("logs/main-service.log")).isNotEmptyFile();
        // the harness stopped what it started
        int mainPort = port(rows.getLast());
        assertThat(Ports.isFree(mainPort)).as("main-service port %d free after the run", mainPort).isTrue();
    }

    /**
     * Issue 26, item 3: with orders-service on PostgreSQL and 2 connections, each held 200 ms by the query's
     * pg_sleep, the bound is 2 ÷ 0.2 s = 10 req/s, and the measured throughput sits near it, far below the memory
     * store's at the same 10 clients (their bound: 10 ÷ 0.2 s = 50 req/s; a busy machine's CPU may hold it lower),
     * through JDBC (HikariCP) and through R2DBC (r2dbc-pool) alike (issue 39, the driver axis). On code without the
     * dbPools axis the matrix is refused (unknown key), and without the db-pool ceiling the bound reads "clients";
     * without the ordersStores axis the key is refused, and a harness that started JDBC for it fails the driver check.
     * With orders-service's JVM options (NMT) its memory is read mid-run: without that, the orders columns are empty.
     */
    @Test
    void aTwoConnectionDbPoolBindsTheThroughputOnEitherDriver(@TempDir Path tmp) throws Exception {
        String block = """
                    strategies: [scopeFork]
                    profiles: [virtual]
                    concurrencies: [10]
                    latenciesMs: [200]
                    durationSeconds: 4
                    warmupSeconds: 2
                    repetitions: 1
                """;
        Path matrix = Files.writeString(tmp.resolve("db.yaml"), "blocks:\n  - name: memory\n" + block
                + "  - name: db\n" + block + "    dbPools: [2]\n    ordersStores: [postgres, r2dbc]\n"
                + "    ordersJvmOptions: [-Xms256m, -Xmx256m, -XX:NativeMemoryTracking=summary]\n");
        Path out = tmp.resolve("out");
        List<CSVRecord> rows = bench(matrix, out, 4);
        assertThat(rows).extracting(r -> r.get("block") + " " + r.get("orders_store"))
                .containsExactly("memory ", "db postgres", "db r2dbc");
        CSVRecord memory = rows.get(0);
        assertThat(memory.get("db_pool")).isEmpty();
        assertThat(memory.get("db_pending_peak")).isEmpty();
        for (CSVRecord db : rows.subList(1, 3)) {
            String driver = db.get("orders_store");
            assertThat(db.get("db_pool")).as(driver).isEqualTo("2");
            assertThat(db.get("littles_bound_limit")).as(driver).isEqualTo("db pool");
            assertThat(Double.parseDouble(db.get("littles_bound_req_per_s"))).as(driver).isEqualTo(10);
            assertThat(db.get("errors")).as(driver).isEqualTo("0");
            double measured = Double.parseDouble(db.get("throughput_req_per_s"));
            assertThat(measured).as(driver + ": req/s through 2 connections of 200 ms")
                    .isBetween(0.6 * 10, 1.05 * 10);
            assertThat(Double.parseDouble(memory.get("throughput_req_per_s"))).as("the memory store's req/s")
                    .isGreaterThan(2.5 * measured);
            // 10 clients, 2 connections: most requests wait in the pool's queue, which the harness scraped
            assertThat(db.get("db_pending_peak")).as(driver + ": db_pending_peak scraped").isNotEmpty();
            assertThat(Double.parseDouble(db.get("db_pending_peak"))).as(driver).isGreaterThanOrEqualTo(3);
            // orders-service's memory read mid-run (its NMT), main-service's not (no NMT, so no full GC paid there)
            assertThat(db.get("orders_heap_after_gc_mib")).as(driver + ": orders-service's snapshot").isNotEmpty();
            assertThat(db.get("heap_after_gc_mib")).as(driver + ": main-service's snapshot").isEmpty();
        }
        assertThat(memory.get("orders_heap_after_gc_mib")).isEmpty();
        // what a waiting request holds: through JDBC a parked virtual request thread each (~9 of the 10 clients' calls
        // are in orders-service, 8 of them waiting), through R2DBC none (the request thread is released)
        assertThat(Double.parseDouble(rows.get(1).get("orders_live_virtual_threads"))).as("JDBC")
                .isGreaterThanOrEqualTo(5);
        assertThat(Double.parseDouble(rows.get(2).get("orders_live_virtual_threads"))).as("R2DBC")
                .isLessThanOrEqualTo(2);
        assertThat(Files.readString(out.resolve("results.md"))).contains("2 (PostgreSQL, JDBC)")
                .contains("2 (PostgreSQL, R2DBC)");
        // orders-service stopped its server with itself, and removed the data directory
        assertThat(out.resolve("orders-db")).doesNotExist();
    }

    /**
     * The netty profile through the whole harness: main-service on Reactor Netty reports no Tomcat threads, and the
     * bench once died there on its first netty cell (an unboxed null); its bound holds no request-thread pool.
     */
    @Test
    void aNettyCellRunsWithoutTomcatThreads(@TempDir Path tmp) throws Exception {
        Path matrix = Files.writeString(tmp.resolve("netty.yaml"), MATRIX.replace("[virtual]", "[netty]")
                .replace("[scopeFork, sequential]", "[completableFutureWithVirtualTaskExecutor, reactive]")
                .replace("concurrencies: [4]", "tomcatThreads: [2]\n    concurrencies: [4]"));
        Path out = tmp.resolve("out");
        List<CSVRecord> rows = bench(matrix, out, 2);
        assertThat(rows).hasSize(6).allSatisfy(r -> {
            assertThat(r.get("profile")).isEqualTo("netty");
            assertThat(r.get("tomcat_threads_max")).isEmpty();
            assertThat(r.get("virtual_request_threads")).isEqualTo("true");
            // 2 Tomcat threads ÷ 50 ms would bind at 40 req/s on Tomcat; on Netty the 4 clients do (80)
            assertThat(r.get("littles_bound_limit")).isEqualTo("clients");
            assertThat(Long.parseLong(r.get("answered")) + transport(r.get("error_kinds"))).isEqualTo(24);
        });
        assertThat(Files.readString(out.resolve("results.md"))).contains("none (Reactor Netty)");
    }

    /**
     * Runs {@code ./lab bench} on the matrix with its own services (never a developer's {@code ./lab up}).
     *
     * @param maxWarmupSeconds the warm-up's cap, s (a tiny load may never let the JIT settle)
     * @return the rows of its results.csv, after asserting the run exited 0
     */
    private static List<CSVRecord> bench(Path matrix, Path out, int maxWarmupSeconds) throws IOException {
        System.setProperty("lab.repo", REPO.toString());
        System.setProperty("lab.maxWarmupSeconds", String.valueOf(maxWarmupSeconds));
        int exit = LabCommand.commandLine().execute("bench", "--matrix", matrix.toString(), "--out", out.toString(),
                "--own-services");
        assertThat(exit).isZero();
        try (Reader r = Files.newBufferedReader(out.resolve("results.csv"))) {
            return CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(r).getRecords();
        }
    }

    /** @return the port main-service's load went to, from the row's driver command */
    private static int port(CSVRecord row) {
        return URI.create(row.get("command").replaceAll(".*'(http[^']+)'.*", "$1")).getPort();
    }

    private static long transport(String kinds) {
        return kinds.contains("transport=") ? Long.parseLong(kinds.replaceAll(".*transport=(\\d+).*", "$1")) : 0;
    }
}
