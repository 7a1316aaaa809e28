package lab.fanout.bench.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import lab.fanout.bench.model.Cell;
import lab.fanout.bench.model.CellResult;
import lab.fanout.bench.model.DriverRun;
import lab.fanout.bench.model.Repetition;
import lab.fanout.bench.model.RunResult;
import lab.fanout.bench.model.Strategy;
import lab.fanout.bench.report.ResultsCsv;
import lab.fanout.bench.report.ResultsJson;
import lab.fanout.bench.run.BenchRunner;
import lab.fanout.bench.run.FakeRuns;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A preset longer than a sitting gets its forks in several with the same {@code --out} ({@link PriorForks}): each
 * sitting a real {@link BenchRunner} run on a fake target, its rows appended to one results.csv as {@code ./lab
 * bench} appends them, and the next sitting continues only the same cells under the same command.
 */
class PriorForksTest {

    private static final List<String> COMMAND = List.of("--preset", "database", "--out", "results/db");

    private static Cell cell(int clients) {
        return new Cell("database", Strategy.SCOPE_FORK, "virtual", null, null, List.of(), clients, 200, "", null, 400,
                null, 1, 2, 20);
    }

    private final List<Cell> cells = List.of(cell(10), cell(20));

    @Test
    void aSecondSittingNumbersItsForksAfterTheFirstsAndTheReportJoinsThemAll(@TempDir Path dir) throws Exception {
        assertThat(PriorForks.read(dir, cells, COMMAND)).isSameAs(PriorForks.NONE);
        sitting(dir, cells, 1, 0);

        PriorForks prior = PriorForks.read(dir, cells, Stream.concat(Stream.of("--forks", "2"), COMMAND.stream()
                .map(a -> a.equals("results/db") ? "/elsewhere/db" : a)).toList());
        assertThat(prior.count()).isEqualTo(1);
        assertThat(prior.sittings()).containsExactly("Sitting 1, fork 1: Command: `./lab bench --preset database"
                + " --out results/db`; Machine: 2 cores; Load average (1/5/15 min) before: 0.1, after: 1.9");

        List<CellResult> joined = prior.joined(sitting(dir, cells, 2, prior.count()));
        assertThat(joined).hasSize(2).allSatisfy(r -> {
            assertThat(r.forks()).isEqualTo(3);
            assertThat(r.repetitions()).extracting(Repetition::fork).containsExactlyInAnyOrder(1, 1, 2, 2, 3, 3);
            assertThat(r.samples(rep -> rep.run().throughput())).hasSize(3);
        });
        assertThat(joined.getFirst().cell()).as("the sitting's own cell, not the one read back").isEqualTo(cell(10));
        assertThat(ResultsCsv.read(dir)).allSatisfy(r -> assertThat(r.forks()).isEqualTo(3));
        // a continued report's sitting lines are what the third sitting carries on
        String one = PriorForks.sitting(1, 1, 1, "./lab bench --preset quick", "Machine: 2 cores",
                "before: 1, after: 2");
        String two = PriorForks.sitting(2, 2, 3, "./lab bench " + String.join(" ", COMMAND), "Machine: 2 cores",
                "before: 1, after: 2");
        report(dir, one, two);
        assertThat(two).startsWith("Sitting 2, forks 2–3: Command: `./lab bench --preset database");
        assertThat(PriorForks.read(dir, cells, COMMAND).sittings()).containsExactly(one, two);
        // the last sitting's command is the one to match
        assertThatThrownBy(() -> PriorForks.read(dir, cells, List.of("--preset", "quick")))
                .hasMessageContaining("not of this command");
    }

    @Test
    void anotherCommandOrOtherCellsAreRefusedWithTheFix(@TempDir Path dir) throws Exception {
        sitting(dir, cells, 1, 0);
        assertThatThrownBy(() -> PriorForks.read(dir, cells, List.of("--preset", "quick", "--out", "results/db")))
                .hasMessageContaining("holds the forks of `./lab bench --preset database --out results/db`")
                .hasMessageContaining("give a new --out");
        assertThatThrownBy(() -> PriorForks.read(dir, List.of(cell(10), cell(30)), COMMAND))
                .hasMessageContaining("cell 2 was database: scopeFork virtual c=20")
                .hasMessageContaining("this run's is database: scopeFork virtual c=30");
        assertThatThrownBy(() -> PriorForks.read(dir, List.of(cell(10)), COMMAND))
                .hasMessageContaining("holds 2 cells where this run has 1 (the matrix changed?)");
        Files.delete(dir.resolve("results.md"));
        assertThatThrownBy(() -> PriorForks.read(dir, cells, COMMAND)).hasMessageContaining("without the"
                + " results.md that names its command");
    }

    @Test
    void aStoppedRoundIsNotContinued(@TempDir Path first, @TempDir Path second) throws Exception {
        sitting(first, List.of(cell(10)), 1, 0);   // the first fork stopped after one cell
        assertThatThrownBy(() -> PriorForks.read(first, cells, COMMAND))
                .hasMessageContaining("holds 1 cells where this run has 2 (its first fork was stopped)");

        sitting(second, cells, 1, 0);
        sitting(second, List.of(cell(10)), 1, 1);   // the second fork stopped after one cell
        assertThatThrownBy(() -> PriorForks.read(second, cells, COMMAND))
                .hasMessageContaining("last round is incomplete (cell 2 holds 1 of 2 forks)");
    }

    @Test
    void aTailsSlowShareSpansItsSittings(@TempDir Path dir) throws Exception {
        // 10 of each run's 400 answers past the slow threshold (200 + 1,000 ÷ 2 ms): 2.5 % in every fork
        Histogram latencies = new Histogram(3);
        latencies.recordValueWithCount(60_000, 390);
        latencies.recordValueWithCount(1_060_000, 10);
        List<Cell> tail = List.of(new Cell("tail", Strategy.SCOPE_FORK, "virtual", null, null, List.of(), 8, 200,
                "width=1&tailRate=0.01&tailMs=1000", null, 400, null, 1, 2, 20));
        sitting(dir, tail, 1, 0, latencies);
        PriorForks prior = PriorForks.read(dir, tail, COMMAND);
        CellResult joined = prior.joined(sitting(dir, tail, 1, prior.count(), latencies)).getFirst();
        assertThat(joined.forks()).isEqualTo(2);
        assertThat(joined.slowShare().orElseThrow()[1]).as("40 of 1,600 answers").isEqualTo(0.025);
        assertThat(ResultsCsv.read(dir).getFirst().slowShare().orElseThrow()).containsExactly(joined.slowShare()
                .orElseThrow());
    }

    /**
     * The earlier forks come back from results.json as measured where it holds them all, so that a preset spread over
     * sittings keeps every histogram whole; from results.csv (five percentiles, marked) where it does not.
     */
    @Test
    void theEarlierForksComeBackLosslessFromResultsJson(@TempDir Path dir) throws Exception {
        List<CellResult> first = sitting(dir, cells, 1, 0);
        assertThat(histograms(PriorForks.read(dir, cells, COMMAND))).as("from results.csv")
                .allMatch(h -> DriverRun.FROM_PERCENTILES.equals(h.getTag()));

        ResultsJson.write(dir, new RunResult("./lab bench " + String.join(" ", COMMAND), "c0ffee",
                new RunResult.Machine("cpu", 2, "8 GB", "linux", "25", List.of(), "h", "a", "0", "0"),
                new RunResult.Knobs("database", "fake", "hey", 1, Map.of(), List.of(), false, "all"), first));
        assertThat(histograms(PriorForks.read(dir, cells, COMMAND))).as("from results.json").isNotEmpty()
                .allMatch(h -> h.getTag() == null);

        sitting(dir, cells, 1, 1);   // a second sitting whose JVM died before it wrote results.json
        assertThat(histograms(PriorForks.read(dir, cells, COMMAND))).as("results.json a sitting behind")
                .allMatch(h -> DriverRun.FROM_PERCENTILES.equals(h.getTag()));
    }

    private static List<Histogram> histograms(PriorForks prior) {
        return prior.cells().stream().flatMap(c -> c.repetitions().stream()).map(r -> r.run().latencyMicros()).toList();
    }

    private static List<CellResult> sitting(Path dir, List<Cell> cells, int forks, int prior) throws Exception {
        return sitting(dir, cells, forks, prior, new Histogram(3));
    }

    /** One sitting as ./lab bench runs it: rows appended to results.csv, then results.md. */
    private static List<CellResult> sitting(Path dir, List<Cell> cells, int forks, int prior, Histogram latencies)
            throws Exception {
        ResultsCsv csv = new ResultsCsv(dir.resolve("results.csv"), "local", "hey");
        List<CellResult> run = new BenchRunner(FakeRuns.target(new ArrayList<>(), c -> false),
                FakeRuns.steadyDriver(latencies), null, dir.resolve("raw"), System.out, csv::append, forks, prior)
                .run(cells);
        report(dir, "Command: `./lab bench " + String.join(" ", COMMAND) + "`", "Machine: 2 cores",
                "Load average (1/5/15 min) before: 0.1, after: 1.9");
        return run;
    }

    private static void report(Path dir, String... intro) throws IOException {
        Files.writeString(dir.resolve("results.md"), "# fanout-lab benchmark: database\n\n"
                + String.join("  \n", intro) + "  \nTarget: fake\n\n## database\n");
    }
}
