package lab.fanout.systemtests;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Does a PromQL expression keep the label that tells main-service's variants apart? k8s/ deploys main-service three times
 * ({@code application} = main-service-platform, main-service-virtual and main-service-netty, each in its own pods); an
 * aggregation that drops both {@code application} and {@code pod} adds the variants' series into one line (issue 22). A lexer,
 * not a parser (promtool checks the syntax): it finds every aggregation operator and every vector matching clause.
 * <ul>
 * <li>{@code sum by (application, strategy) (...)}, {@code sum(...) by (pod)}, {@code sum without (le) (...)}: kept;</li>
 * <li>{@code sum(...)}, {@code sum by (strategy) (...)}, {@code max without (application, pod) (...)}: dropped;</li>
 * <li>{@code a / on (strategy) b}, {@code a or on (strategy) b}: {@code on} keeps (one-to-one) or matches only the
 * labels it names, so it must name one of them; {@code ignoring (application)} drops it.</li>
 * </ul>
 */
final class VariantLabels {

    /** Either label names the variant: application is Micrometer's tag, pod the Kubernetes pod (cAdvisor's series). */
    static final Set<String> VARIANT_LABELS = Set.of("application", "pod");

    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'");
    private static final Pattern AGGREGATION = Pattern.compile("\\b(sum|min|max|avg|group|stddev|stdvar|count"
            + "|count_values|bottomk|topk|quantile|limitk|limit_ratio)\\s*(?:(by|without)\\s*\\(([^)]*)\\)\\s*)?\\(");
    private static final Pattern TRAILING_CLAUSE = Pattern.compile("\\G\\s*(by|without)\\s*\\(([^)]*)\\)");
    private static final Pattern MATCHING = Pattern.compile("\\b(on|ignoring)\\s*\\(([^)]*)\\)");

    private VariantLabels() {
    }

    /**
     * @param promql an expression with Grafana's variables substituted or not (they sit inside strings and ranges)
     * @return one line per aggregation or matching clause that loses both variant labels, e.g.
     *         {@code "sum by (strategy): keeps neither application nor pod"}; empty when every one keeps one
     */
    static List<String> dropped(String promql) {
        String s = STRING.matcher(promql).replaceAll(m -> "\"" + "_".repeat(m.group().length() - 2) + "\"");
        List<String> problems = new ArrayList<>();
        Matcher m = AGGREGATION.matcher(s);
        while (m.find()) {
            String kind = m.group(2);
            String labels = m.group(3);
            if (kind == null) {   // the clause may follow the argument: sum(x) by (a)
                Matcher trailing = TRAILING_CLAUSE.matcher(s);
                if (trailing.find(closingParen(s, m.end() - 1) + 1)) {
                    kind = trailing.group(1);
                    labels = trailing.group(2);
                }
            }
            String clause = kind == null ? m.group(1) + "(...)" : m.group(1) + " " + kind + " (" + labels.strip() + ")";
            if (kind == null || !keeps(kind, labels)) {
                problems.add(clause + ": keeps neither application nor pod");
            }
        }
        Matcher on = MATCHING.matcher(s);
        while (on.find()) {
            if (!keeps(on.group(1).equals("on") ? "by" : "without", on.group(2))) {
                problems.add(on.group(1) + " (" + on.group(2).strip() + "): matches across variants");
            }
        }
        return problems;
    }

    private static boolean keeps(String kind, String labelList) {
        List<String> labels = Arrays.stream(labelList.split(",")).map(String::strip).toList();
        boolean named = labels.stream().anyMatch(VARIANT_LABELS::contains);
        return kind.equals("by") == named;
    }

    /** @return the index of the parenthesis closing the one at {@code open} (strings are already blanked out) */
    private static int closingParen(String s, int open) {
        int depth = 0;
        for (int i = open; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i;
            }
        }
        throw new IllegalArgumentException("unbalanced parentheses in " + s);
    }
}
