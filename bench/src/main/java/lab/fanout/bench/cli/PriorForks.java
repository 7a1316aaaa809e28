package lab.fanout.bench.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import lab.fanout.bench.model.Cell;
import lab.fanout.bench.model.CellResult;
import lab.fanout.bench.report.ResultsJson;

/**
 * The forks an earlier {@code ./lab bench} wrote to the same {@code --out}, which a run continues, so that a preset
 * longer than a sitting gets its forks in several (as the overload preset's): this run's forks are numbered after
 * them, its rows appended to their results.csv, and its report covers them all. Only whole rounds of the same cells
 * under the same command continue: a fork of other cells or knobs would be a sample of another population.
 *
 * @param count    forks in results.csv (each cell holds forks 1..count)
 * @param cells    their cells in run order, from results.json where it holds every fork, else from results.csv
 *                 ({@link ResultsJson#cells})
 * @param sittings the report's intro lines for the sittings before, one each: its forks, command, machine, load
 */
record PriorForks(int count, List<CellResult> cells, List<String> sittings) {

    static final PriorForks NONE = new PriorForks(0, List.of(), List.of());

    /** How a sitting's intro line begins; a continued results.md keeps the earlier ones by it. */
    static final String SITTING = "Sitting ";

    /** A sitting's command in its intro line: {@code Command: `./lab bench ARGS`}. */
    private static final Pattern COMMAND = Pattern.compile("Command: `\\./lab bench ([^`]*)`");

    /**
     * @param dir     the run's {@code --out}: its results.csv, and its results.md for the command and sittings (so a
     *                committed result's pair, copied in, continues too)
     * @param cells   this run's cells, in run order
     * @param command this run's {@code ./lab bench} arguments
     * @return {@link #NONE} when {@code dir} holds no results.csv
     * @throws IllegalArgumentException when {@code dir}'s forks came from another command (besides {@code --forks}
     *                                  and {@code --out}) or other cells, or end in an incomplete round; the message
     *                                  names the fix
     */
    static PriorForks read(Path dir, List<Cell> cells, List<String> command) {
        if (!Files.isRegularFile(dir.resolve("results.csv"))) {
            return NONE;
        }
        String fix = ": give a new --out, or add forks with the command that wrote it (only --forks may differ)";
        List<String> intro = intro(dir.resolve("results.md"));
        String earlier = intro.stream().map(COMMAND::matcher).filter(Matcher::find).map(m -> m.group(1))
                .reduce((first, last) -> last).orElse(null);
        if (earlier == null) {
            throw new IllegalArgumentException(dir + " holds a results.csv without the results.md that names its"
                    + " command" + fix);
        }
        if (!kept(List.of(earlier.split(" "))).equals(kept(command))) {
            throw new IllegalArgumentException(dir + " holds the forks of `./lab bench " + earlier + "`, not of this"
                    + " command" + fix);
        }
        List<CellResult> before = ResultsJson.cells(dir);
        requireSameCells(dir, before, cells, fix);
        int count = ResultsJson.forks(before);
        before.stream().filter(r -> r.forks() != count).findFirst().ifPresent(r -> {
            throw new IllegalArgumentException(dir + "'s last round is incomplete (cell " + r.index() + " holds "
                    + r.forks() + " of " + count + " forks): forks are whole rounds; give a new --out");
        });
        return new PriorForks(count, before, sittings(intro, count));
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
     * @param live this sitting's cells, in run order (fewer when it was stopped)
     * @return every cell with the earlier forks' repetitions and this sitting's, on this sitting's deployment (its
     *         JVM as main-service reported it, which results.csv does not keep); a cell it did not reach as before
     */
    List<CellResult> joined(List<CellResult> live) {
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

    /** The earlier report's sitting lines, or one made of its Command, Machine and Load average lines. */
    private static List<String> sittings(List<String> intro, int count) {
        List<String> kept = intro.stream().filter(l -> l.startsWith(SITTING)).toList();
        if (!kept.isEmpty()) {
            return kept;
        }
        return List.of(sitting(1, 1, count, after(intro, "Command: ").replaceAll("^`|`$", ""),
                "Machine: " + after(intro, "Machine: "), after(intro, "Load average (1/5/15 min) ")));
    }

    private static String after(List<String> lines, String prefix) {
        return lines.stream().filter(l -> l.startsWith(prefix)).map(l -> l.substring(prefix.length())).findFirst()
                .orElse("not recorded");
    }

    /** @return the lines under a results.md's title, up to the first blank one; none when there is no file */
    private static List<String> intro(Path markdown) {
        try {
            return Files.isRegularFile(markdown) ? Files.readAllLines(markdown).stream().skip(2)
                    .takeWhile(l -> !l.isBlank()).map(String::strip).toList() : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + markdown, e);
        }
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
