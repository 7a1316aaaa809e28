package lab.fanout.systemtests;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression selects. A small lexer, not a parser: promtool checks the syntax; this only
 * has to find the names, which are the identifiers left after removing strings, label matchers, ranges, grouping
 * clauses, function calls, keywords and numbers.
 */
final class PromqlNames {

    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'");
    private static final Pattern BRACES = Pattern.compile("\\{[^}]*}");
    private static final Pattern BRACKETS = Pattern.compile("\\[[^]]*]");
    private static final Pattern GROUPING =
            Pattern.compile("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "by", "without", "on", "ignoring",
            "group_left", "group_right", "offset", "bool", "atan2", "inf", "nan", "Inf", "NaN", "start", "end");

    private PromqlNames() {
    }

    static Set<String> of(String promql) {
        String s = STRING.matcher(promql).replaceAll(" ");
        s = BRACES.matcher(s).replaceAll(" ");
        s = BRACKETS.matcher(s).replaceAll(" ");
        s = GROUPING.matcher(s).replaceAll(" ");
        Set<String> names = new TreeSet<>();
        Matcher m = IDENTIFIER.matcher(s);
        while (m.find()) {
            boolean partOfNumber = m.start() > 0 && (Character.isDigit(s.charAt(m.start() - 1)) || s.charAt(m.start() - 1) == '.');
            boolean call = s.substring(m.end()).stripLeading().startsWith("(");
            if (!partOfNumber && !call && !KEYWORDS.contains(m.group())) {
                names.add(m.group());
            }
        }
        return names;
    }
}
