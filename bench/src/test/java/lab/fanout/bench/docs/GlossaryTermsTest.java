package lab.fanout.bench.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every term of the README's first screen (the lines before "Two commands") is in docs/glossary.md: each `code` term
 * but commands and file names, and each "quoted" term, so that a reader who reads only the first screen can look up
 * what it says.
 */
class GlossaryTermsTest {

    private static final Pattern CODE = Pattern.compile("`([^`]+)`");
    private static final Pattern QUOTED = Pattern.compile("\"([^\"]{1,40})\"");

    @Test
    void everyFirstScreenTermIsInTheGlossary() throws IOException {
        String readme = Files.readString(DocLinksTest.ROOT.resolve("README.md"));
        String firstScreen = readme.substring(0, readme.indexOf("## Two commands"));
        String glossary = Files.readString(DocLinksTest.ROOT.resolve("docs/glossary.md")).toLowerCase(Locale.ROOT);
        List<String> missing = terms(firstScreen).stream()
                .filter(t -> !glossary.contains(t.toLowerCase(Locale.ROOT))).toList();
        assertThat(missing).as("first-screen terms docs/glossary.md does not hold").isEmpty();
    }

    /** The check itself: commands and file names are not terms; a term is looked up as written, in its marks. */
    @Test
    void termsAreCodeAndQuotedPhrasesButNotCommandsOrFiles() {
        assertThat(terms("run `./lab bench` on `Foo.java` with `hey`; \"the cores bind\" and "
                + "[`x.md`](x.md) ~")).containsExactly("`hey`", "\"the cores bind\"");
    }

    /** @return the text's code terms (in backticks) and quoted terms (in quotes), in order, each once */
    static Set<String> terms(String text) {
        Set<String> terms = new LinkedHashSet<>();
        Matcher code = CODE.matcher(text);
        while (code.find()) {
            String t = code.group(1);
            if (!t.startsWith("./") && !t.matches(".*\\.(java|md|png|yaml|csv)")) {
                terms.add("`" + t + "`");
            }
        }
        Matcher quoted = QUOTED.matcher(text.replaceAll("<img[^>]*>", ""));
        while (quoted.find()) {
            terms.add("\"" + quoted.group(1) + "\"");
        }
        return terms;
    }
}
