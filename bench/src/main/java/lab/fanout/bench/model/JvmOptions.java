package lab.fanout.bench.model;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * main-service's JVM options ({@code --jvm-option}, a matrix's {@code jvmOptions}): only {@code -D<name>=<value>},
 * {@code -X} and {@code -XX:} options, one per value; anything else stops before a JVM starts, with the fix.
 */
public final class JvmOptions {

    /** The common ForkJoinPool's size: the completableFuture strategy's workers (its bound). */
    public static final String COMMON_POOL_PARALLELISM = "java.util.concurrent.ForkJoinPool.common.parallelism";

    private static final String HOW = "give one JVM option per value, -D<name>=<value>, -X<option> or -XX:<option>,"
            + " e.g. --jvm-option=-D" + COMMON_POOL_PARALLELISM + "=8 or --jvm-option=-XX:+UseZGC";
    /** The scheduler families' property prefixes and their short names in chart labels. */
    private static final Map<String, String> LABEL_PREFIXES = Map.of(
            "-Djdk.virtualThreadScheduler.", "carriers",
            "-Djava.util.concurrent.ForkJoinPool.common.", "commonPool");

    private JvmOptions() {
    }

    /**
     * @return {@code options}, unchanged
     * @throws IllegalArgumentException for the first option that is not a -D, -X or -XX: option, saying how to write
     *                                  it; for Native Memory Tracking without a fixed heap (-Xms = -Xmx)
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
                throw new IllegalArgumentException("'" + o + "' is not a JVM option" + (o.contains("=")
                        && !o.startsWith("--enable")
                        ? " (a Spring property? use --main-property KEY=VALUE with ./lab bench)"
                        : "") + ": " + HOW + " (--enable-preview is always set)");
            }
            boolean property = o.startsWith("-D") && o.length() > 2 && !o.startsWith("-D=");
            boolean x = o.startsWith("-XX:") && o.length() > 4
                    || o.startsWith("-X") && !o.startsWith("-XX") && o.length() > 2;
            if (!property && !x) {
                throw new IllegalArgumentException("'" + o + "' is not a JVM option the lab passes: " + HOW);
            }
        }
        if (options.stream().anyMatch(o -> o.startsWith("-XX:NativeMemoryTracking=")) && !fixedHeap(options)) {
            // a heap free to grow makes RSS and "heap after GC" measure its growth, not the requests in flight
            throw new IllegalArgumentException("memory figures need a fixed heap: with -XX:NativeMemoryTracking give"
                    + " -Xms and -Xmx the same value in the same options, e.g. -Xms1g -Xmx1g");
        }
        return List.copyOf(options);
    }

    /** @return whether the last -Xms and the last -Xmx are given and equal */
    private static boolean fixedHeap(List<String> options) {
        Optional<String> min = options.reversed().stream().filter(o -> o.startsWith("-Xms")).findFirst();
        Optional<String> max = options.reversed().stream().filter(o -> o.startsWith("-Xmx")).findFirst();
        return min.isPresent() && max.isPresent() && min.get().substring(4).equals(max.get().substring(4));
    }

    /** @return the common pool's parallelism these options set, if they do (the last one wins, as in the JVM) */
    public static Optional<Integer> commonPoolParallelism(List<String> options) {
        String prefix = "-D" + COMMON_POOL_PARALLELISM + "=";
        return options.reversed().stream().filter(o -> o.startsWith(prefix)).findFirst()
                .map(o -> o.substring(prefix.length()).strip()).filter(v -> v.matches("\\d{1,9}"))
                .map(Integer::valueOf);
    }

    /**
     * @return a short file-name-safe tag, options joined by {@code _}: {@code common.parallelism4} for
     *         {@code -Djava.util.concurrent.ForkJoinPool.common.parallelism=4}, {@code UseZGC} for {@code -XX:+UseZGC}
     */
    public static String tag(List<String> options) {
        return String.join("_", options.stream().map(JvmOptions::tag).toList());
    }

    /**
     * @return a label short enough for a chart axis: {@code carriers parallelism=1 maxPoolSize=1} for the two
     *         {@code -Djdk.virtualThreadScheduler.} options, {@code commonPool parallelism=4}; others as written
     */
    public static String label(List<String> options) {
        StringBuilder s = new StringBuilder();
        String family = null;
        for (String option : options) {
            String prefix = LABEL_PREFIXES.keySet().stream().filter(option::startsWith).findFirst().orElse(null);
            String name = prefix == null ? null : LABEL_PREFIXES.get(prefix);
            s.append(s.isEmpty() ? "" : " ").append(name != null && !name.equals(family) ? name + " " : "")
                    .append(prefix == null ? option : option.substring(prefix.length()));
            family = name;
        }
        return s.toString();
    }

    private static String tag(String option) {
        String t = option.replaceFirst("^-XX:[+-]?", "").replaceFirst("^-", "");
        if (option.startsWith("-D")) {
            String[] nameValue = option.substring(2).split("=", 2);
            String[] parts = nameValue[0].split("\\.");   // the last two segments keep the two schedulers apart
            t = (parts.length > 1 ? parts[parts.length - 2] + "." : "") + parts[parts.length - 1]
                    + (nameValue.length > 1 ? nameValue[1] : "");
        }
        String safe = t.replaceAll("[^A-Za-z0-9.]", "");
        return safe.isEmpty() ? "opt" : safe;
    }
}
