package lab.fanout.bench.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import lab.fanout.bench.model.Stats;
import lab.fanout.bench.model.TestCells;
import lab.fanout.bench.model.TestCells.Rep;
import lab.fanout.bench.report.Comparison;
import lab.fanout.bench.report.ResultsJson;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.core.type.TypeReference;
import tools.jackson.dataformat.yaml.YAMLMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's front-page figures against the committed results they come from: docs/front-page-figures.yaml names
 * each figure's text, result (NAME.csv, read as its NAME.json), column and cells; the figure is computed anew as
 * {@code ./lab compare} reads a cell (Comparison.cellMedians: per cell, the median over forks of each fork's
 * repetitions' median) and must read exactly as the README says, so that a table or a finding cannot drift from its
 * data, nor the README from compare. The overload preset's figures come from its overload.csv until overload is a
 * kind of cell of the one result model.
 */
class ReadmeFiguresTest {

    /**
     * A figure of the README: its exact text, and where it comes from. With {@code count} (a value, or ">0") the
     * figure is "k of n": the matching rows (forks) whose column holds that value, of all matching rows.
     */
    record Claim(String text, String csv, String column, Map<String, List<String>> where, String count) {
        Claim(String text, String csv, String column, Map<String, List<String>> where) {
            this(text, csv, column, where, null);
        }
    }

    private static final Pattern K_OF_N = Pattern.compile("\\d+ of \\d+");

    private static final Pattern NUMBER = Pattern.compile("(?<![\\p{L}\\d])\\d+(?:,\\d{3})*(?:\\.\\d+)?");
    /** An overload.csv's cell: OverloadCell's columns. */
    private static final List<String> OVERLOAD_CELL = List.of("profile", "admission", "strategy", "shape");

    @Test
    void everyFigureReadsAsItsResultsGiveIt() throws IOException {
        String readme = Files.readString(DocLinksTest.ROOT.resolve("README.md"));
        List<Claim> claims = claims(DocLinksTest.ROOT.resolve("docs/front-page-figures.yaml"));
        assertThat(claims).as("claims").hasSizeGreaterThan(10);
        List<String> wrong = new ArrayList<>();
        for (Claim claim : claims) {
            String computed = render(claim, Arrays.stream(claim.csv().split(" "))
                    .map(DocLinksTest.ROOT.resolve("docs/results")::resolve).toList());
            if (!computed.equals(claim.text())) {
                wrong.add("'" + claim.text() + "': " + claim.csv() + " gives '" + computed + "'");
            } else if (!readme.contains(claim.text())) {
                wrong.add("'" + claim.text() + "' is not in README.md");
            }
        }
        assertThat(wrong).as("figures the README gets wrong").isEmpty();
    }

    /** The check itself: a figure one off its results fails, with both readings. */
    @Test
    void aFigureItsResultsDoNotGiveIsFound(@TempDir Path dir) {
        // scopeFork on the virtual profile: fork medians 102, 110 and 90, so 102; reactive 1,500.4; reactive platform 7
        TestCells.write(dir, "r", TestCells.cell("scopeFork", "virtual").rep(Rep.of(1, 100)).rep(Rep.of(1, 104))
                        .rep(Rep.of(2, 110)).rep(Rep.of(3, 90)), TestCells.cell("reactive", "virtual").forks(1500.4),
                TestCells.cell("reactive", "platform").forks(7));
        Path csv = dir.resolve("r.csv");   // a claim names NAME.csv; its NAME.json is read
        moveUp(dir, "r");
        Claim range = new Claim("102–1,500 req/s", "r.csv", "throughput_req_per_s",
                Map.of("profile", List.of("virtual")));
        assertThat(render(range, List.of(csv))).isEqualTo("102–1,500 req/s");
        assertThat(render(new Claim("101–1,500 req/s", "r.csv", "throughput_req_per_s",
                Map.of("profile", List.of("virtual"))), List.of(csv))).isEqualTo("102–1,500 req/s");
        assertThat(render(new Claim("b 7.0", "r.csv", "throughput_req_per_s", Map.of("strategy", List.of("reactive"),
                "profile", List.of("platform"))), List.of(csv))).isEqualTo("b 7.0");
    }

    /** A count claim reads k of n over the matching forks: the README's "OutOfMemoryError in 3 of 3" for
     * thread-per-task (which died with no OutOfMemoryError line) reads 0 of 3 from the committed overload CSV. */
    @Test
    void aCountItsCsvDoesNotGiveIsFound() {
        Claim old = new Claim("thread-per-task died of OutOfMemoryError in 3 of 3 forks",
                "overload-virtual-forks3-20261127.csv", "oom_errors", Map.of("admission", List.of("off"),
                "shape", List.of("10x"), "strategy", List.of("completableFutureWithThreadTaskExecutor")), ">0");
        assertThat(render(old, List.of(DocLinksTest.ROOT.resolve("docs/results").resolve(old.csv()))))
                .isEqualTo("thread-per-task died of OutOfMemoryError in 0 of 3 forks");
    }

    /** Runs of one matrix join fork by fork: fork 1 of one and fork 1 of the other are two samples, not one. */
    @Test
    void forksOfSeveralRunsJoin(@TempDir Path dir) {
        TestCells.write(dir, "a", TestCells.cell("scopeFork", "virtual").forks(100, 110));
        TestCells.write(dir, "b", TestCells.cell("scopeFork", "virtual").forks(130));
        moveUp(dir, "a");
        moveUp(dir, "b");
        Claim claim = new Claim("x 0 req/s", "a.csv b.csv", "throughput_req_per_s", Map.of());
        // the median of 100, 110 and 130; keyed by fork alone, forks 1 pool (100, 130 → 115): 112.5, "x 113 req/s"
        assertThat(render(claim, List.of(dir.resolve("a.csv"), dir.resolve("b.csv")))).isEqualTo("x 110 req/s");
    }

    /** Makes {@code dir/name/results.json} the committed form {@code dir/name.json}. */
    private static void moveUp(Path dir, String name) {
        try {
            Files.move(dir.resolve(name).resolve(ResultsJson.FILE), dir.resolve(name + ".json"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<Claim> claims(Path yaml) throws IOException {
        return new YAMLMapper().readValue(yaml.toFile(), new TypeReference<List<Claim>>() { });
    }

    /**
     * @param csvs the claim's results: runs of one matrix, whose forks join (a fork is its run and number), read as
     *             {@code ./lab compare} reads them (their NAME.json, {@link Comparison#cellMedians}); or the overload
     *             preset's overload.csv, not yet a kind of cell of the one result model
     * @return the claim's text with its number or range replaced by what the results give, at the text's decimals
     * @throws IllegalArgumentException when no row matches, or the text holds no number
     */
    static String render(Claim claim, List<Path> csvs) {
        if (claim.count() != null) {
            return renderCount(claim, csvs);
        }
        Collection<Double> cells = Files.isRegularFile(ResultsJson.beside(csvs.getFirst()))
                ? Comparison.cellMedians(csvs, claim.column(), row -> matches(row, claim.where())).values()
                : overloadMedians(claim, csvs);
        if (cells.isEmpty()) {
            throw new IllegalArgumentException(claim.csv() + ": no row matches " + claim.where());
        }
        List<Double> medians = cells.stream().sorted().toList();
        Matcher m = NUMBER.matcher(claim.text());
        if (!m.find()) {
            throw new IllegalArgumentException("'" + claim.text() + "' holds no number");
        }
        int decimals = m.group().contains(".") ? m.group().length() - m.group().indexOf('.') - 1 : 0;
        String low = format(medians.get(0), decimals);
        String high = format(medians.get(medians.size() - 1), decimals);
        String figure = low.equals(high) ? low : low + "–" + high;
        int end = claim.text().startsWith("–", m.end()) && NUMBER.matcher(claim.text()).region(m.end() + 1,
                claim.text().length()).lookingAt() ? endOfRange(claim.text(), m.end() + 1) : m.end();
        return claim.text().substring(0, m.start()) + figure + claim.text().substring(end);
    }

    /** @return per overload cell (its strategy, profile and knobs), the median over forks of the column */
    private static Collection<Double> overloadMedians(Claim claim, List<Path> csvs) {
        Map<String, Map<String, List<Double>>> forks = new LinkedHashMap<>();
        for (Path csv : csvs) {
            for (Map<String, String> row : rows(csv)) {
                if (matches(row, claim.where()) && !row.get(claim.column()).isEmpty()) {
                    String cell = OVERLOAD_CELL.stream().map(row::get).collect(Collectors.joining("|"));
                    forks.computeIfAbsent(cell, k -> new LinkedHashMap<>())
                            .computeIfAbsent(csv + "#" + row.get("fork"), k -> new ArrayList<>())
                            .add(Double.parseDouble(row.get(claim.column())));
                }
            }
        }
        return forks.values().stream().map(samples -> Stats.median(samples.values().stream().map(Stats::median)
                .toList())).toList();
    }

    /** @return the claim's text with its "k of n" replaced by what the CSVs give */
    private static String renderCount(Claim claim, List<Path> csvs) {
        List<String> values = csvs.stream().flatMap(csv -> rows(csv).stream())
                .filter(row -> matches(row, claim.where())).map(row -> row.get(claim.column())).toList();
        if (values.isEmpty()) {
            throw new IllegalArgumentException(claim.csv() + ": no row matches " + claim.where());
        }
        long k = values.stream().filter(v -> claim.count().equals(">0")
                ? !v.isEmpty() && Double.parseDouble(v) > 0 : v.equals(claim.count())).count();
        Matcher m = K_OF_N.matcher(claim.text());
        if (!m.find()) {
            throw new IllegalArgumentException("'" + claim.text() + "' holds no 'k of n'");
        }
        return claim.text().substring(0, m.start()) + k + " of " + values.size() + claim.text().substring(m.end());
    }

    /** @return the overload preset's overload.csv's rows, column name to value */
    private static List<Map<String, String>> rows(Path csv) {
        try (var in = Files.newBufferedReader(csv)) {
            return CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(in).stream()
                    .map(CSVRecord::toMap).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + csv, e);
        }
    }

    private static int endOfRange(String text, int from) {
        Matcher m = NUMBER.matcher(text).region(from, text.length());
        m.lookingAt();
        return m.end();
    }

    private static boolean matches(Map<String, String> row, Map<String, List<String>> where) {
        return where.entrySet().stream().allMatch(w -> row.containsKey(w.getKey())
                && w.getValue().stream().map(String::valueOf).anyMatch(row.get(w.getKey())::equals));
    }

    /** @return e.g. 1,254 or 0.64: half up at the decimals, thousands separated by commas */
    static String format(double value, int decimals) {
        BigDecimal rounded = BigDecimal.valueOf(value).setScale(decimals, RoundingMode.HALF_UP);
        return String.format(Locale.ROOT, "%,." + decimals + "f", rounded);
    }
}
