package lab.fanout.bench.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.IntStream;

import lab.fanout.bench.model.Cell;
import lab.fanout.bench.model.CellResult;
import lab.fanout.bench.model.RunResult;
import lab.fanout.bench.report.ResultsJson;
import lab.fanout.bench.system.Environment;

/**
 * The forks an earlier {@code ./lab bench} wrote to the same {@code --out}, which a run continues, so that a preset
 * longer than a sitting gets its forks in several (as the overload preset's): this run's forks are numbered after
 * them, its rows appended to their results.csv, and its report covers them all. Only whole rounds of the same cells
 * under the same command continue: a fork of other cells or knobs would be a sample of another population. Read from
 * the folder's results.json, which holds every finished cell and fork (written after each).
 *
 * @param count    forks in results.json (each cell holds forks 1..count)
 * @param cells    their cells in run order
 * @param sittings the sittings before, in order: their forks, command, commit and machine
 */
record PriorForks(int count, List<CellResult> cells, List<RunResult.Sitting> sittings) {

    static final PriorForks NONE = new PriorForks(0, List.of(), List.of());

    /** How a sitting's intro line begins in results.md. */
    static final String SITTING = "Sitting ";

    /**
     * @param dir     the run's {@code --out}: its results.json (so a committed result's NAME.json, copied in as
     *                results.json, continues too)
     * @param cells   this run's cells, in run order
     * @param command this run's {@code ./lab bench} arguments
     * @return {@link #NONE} when {@code dir} holds no results
     * @throws IllegalArgumentException when {@code dir}'s forks came from another command (besides {@code --forks}
     *                                  and {@code --out}) or other cells, end in an incomplete round, or have only a
     *                                  results.csv; the message names the fix
     */
    static PriorForks read(Path dir, List<Cell> cells, List<String> command) {
        Path json = dir.resolve(ResultsJson.FILE);
        if (!Files.isRegularFile(json)) {
            if (Files.isRegularFile(dir.resolve("results.csv"))) {
                throw new IllegalArgumentException(dir + " holds a results.csv without results.json (a run from before"
                        + " results.json, or one stopped in its first cell): its forks cannot be continued; give a"
                        + " new --out");
            }
            return NONE;
        }
        String fix = ": give a new --out, or add forks with the command that wrote it (only --forks may differ)";
        RunResult run = ResultsJson.read(json);
        String earlier = run.last().command().replaceFirst("^\\./lab bench ?", "");
        if (!kept(List.of(earlier.split(" "))).equals(kept(command))) {
            throw new IllegalArgumentException(dir + " holds the forks of `./lab bench " + earlier + "`, not of this"
                    + " command" + fix);
        }
        List<CellResult> before = run.cells();
        requireSameCells(dir, before, cells, fix);
        int count = ResultsJson.forks(before);
        before.stream().filter(r -> r.forks() != count).findFirst().ifPresent(r -> {
            throw new IllegalArgumentException(dir + "'s last round is incomplete (cell " + r.index() + " holds "
                    + r.forks() + " of " + count + " forks): forks are whole rounds; give a new --out");
        });
        return new PriorForks(count, before, run.sittings());
    }

    private static void requireSameCells(Path dir, List<CellResult> before, List<Cell> cells, String fix) {
        for (int i = 0; i < Math.min(before.size(), cells.size()); i++) {
            if (!key(before.get(i).cell()).equals(key(cells.get(i)))) {
                throw new IllegalArgumentException(dir + "'s cell " + (i + 1) + " was " + key(before.get(i).cell())
                        + " where this run's is " + key(cells.get(i)) + " (the matrix changed?)" + fix);
            }
        }
        if (before.size() != cells.size()) {
            throw new IllegalArgumentException(dir + " holds " + before.size() + " cells where this run has "
                    + cells.size() + (before.size() < cells.size() ? " (its first fork was stopped): forks are whole"
                    + " rounds; give a new --out" : " (the matrix changed?)" + fix));
        }
    }

    /**
     * @param live    this sitting's cells, in run order (fewer when it was stopped)
     * @param command this sitting's command as typed; commit and machine its own
     * @return the run so far, as results.json holds it: the sittings before and this one, every cell with their
     *         forks and this sitting's
     */
    RunResult run(List<CellResult> live, String command, String commit, RunResult.Machine machine,
                  RunResult.Knobs knobs) {
        List<CellResult> all = joined(live);
        List<RunResult.Sitting> every = new ArrayList<>(sittings);
        every.add(new RunResult.Sitting(count + 1, Math.max(count + 1, ResultsJson.forks(all)), command, commit,
                machine));
        return new RunResult(null, every, knobs, all);
    }

    /**
     * @param live this sitting's cells, in run order (fewer when it was stopped)
     * @return every cell with the earlier forks' repetitions and this sitting's, on this sitting's deployment (its
     *         JVM as main-service reported it, which results.csv does not keep); a cell it did not reach as before
     */
    List<CellResult> joined(List<CellResult> live) {
        if (count == 0) {
            return live;
        }
        List<CellResult> all = new ArrayList<>();
        for (int i = 0; i < cells.size(); i++) {
            all.add(i < live.size() ? live.get(i).merge(cells.get(i)) : cells.get(i));
        }
        return all;
    }

    /** @return the intro line of the sitting that ran forks {@code first}..{@code last} */
    static String sitting(int number, int first, int last, String command, String machine, String load) {
        return String.format(Locale.ROOT, "%s%d, fork%s: Command: `%s`; %s; Load average (1/5/15 min) %s", SITTING,
                number, first == last ? " " + first : "s " + first + "–" + last, command, machine, load);
    }

    /** @return results.md's intro line of each sitting before, as {@link #sitting} writes it */
    List<String> introLines() {
        return IntStream.range(0, sittings.size()).mapToObj(i -> {
            RunResult.Sitting s = sittings.get(i);
            return sitting(i + 1, s.firstFork(), s.lastFork(), s.command(), Environment.summary(s.machine(),
                    s.commit()), "before: " + s.machine().loadAverageBefore() + ", after: "
                    + s.machine().loadAverageAfter());
        }).toList();
    }

    /** @return the arguments without {@code --forks} and {@code --out} (each with its value) and {@code --dry-run} */
    private static List<String> kept(List<String> args) {
        List<String> kept = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--forks") || a.equals("--out")) {
                i++;
            } else if (!a.startsWith("--forks=") && !a.startsWith("--out=") && !a.equals("--dry-run") && !a.isEmpty()) {
                kept.add(a);
            }
        }
        return kept;
    }

    /**
     * @return what makes a cell the same population, of what results.csv keeps as the cell asked it (Tomcat's
     *         threads and the HTTP pool it keeps as main-service reported them, a default as its number, so the
     *         command check stands for those), its repetitions and timeouts
     */
    private static String key(Cell c) {
        return String.join(" ", c.block() + ":", c.strategy().toString(), c.profile(), "c=" + c.concurrency(),
                "latency=" + c.latencyMs() + "ms", "db-pool=" + Objects.toString(c.dbPool(), "none"),
                Objects.toString(c.ordersStore(), "memory"), "rate=" + Objects.toString(c.ratePerSecond(), "closed"),
                "?" + c.query(), "orders-jvm=" + c.ordersJvmOptions(), "warmup=" + c.warmupSeconds() + "s",
                "repetitions=" + c.repetitions(), "timeout=" + c.timeoutSeconds() + "s");
    }
}
