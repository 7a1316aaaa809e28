package lab.fanout.bench.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every relative link of the user docs (README.md, docs/, and the READMEs of k8s, grafana and the matrices) leads to a
 * file that exists and, with a {@code #fragment} into markdown, to a heading of that file, by GitHub's slug rule
 * (lowercase, punctuation but {@code -} and {@code _} dropped, spaces to {@code -}, a repeated heading suffixed
 * {@code -1}, {@code -2}). Links in fenced code are not links. Web links are not followed (no network here).
 */
class DocLinksTest {

    static final Path ROOT = Path.of("..");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

    @Test
    void everyRelativeLinkLeadsToAFileAndAHeading() {
        List<String> broken = new ArrayList<>();
        docs().forEach(doc -> links(doc).forEach(link -> {
            String problem = problem(doc, link);
            if (problem != null) {
                broken.add(ROOT.relativize(doc) + ": (" + link + ") " + problem);
            }
        }));
        assertThat(broken).as("broken links").isEmpty();
    }

    @Test
    void slugsFollowGitHubsRule() {
        assertThat(slugs(List.of("## The bound: Little's law", "### Failure modes per strategy (`./lab bench"
                + " --preset faults`)", "## Notes", "## Notes", "## 1,000 clients — the cliff"))).containsExactly(
                "the-bound-littles-law", "failure-modes-per-strategy-lab-bench---preset-faults", "notes", "notes-1",
                "1000-clients--the-cliff");
    }

    @Test
    void aBrokenLinkIsFound(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path doc = Files.writeString(dir.resolve("a.md"), "# A\n\n## Here\n");
        assertThat(problem(doc, "a.md#here")).isNull();
        assertThat(problem(doc, "#here")).isNull();
        assertThat(problem(doc, "a.md#there")).isEqualTo("names no heading of a.md");
        assertThat(problem(doc, "b.md")).isEqualTo("leads to no file");
    }

    static List<Path> docs() {
        List<Path> docs = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("k8s/README.md"),
                ROOT.resolve("grafana/README.md"), ROOT.resolve("bench/matrices/README.md")));
        try (Stream<Path> files = Files.walk(ROOT.resolve("docs"))) {
            files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(docs::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return docs;
    }

    /** @return the link targets outside fenced code, web links and mail left out */
    static List<String> links(Path doc) {
        List<String> links = new ArrayList<>();
        for (String line : prose(doc)) {
            Matcher m = LINK.matcher(line);
            while (m.find()) {
                if (!m.group(1).matches("^[a-z]+:.*")) {
                    links.add(m.group(1));
                }
            }
        }
        return links;
    }

    /** @return the file's lines outside fenced code */
    static List<String> prose(Path doc) {
        List<String> prose = new ArrayList<>();
        boolean fenced = false;
        for (String line : lines(doc)) {
            if (line.strip().startsWith("```")) {
                fenced = !fenced;
            } else if (!fenced) {
                prose.add(line);
            }
        }
        return prose;
    }

    /** @return why the link is broken, or null when it is not */
    static String problem(Path doc, String link) {
        int hash = link.indexOf('#');
        String file = hash < 0 ? link : link.substring(0, hash);
        Path target = file.isEmpty() ? doc : doc.getParent().resolve(file).normalize();
        if (!Files.exists(target)) {
            return "leads to no file";
        }
        if (hash < 0 || !target.toString().endsWith(".md")) {
            return null;
        }
        List<String> headings = prose(target).stream().filter(l -> l.matches("^#{1,6} .*")).toList();
        return slugs(headings).contains(link.substring(hash + 1)) ? null
                : "names no heading of " + target.getFileName();
    }

    /** @return GitHub's anchors of the headings, in order */
    static List<String> slugs(List<String> headings) {
        Map<String, Integer> seen = new HashMap<>();
        List<String> slugs = new ArrayList<>();
        for (String heading : headings) {
            String slug = heading.replaceFirst("^#+ ", "").strip().toLowerCase(Locale.ROOT)
                    .replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
            int n = seen.merge(slug, 1, Integer::sum) - 1;
            String unique = n == 0 ? slug : slug + "-" + n;
            slugs.add(unique);
        }
        return slugs;
    }

    static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
