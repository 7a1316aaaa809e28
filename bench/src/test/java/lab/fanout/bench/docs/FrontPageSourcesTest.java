package lab.fanout.bench.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The front page's figures that come from no results CSV, computed anew from their sources: the faults preset's
 * tables in docs/reliability.md (time to answer when a sibling fails and the others take 600 ms) and the strategies'
 * source files (their lines). {@link ReadmeFiguresTest} checks the figures that have a CSV.
 */
class FrontPageSourcesTest {

    private static final Path STRATEGIES = Path.of("main-service/src/main/java/lab/fanout/main/strategy");
    /** A table row of the faults preset: {@code | strategy | answer | time to answer (ms, median) | ...}. */
    private static final Pattern FAULT_ROW = Pattern.compile("^\\| (\\w+) \\| \\d{3} \\| (\\d+) \\|",
            Pattern.MULTILINE);

    @Test
    void theFaultsRowReadsAsTheFaultsTablesGiveIt() throws IOException {
        String reliability = Files.readString(DocLinksTest.ROOT.resolve("docs/reliability.md"));
        String cancelling = range(fastFailTimes(reliability, "scopeFork|reactive"));
        String awaiting = range(fastFailTimes(reliability, "completableFuture\\w*"));
        assertThat(readme()).contains(cancelling + " ms to the answer against " + awaiting
                + " ms for the CompletableFuture strategies");
    }

    @Test
    void theCodeRowCountsTheStrategiesLines() throws IOException {
        String scope = "`StructuredScopeStrategy.java` " + lines("StructuredScopeStrategy.java") + " lines ("
                + codeLines("StructuredScopeStrategy.java") + " of code)";
        String reactive = "`ReactiveStrategy.java` " + lines("ReactiveStrategy.java") + " ("
                + codeLines("ReactiveStrategy.java") + ")";
        assertThat(readme()).contains(scope).contains(reactive);
    }

    /** The check itself: the 600 ms sections only, the strategies asked for only. */
    @Test
    void onlyTheSixHundredMillisecondSectionsCount() {
        String doc = """
                #### orders fails at once (500), products and accounts take 600 ms
                | sequential | 502 | 22 | 1.0 |
                | scopeFork | 502 | 53 | 3.0 |
                | completableFuture | 502 | 1291 | 3.0 |
                #### orders answers after 5 s, past the 2 s deadline; the others take 100 ms
                | completableFuture | 504 | 2009 | 1.0 |
                """;
        assertThat(fastFailTimes(doc, "completableFuture\\w*")).containsExactly(1291);
        assertThat(fastFailTimes(doc, "scopeFork|reactive")).containsExactly(53);
    }

    /** @return the time to answer (ms) of each matching strategy's row in the sections whose siblings take 600 ms */
    static List<Integer> fastFailTimes(String doc, String strategies) {
        List<Integer> times = new ArrayList<>();
        for (String section : doc.split("\n(?=#### )")) {
            if (!section.startsWith("#### ") || !section.lines().findFirst().orElseThrow().endsWith("600 ms")) {
                continue;
            }
            Matcher m = FAULT_ROW.matcher(section);
            while (m.find()) {
                if (m.group(1).matches(strategies)) {
                    times.add(Integer.parseInt(m.group(2)));
                }
            }
        }
        assertThat(times).as("rows of " + strategies).isNotEmpty();
        return times;
    }

    private static String range(List<Integer> values) {
        int low = values.stream().min(Integer::compare).orElseThrow();
        int high = values.stream().max(Integer::compare).orElseThrow();
        return ReadmeFiguresTest.format(low, 0) + "–" + ReadmeFiguresTest.format(high, 0);
    }

    private static long lines(String file) throws IOException {
        return Files.readAllLines(DocLinksTest.ROOT.resolve(STRATEGIES).resolve(file)).size();
    }

    /** Lines of code: neither blank, nor a comment, nor {@code package} or {@code import}. */
    private static long codeLines(String file) throws IOException {
        return Files.readAllLines(DocLinksTest.ROOT.resolve(STRATEGIES).resolve(file)).stream()
                .map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("//") && !l.startsWith("/*") && !l.startsWith("*")
                        && !l.startsWith("package ") && !l.startsWith("import "))
                .count();
    }

    private static String readme() throws IOException {
        return Files.readString(DocLinksTest.ROOT.resolve("README.md"));
    }
}
