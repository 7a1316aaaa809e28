package lab.fanout.bench.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import lab.fanout.bench.model.Strategy;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The charts and tables name each strategy as docs/glossary.md's table does ({@link Strategy#proseName}). */
class GlossaryNamesTest {

    /** A row of the glossary's table: {@code | `?concurrency=` | prose name | ...}. */
    private static final Pattern ROW = Pattern.compile("^\\| `(\\w+)` \\| (?:the )?([^|]+?) \\|", Pattern.MULTILINE);

    @Test
    void everyStrategyCarriesTheGlossarysProseName() throws IOException {
        Matcher m = ROW.matcher(Files.readString(DocLinksTest.ROOT.resolve("docs/glossary.md")));
        Map<String, String> glossary = new java.util.LinkedHashMap<>();
        while (m.find()) {
            glossary.put(m.group(1), m.group(2));
        }
        assertThat(glossary).isEqualTo(Arrays.stream(Strategy.values())
                .collect(Collectors.toMap(Strategy::toString, Strategy::proseName, (a, b) -> a,
                        java.util.LinkedHashMap::new)));
    }
}
