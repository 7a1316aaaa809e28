package lab.fanout.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import lab.fanout.bench.model.CellResult;
import lab.fanout.bench.model.Memory;
import lab.fanout.bench.model.Repetition;
import lab.fanout.bench.model.SchedulerFigures;
import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.model.Stats;
import lab.fanout.bench.model.TailTest;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYChart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * {@code ./lab charts} draws a result anew from its results.csv ({@link ResultsCsv#read}): what it reads back must
 * be what the run measured, figure by figure, so that the redrawn charts show the run's numbers.
 */
class ResultsCsvReadTest {

    @Test
    void everyFigureTheChartsDrawReadsBackAsTheRunMeasuredIt(@TempDir Path dir) {
        List<CellResult> run = cells();
        ResultsCsv csv = new ResultsCsv(dir.resolve("results.csv"), "local", "hey");
        run.forEach(csv::append);
        List<CellResult> read = ResultsCsv.read(dir);

        assertThat(read).hasSameSizeAs(run);
        assertThat(run.getFirst().bound().limit()).as("the first cell is bound by CPU").isEqualTo("CPU");
        for (int i = 0; i < run.size(); i++) {
            CellResult a = run.get(i);
            CellResult b = read.get(i);
            assertThat(b.cell().label()).isEqualTo(a.cell().label());
            assertThat(b.forks()).isEqualTo(a.forks());
            assertThat(b.errors()).isEqualTo(a.errors());
            assertThat(b.warmupSettled()).isEqualTo(a.warmupSettled());
            assertThat(b.bound()).as("bound with its CPU ceiling").satisfies(bound -> {
                assertThat(bound.limit()).isEqualTo(a.bound().limit());
                assertThat(bound.requestsPerSecond()).isCloseTo(a.bound().requestsPerSecond(), within(0.01));
            });
            same(a.throughput(), b.throughput(), "throughput");
            for (double p : new double[] {50, 90, 99, 100}) {
                same(a.latencyEstimate(p), b.latencyEstimate(p), "p" + p);
            }
            same(a.estimate(live()), b.estimate(live()), "heap after GC + committed stacks");
            same(a.estimate(offHeap()), b.estimate(offHeap()), "off-heap");
            assertThat(b.heapAfterBytes()).isEqualTo(a.heapAfterBytes());
        }
        // the charts themselves: the same series through the same points
        for (String block : List.of("pool", "footprint")) {
            List<CellResult> before = run.stream().filter(r -> r.cell().block().equals(block)).toList();
            List<CellResult> after = read.stream().filter(r -> r.cell().block().equals(block)).toList();
            Map<String, ?> charts = Charts.charts(block, before);
            assertThat(Charts.charts(block, after)).containsOnlyKeys(charts.keySet());
            if (charts.get(block + "-memory") instanceof XYChart memory) {
                var redrawn = (XYChart) Charts.charts(block, after).get(block + "-memory");
                memory.getSeriesMap().forEach((name, series) -> assertThat(redrawn.getSeriesMap().get(name).getYData())
                        .as(name).containsExactly(series.getYData(), within(0.01)));
            }
        }
    }

    /**
     * A tail's slow share pools every answer of every repetition; the percentiles read back cannot give it, so each row
     * carries its slow answers, and a CSV from before that column its cell's share: either reads back the run's share
     * and interval, so that ./lab report rewrites a tail's tables and a later sitting adds forks to it.
     */
    @Test
    void aTailsSlowShareReadsBackAsTheRunMeasuredIt(@TempDir Path dir) throws IOException {
        List<Repetition> reps = new java.util.ArrayList<>();
        int[] slow = {22, 27, 31};   // of 1,000 answers each: 80 of 3,000, 2.667 %
        for (int i = 0; i < slow.length; i++) {
            Histogram h = new Histogram(3);
            h.recordValueWithCount(60_000, 1000 - slow[i]);
            h.recordValueWithCount(1_060_000, slow[i]);
            Repetition p = TailTest.cell("width=1&tailRate=0.01&tailMs=1000", h, 0.0).repetitions().getFirst();
            reps.add(new Repetition(i + 1, p.load(), p.run(), p.server(), p.machineBusyPercent(),
                    p.othersCpuPercent(), p.cpuSeconds()));
        }
        CellResult one = TailTest.cell("width=1&tailRate=0.01&tailMs=1000", new Histogram(3), 0.0);
        CellResult run = new CellResult(1, one.cell(), one.deployment(), one.littlesLaw(), reps, Map.of(), "hey");
        new ResultsCsv(dir.resolve("results.csv"), "local", "hey").append(run);
        double[] measured = run.slowShare().orElseThrow();
        assertThat(measured[1]).isCloseTo(80 / 3000.0, within(1e-12));

        assertThat(ResultsCsv.read(dir).getFirst().slowShare().orElseThrow()).containsExactly(measured);
        List<String> lines = Files.readAllLines(dir.resolve("results.csv"));
        List<String> header = List.of(lines.getFirst().split(","));
        int newer = header.size() - header.indexOf("slow_answers");   // it and the columns after it
        Path older = Files.write(dir.resolve("older.csv"), lines.stream().map(line -> {
            String kept = line;
            for (int i = 0; i < newer; i++) {
                kept = kept.substring(0, kept.lastIndexOf(','));
            }
            return kept;
        }).toList());
        assertThat(ResultsCsv.read(older).getFirst().slowShare().orElseThrow()).containsExactly(measured);

        String tables = ResultsMarkdown.render("tail", List.of("Command: `./lab bench --preset tail`"), List.of(run),
                Map.of(), false);
        assertThat(tables).contains("| 2.7 % (2.1–3.3) |");
        assertThat(Report.rewrite(tables, ResultsCsv.read(dir))).contains("| 2.7 % (2.1–3.3) |");
    }

    /** Issue 66: main-service's own CPU, the load side's busy share and scheduling read back; a bound load side too. */
    @Test
    void theSchedulerFiguresReadBackAndALoadSideBoundCellSaysSo(@TempDir Path dir) {
        CellResult one = TailTest.cell("width=1", new Histogram(3), 0.0);
        Repetition p = one.repetitions().getFirst();
        SchedulerFigures fed = new SchedulerFigures(1.0, 60.0, 3_000L, 400L, null, null);
        SchedulerFigures starved = new SchedulerFigures(0.5, 92.5, 3_000L, 400L, 7L, 0.25);
        for (SchedulerFigures f : List.of(fed, starved)) {
            // 1,000 answers: main-service 2 ms per request, the downstreams and the driver 4 ms more
            Map<String, Double> cpu = Map.of(ServiceDefaults.MAIN, 2.0, "orders-service", 1.0, "products-service", 1.0,
                    "accounts-service", 1.0, Repetition.DRIVER, 1.0);
            Repetition rep = new Repetition(1, p.load(), p.run(), p.server(), p.machineBusyPercent(),
                    p.othersCpuPercent(), cpu, 1, true, f);
            CellResult cell = new CellResult(1, one.cell(), one.deployment(), one.littlesLaw(), List.of(rep), Map.of(),
                    "hey");
            Path csv = dir.resolve(f.loadSideBusyPercent() + ".csv");
            new ResultsCsv(csv, "local", "hey").append(cell);
            CellResult read = ResultsCsv.read(csv).getFirst();
            assertThat(read.repetitions().getFirst().scheduler()).isEqualTo(f);
            assertThat(read.loadSideBound()).isEqualTo(f == starved);
            assertThat(read.bound().cpuCeiling()).as("its own cores or quota ÷ its own 2 ms")
                    .isCloseTo(f.mainCpus() / 0.002, within(1e-6));
            String md = ResultsMarkdown.render("t", List.of(), List.of(read), Map.of(), false);
            assertThat(md).contains("main-service's own CPU bound (req/s) · load side busy %")
                    .contains("Context switches/req main: voluntary / involuntary");
            assertThat(md.contains("⚠ load side bound: not main-service's figure")).isEqualTo(f == starved);
            assertThat(md.contains("CFS throttled periods · s per s")).isEqualTo(f == starved);
        }
    }

    @Test
    void aFileThatIsNoResultIsRefusedWithWhatToGive(@TempDir Path dir) throws IOException {
        assertThatThrownBy(() -> ResultsCsv.read(dir.resolve("nowhere"))).hasMessageContaining("does not exist")
                .hasMessageContaining("give a results folder");
        Path other = Files.writeString(dir.resolve("other.csv"), "x,y\n1,2\n");
        assertThatThrownBy(() -> ResultsCsv.read(other)).hasMessageContaining("is not a results.csv");
        ResultsCsv csv = new ResultsCsv(dir.resolve("results.csv"), "local", "hey");
        csv.append(ReportTest.result(1, 100, 480, 500));
        Path broken = Files.writeString(dir.resolve("broken.csv"), Files.readString(dir.resolve("results.csv"))
                .replace("completableFutureWithVirtualTaskExecutor", "fibers"));
        assertThatThrownBy(() -> ResultsCsv.read(broken)).hasMessageContaining("row 1")
                .hasMessageContaining("strategy 'fibers' is not one of");
    }

    /** Cells of a pool block (errors, 3 repetitions) and a footprint block (memory, 2 forks, the CPU bound). */
    private static List<CellResult> cells() {
        List<CellResult> pool = ReportTest.cells().stream().map(ResultsCsvReadTest::withCpu).toList();
        List<CellResult> footprint = List.of(100, 1000).stream().map(c -> ReportTest.footprint(c, List.of(
                Map.entry(1, memory(c, 50)), Map.entry(1, memory(c, 52)), Map.entry(2, memory(c, 61)),
                Map.entry(2, memory(c, 58))))).toList();
        return java.util.stream.Stream.concat(pool.stream(), footprint.stream()).toList();
    }

    /** Heap after GC growing {@code kib} per client from 100 MiB, stacks 10 KiB and off-heap 3 KiB per client. */
    private static Memory memory(int clients, int kib) {
        return new Memory(300.0 + clients, 40.0 + clients, new Memory.Snapshot(100 + clients * kib / 1024.0,
                clients, 2 + clients * 10 / 1024.0, (double) clients, 4 + clients * 3 / 1024.0));
    }

    /** {@code r} with every process's CPU known: main-service 5 s, each downstream 0.2 s, hey 0.3 s (CPU binds). */
    private static CellResult withCpu(CellResult r) {
        Map<String, Double> cpu = Map.of(ServiceDefaults.MAIN, 5.0, "orders-service", 0.2, "products-service", 0.2,
                "accounts-service", 0.2, Repetition.DRIVER, 0.3);
        List<Repetition> reps = r.repetitions().stream().map(p -> new Repetition(p.index(), p.load(), p.run(),
                p.server(), p.machineBusyPercent(), p.othersCpuPercent(), cpu, p.fork(), p.warmupSettled())).toList();
        return new CellResult(r.index(), r.cell(), r.deployment(), r.littlesLaw(), reps, r.heapAfterBytes(),
                r.command());
    }

    private static Function<Repetition, Double> live() {
        return p -> Memory.snapshot(p, Memory.Snapshot::liveMiB);
    }

    private static Function<Repetition, Double> offHeap() {
        return p -> Memory.snapshot(p, Memory.Snapshot::offHeapMiB);
    }

    /** Median and interval equal within the CSV's 3 decimals and HdrHistogram's 0.1 %. */
    private static void same(Stats.Estimate a, Stats.Estimate b, String what) {
        assertThat(b.n()).as(what).isEqualTo(a.n());
        if (a.median() == null || Double.isNaN(a.median())) {
            assertThat(b.median() == null || Double.isNaN(b.median())).as(what).isTrue();
            return;
        }
        for (double[] pair : new double[][] {{a.median(), b.median()}, {a.low(), b.low()}, {a.high(), b.high()}}) {
            assertThat(pair[1]).as(what).isCloseTo(pair[0], within(0.002 * Math.abs(pair[0]) + 0.001));
        }
    }
}
