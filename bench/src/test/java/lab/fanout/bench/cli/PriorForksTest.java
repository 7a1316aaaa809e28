package lab.fanout.bench.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Stream;

import lab.fanout.bench.model.Cell;
import lab.fanout.bench.model.CellResult;
import lab.fanout.bench.model.Repetition;
import lab.fanout.bench.model.RunResult;
import lab.fanout.bench.report.ResultsCsv;
import lab.fanout.bench.report.ResultsJson;
import lab.fanout.bench.run.BenchRunner;
import lab.fanout.bench.run.FakeRuns;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

/**
 * A preset longer than a sitting gets its forks in several with the same {@code --out} ({@link PriorForks}): each
 * sitting a real {@link BenchRunner} run on a fake target, results.json written after each cell as {@code ./lab
 * bench} writes it, and the next sitting continues only the same cells under the same command.
 */
class PriorForksTest {

    private static final List<String> COMMAND = List.of("--preset", "database", "--out", "results/db");

    private static Cell cell(int clients) {
        return Cell.custom().block("database").concurrency(clients).requests(400).warmupSeconds(1).repetitions(2)
                .build();
    }

    private final List<Cell> cells = List.of(cell(10), cell(20));

    @Test
    void aSecondSittingNumbersItsForksAfterTheFirstsAndTheReportJoinsThemAll(@TempDir Path dir) throws Exception {
        assertThat(PriorForks.read(dir, cells, COMMAND)).isSameAs(PriorForks.NONE);
        sitting(dir, cells, 1, PriorForks.NONE);

        PriorForks prior = PriorForks.read(dir, cells, Stream.concat(Stream.of("--forks", "2"), COMMAND.stream()
                .map(a -> a.equals("results/db") ? "/elsewhere/db" : a)).toList());
        assertThat(prior.count()).isEqualTo(1);
        assertThat(prior.introLines()).containsExactly("Sitting 1, fork 1: Command: `./lab bench --preset database"
                + " --out results/db`; Machine: cpu, 2 cores, 8 GB RAM, linux; JDK 25; git c0ffee; Load average"
                + " (1/5/15 min) before: 0.1, after: 1.9");

        List<CellResult> joined = prior.joined(sitting(dir, cells, 2, prior));
        assertThat(joined).hasSize(2).allSatisfy(r -> {
            assertThat(r.forks()).isEqualTo(3);
            assertThat(r.repetitions()).extracting(Repetition::fork).containsExactlyInAnyOrder(1, 1, 2, 2, 3, 3);
            assertThat(r.samples(rep -> rep.run().throughput())).hasSize(3);
        });
        assertThat(joined.getFirst().cell()).as("the sitting's own cell, not the one read back").isEqualTo(cell(10));
        RunResult run = ResultsJson.read(dir);
        assertThat(run.cells()).allSatisfy(r -> assertThat(r.forks()).isEqualTo(3));
        assertThat(run.sittings()).extracting(RunResult.Sitting::firstFork, RunResult.Sitting::lastFork)
                .containsExactly(tuple(1, 1), tuple(2, 3));
        assertThat(PriorForks.read(dir, cells, COMMAND).introLines().get(1))
                .startsWith("Sitting 2, forks 2–3: Command: `./lab bench --preset database");
        // the last sitting's command is the one to match
        assertThatThrownBy(() -> PriorForks.read(dir, cells, List.of("--preset", "quick")))
                .hasMessageContaining("not of this command");
    }

    @Test
    void anotherCommandOrOtherCellsAreRefusedWithTheFix(@TempDir Path dir) throws Exception {
        sitting(dir, cells, 1, PriorForks.NONE);
        assertThatThrownBy(() -> PriorForks.read(dir, cells, List.of("--preset", "quick", "--out", "results/db")))
                .hasMessageContaining("holds the forks of `./lab bench --preset database --out results/db`")
                .hasMessageContaining("give a new --out");
        assertThatThrownBy(() -> PriorForks.read(dir, List.of(cell(10), cell(30)), COMMAND))
                .hasMessageContaining("cell 2 was database: scopeFork virtual c=20")
                .hasMessageContaining("this run's is database: scopeFork virtual c=30");
        assertThatThrownBy(() -> PriorForks.read(dir, List.of(cell(10)), COMMAND))
                .hasMessageContaining("holds 2 cells where this run has 1 (the matrix changed?)");
        Files.writeString(dir.resolve("results.csv"), "block,cell\n");
        Files.delete(dir.resolve(ResultsJson.FILE));
        assertThatThrownBy(() -> PriorForks.read(dir, cells, COMMAND)).hasMessageContaining("holds a results.csv"
                + " without results.json").hasMessageContaining("give a new --out");
    }

    @Test
    void aStoppedRoundIsNotContinued(@TempDir Path first, @TempDir Path second) throws Exception {
        sitting(first, List.of(cell(10)), 1, PriorForks.NONE);   // the first fork stopped after one cell
        assertThatThrownBy(() -> PriorForks.read(first, cells, COMMAND))
                .hasMessageContaining("holds 1 cells where this run has 2 (its first fork was stopped)");

        sitting(second, cells, 1, PriorForks.NONE);
        sitting(second, List.of(cell(10)), 1, PriorForks.read(second, cells, COMMAND));   // fork 2 stopped after one
        assertThatThrownBy(() -> PriorForks.read(second, cells, COMMAND))
                .hasMessageContaining("last round is incomplete (cell 2 holds 1 of 2 forks)");
    }

    /**
     * results.json is written after each cell (issue 71 item 1): a sitting whose second cell fails leaves its first
     * cell there, every histogram as measured; and the earlier forks come back as measured.
     */
    @Test
    void aCellsForksAreInResultsJsonAsSoonAsItEndsEveryHistogramAsMeasured(@TempDir Path dir) throws Exception {
        assertThatThrownBy(() -> sitting(dir, cells, 1, PriorForks.NONE, new Histogram(3),
                c -> c.concurrency() == 20)).isInstanceOf(RuntimeException.class);
        assertThat(ResultsJson.read(dir).cells()).hasSize(1).allSatisfy(c -> assertThat(c.cell()).isEqualTo(cell(10)));

        Path whole = dir.resolve("whole");
        sitting(whole, cells, 1, PriorForks.NONE);
        assertThat(histograms(PriorForks.read(whole, cells, COMMAND))).isNotEmpty().allMatch(h -> h.getTag() == null);
    }

    @Test
    void aTailsSlowShareSpansItsSittings(@TempDir Path dir) throws Exception {
        // 10 of each run's 400 answers past the slow threshold (200 + 1,000 ÷ 2 ms): 2.5 % in every fork
        Histogram latencies = new Histogram(3);
        latencies.recordValueWithCount(60_000, 390);
        latencies.recordValueWithCount(1_060_000, 10);
        List<Cell> tail = List.of(Cell.custom().block("tail").concurrency(8).query("width=1&tailRate=0.01&tailMs=1000")
                .requests(400).warmupSeconds(1).repetitions(2).build());
        sitting(dir, tail, 1, PriorForks.NONE, latencies, c -> false);
        PriorForks prior = PriorForks.read(dir, tail, COMMAND);
        CellResult joined = prior.joined(sitting(dir, tail, 1, prior, latencies, c -> false)).getFirst();
        assertThat(joined.forks()).isEqualTo(2);
        assertThat(joined.slowShare().orElseThrow()[1]).as("40 of 1,600 answers").isEqualTo(0.025);
        assertThat(ResultsJson.read(dir).cells().getFirst().slowShare().orElseThrow()).containsExactly(joined
                .slowShare().orElseThrow());
    }

    private static List<Histogram> histograms(PriorForks prior) {
        return prior.cells().stream().flatMap(c -> c.repetitions().stream()).map(r -> r.run().latencyMicros()).toList();
    }

    private static List<CellResult> sitting(Path dir, List<Cell> cells, int forks, PriorForks prior)
            throws Exception {
        return sitting(dir, cells, forks, prior, new Histogram(3), c -> false);
    }

    /** One sitting as ./lab bench runs it: after each cell, its rows appended to results.csv, results.json anew. */
    private static List<CellResult> sitting(Path dir, List<Cell> cells, int forks, PriorForks prior,
                                            Histogram latencies, Predicate<Cell> fails) throws Exception {
        ResultsCsv csv = new ResultsCsv(dir.resolve("results.csv"), "local", "hey");
        Files.createDirectories(dir);
        BenchRunner[] runner = new BenchRunner[1];
        runner[0] = new BenchRunner(FakeRuns.target(new ArrayList<>(), fails), FakeRuns.steadyDriver(latencies), null,
                dir.resolve("raw"), System.out, cell -> {
                    csv.append(cell);
                    ResultsJson.write(dir, prior.run(runner[0].finished(), "./lab bench " + String.join(" ", COMMAND),
                            "c0ffee", MACHINE, new RunResult.Knobs("database", "fake", "hey", prior.count() + forks,
                                    Map.of(), List.of(), false, "all")));
                }, forks, prior.count());
        return runner[0].run(cells);
    }

    private static final RunResult.Machine MACHINE = new RunResult.Machine("cpu", 2, "8 GB", "linux", "25", List.of(),
            "h", "a", "0.1", "1.9");
}
