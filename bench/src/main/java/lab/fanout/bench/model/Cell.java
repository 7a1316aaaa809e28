package lab.fanout.bench.model;

import java.util.List;
import java.util.Locale;

/**
 * One point of the matrix, measured {@code repetitions} times after a warm-up. A null knob means the service's default.
 *
 * @param block           the block (table) it belongs to
 * @param profile         main-service's request threads: virtual or platform
 * @param tomcatThreads   server.tomcat.threads.max
 * @param poolSize        fanout.pool.max-total and max-per-route
 * @param jvmOptions      main-service's JVM options (-D, -X, -XX:); empty = the JVM's defaults
 * @param concurrency     load driver clients
 * @param latencyMs       downstream latency per call, ms
 * @param ratePerSecond   open model: offered req/s; null = closed loop
 * @param requests        requests per repetition, or null to size them from the warm-up to last durationSeconds
 * @param durationSeconds target length of a repetition, s (when requests is null)
 * @param warmupSeconds   length of one unmeasured warm-up run, s
 * @param timeoutSeconds  per-request timeout of the driver, s
 */
public record Cell(String block, Strategy strategy, String profile, Integer tomcatThreads, Integer poolSize,
                   List<String> jvmOptions, int concurrency, int latencyMs, Double ratePerSecond, Integer requests,
                   Integer durationSeconds, int warmupSeconds, int repetitions, int timeoutSeconds) {

    public Cell {
        jvmOptions = jvmOptions == null ? List.of() : List.copyOf(jvmOptions);
    }

    /** A cell with the JVM's default options. */
    public Cell(String block, Strategy strategy, String profile, Integer tomcatThreads, Integer poolSize,
                int concurrency, int latencyMs, Double ratePerSecond, Integer requests, Integer durationSeconds,
                int warmupSeconds, int repetitions, int timeoutSeconds) {
        this(block, strategy, profile, tomcatThreads, poolSize, List.of(), concurrency, latencyMs, ratePerSecond,
                requests, durationSeconds, warmupSeconds, repetitions, timeoutSeconds);
    }

    /** @return e.g. {@code scopeFork virtual c=100 latency=200ms threads=200 pool=500 jvm=[-Dx=1]} */
    public String label() {
        return String.format(Locale.ROOT, "%s %s c=%d latency=%dms threads=%s pool=%s%s%s", strategy, profile,
                concurrency, latencyMs, orDefault(tomcatThreads), orDefault(poolSize), rate(" rate=%.0f/s"),
                jvm(" jvm="));
    }

    /** @return a file-name-safe id, e.g. {@code 03-scopeFork-virtual-c100-l200-t200-p500-common.parallelism4} */
    public String id(int index) {
        return String.format(Locale.ROOT, "%02d-%s-%s-c%d-l%d-t%s-p%s%s%s", index, strategy, profile, concurrency,
                latencyMs, orDefault(tomcatThreads), orDefault(poolSize), rate("-r%.0f"),
                jvmOptions.isEmpty() ? "" : "-" + JvmOptions.tag(jvmOptions));
    }

    private String rate(String format) {
        return ratePerSecond == null ? "" : String.format(Locale.ROOT, format, ratePerSecond);
    }

    private String jvm(String prefix) {
        return jvmOptions.isEmpty() ? "" : prefix + jvmOptions;
    }

    private static String orDefault(Integer v) {
        return v == null ? "default" : v.toString();
    }
}
