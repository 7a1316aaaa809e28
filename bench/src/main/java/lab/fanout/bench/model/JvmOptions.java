package lab.fanout.bench.model;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * JVM options for main-service ({@code ./lab up --jvm-option}, {@code ./lab bench --jvm-option}, a matrix's
 * {@code jvmOptions}): only system properties ({@code -D<name>=<value>}) and {@code -X}/{@code -XX:} options, one
 * option per value. Anything else (a Spring property, two options in one string, {@code -jar}) stops before a JVM
 * starts, with the fix in the message.
 */
public final class JvmOptions {

    /** The common ForkJoinPool's size: the {@code completableFuture} strategy's workers (its bound). */
    public static final String COMMON_POOL_PARALLELISM = "java.util.concurrent.ForkJoinPool.common.parallelism";

    private static final String HOW = "give one JVM option per value, -D<name>=<value>, -X<option> or -XX:<option>,"
            + " e.g. --jvm-option=-D" + COMMON_POOL_PARALLELISM + "=8 or --jvm-option=-XX:+UseZGC";

    private JvmOptions() {
    }

    /**
     * @return {@code options}, unchanged
     * @throws IllegalArgumentException for the first option that is not a -D, -X or -XX: option, saying how to write it
     */
    public static List<String> validated(List<String> options) {
        for (String o : options) {
            if (o == null || o.isBlank()) {
                throw new IllegalArgumentException("empty JVM option: " + HOW);
            }
            if (o.strip().contains(" ")) {
                throw new IllegalArgumentException("JVM option '" + o + "' holds a space: " + HOW
                        + " (several options: repeat --jvm-option, or list them)");
            }
            if (o.startsWith("--")) {
                throw new IllegalArgumentException("'" + o + "' is not a JVM option"
                        + (o.contains("=") && !o.startsWith("--enable") ? " (a Spring property? use --main-property KEY=VALUE with ./lab bench)" : "")
                        + ": " + HOW + " (--enable-preview is always set)");
            }
            boolean property = o.startsWith("-D") && o.length() > 2 && !o.startsWith("-D=");
            boolean x = (o.startsWith("-XX:") && o.length() > 4) || (o.startsWith("-X") && !o.startsWith("-XX") && o.length() > 2);
            if (!property && !x) {
                throw new IllegalArgumentException("'" + o + "' is not a JVM option the lab passes: " + HOW);
            }
        }
        return List.copyOf(options);
    }

    /** @return the common pool's parallelism these options set, if they set it (the last one wins, as in the JVM) */
    public static Optional<Integer> commonPoolParallelism(List<String> options) {
        return property(options, COMMON_POOL_PARALLELISM).flatMap(v -> {
            try {
                return Optional.of(Integer.parseInt(v.strip()));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        });
    }

    /** @return the last value of {@code -D<name>=...} in {@code options} */
    static Optional<String> property(List<String> options, String name) {
        String prefix = "-D" + name + "=";
        return options.reversed().stream().filter(o -> o.startsWith(prefix)).findFirst().map(o -> o.substring(prefix.length()));
    }

    /**
     * @return a short, file-name-safe tag, e.g. {@code common.parallelism4} for
     *         {@code -Djava.util.concurrent.ForkJoinPool.common.parallelism=4}, {@code UseZGC} for {@code -XX:+UseZGC},
     *         options joined by {@code _}; empty for no options
     */
    public static String tag(List<String> options) {
        return String.join("_", options.stream().map(JvmOptions::tag).toList());
    }

    /** The two scheduler families' property prefixes and their short names in chart labels. */
    private static final Map<String, String> LABEL_PREFIXES = Map.of(
            "-Djdk.virtualThreadScheduler.", "carriers",
            "-Djava.util.concurrent.ForkJoinPool.common.", "commonPool");

    /**
     * @return a label short enough for a chart axis, e.g. {@code carriers parallelism=1 maxPoolSize=1} for
     *         {@code -Djdk.virtualThreadScheduler.parallelism=1 -Djdk.virtualThreadScheduler.maxPoolSize=1},
     *         {@code commonPool parallelism=4}; other options as written; empty for no options
     */
    public static String label(List<String> options) {
        StringBuilder s = new StringBuilder();
        String family = null;
        for (String option : options) {
            String prefix = LABEL_PREFIXES.keySet().stream().filter(option::startsWith).findFirst().orElse(null);
            String name = prefix == null ? null : LABEL_PREFIXES.get(prefix);
            if (!s.isEmpty()) {
                s.append(' ');
            }
            if (name != null && !name.equals(family)) {
                s.append(name).append(' ');
            }
            s.append(prefix == null ? option : option.substring(prefix.length()));
            family = name;
        }
        return s.toString();
    }

    private static String tag(String option) {
        String t;
        if (option.startsWith("-D")) {
            String name = option.substring(2).split("=", 2)[0];
            String value = option.contains("=") ? option.substring(option.indexOf('=') + 1) : "";
            // the last two name segments: common.parallelism and virtualThreadScheduler.parallelism stay apart
            String[] parts = name.split("\\.");
            t = (parts.length > 1 ? parts[parts.length - 2] + "." : "") + parts[parts.length - 1] + value;
        } else {
            t = option.replaceFirst("^-XX:[+-]?", "").replaceFirst("^-", "");
        }
        String safe = t.replaceAll("[^A-Za-z0-9.]", "");
        return safe.isEmpty() ? "opt" : safe;
    }
}
