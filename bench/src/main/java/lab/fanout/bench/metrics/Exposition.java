package lab.fanout.bench.metrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
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
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher m = LINE.matcher(line);
            if (!m.find()) {
                continue;
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (m.group(2) != null) {
                Matcher l = LABEL.matcher(m.group(2));
                while (l.find()) {
                    labels.put(l.group(1), l.group(2));
                }
            }
            samples.add(new Sample(m.group(1), labels, value(m.group(3))));
        }
        return new Exposition(samples);
    }

    /**
     * @param labels label name to required value; others are summed over
     * @return the sum of the matching series, or empty when the metric is absent (never 0 for "absent")
     */
    public OptionalDouble sum(String name, Map<String, String> labels) {
        double sum = 0;
        boolean found = false;
        for (Sample s : samples) {
            if (s.name.equals(name) && s.labels.entrySet().containsAll(labels.entrySet())) {
                sum += s.value;
                found = true;
            }
        }
        return found ? OptionalDouble.of(sum) : OptionalDouble.empty();
    }

    public OptionalDouble sum(String name) {
        return sum(name, Map.of());
    }

    private static double value(String s) {
        return switch (s) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> Double.parseDouble(s);
        };
    }
}
