package lab.fanout.bench.metrics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The samples of one Prometheus text-format scrape ({@code /actuator/prometheus}, format 0.0.4): enough of the format
 * for Micrometer's output (no escaped quotes in the label values we read, no timestamps).
 */
public record Exposition(List<Sample> samples) {

    /** One line: {@code name{label="value",...} value}. */
    public record Sample(String name, Map<String, String> labels, double value) {
    }

    private static final Pattern LINE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})?\\s+(\\S+)");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    public static Exposition parse(String text) {
        List<Sample> samples = new ArrayList<>();
        for (String line : text.split("\n")) {
            Matcher m = LINE.matcher(line);   // comments (#) and blank lines do not match
            if (m.find()) {
                Map<String, String> labels = new HashMap<>();
                LABEL.matcher(m.group(2) == null ? "" : m.group(2)).results()
                        .forEach(l -> labels.put(l.group(1), l.group(2)));
                // Java spells +Inf and -Inf as +Infinity and -Infinity; NaN alike
                samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(3).replace("Inf", "Infinity"))));
            }
        }
        return new Exposition(samples);
    }

    /**
     * @param labels label name to required value; others are summed over
     * @return the sum of the matching series, or empty when the metric is absent (never 0 for "absent")
     */
    public OptionalDouble sum(String name, Map<String, String> labels) {
        List<Sample> matching = samples.stream()
                .filter(s -> s.name.equals(name) && s.labels.entrySet().containsAll(labels.entrySet())).toList();
        return matching.isEmpty() ? OptionalDouble.empty()
                : OptionalDouble.of(matching.stream().mapToDouble(Sample::value).sum());
    }

    public OptionalDouble sum(String name) {
        return sum(name, Map.of());
    }
}
