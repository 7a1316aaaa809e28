package lab.fanout.bench.cli;

import java.nio.file.Path;

/**
 * Where the CLI keeps things, all under the checkout ({@code -Dlab.repo}, set by {@code ./lab}; else the working
 * directory): {@code .lab/run} (pids and ports of {@code ./lab up}), {@code .lab/logs}, {@code .lab/prometheus},
 * {@code results}. All git-ignored.
 */
public record Workspace(Path repo) {

    public static Workspace current() {
        return new Workspace(Path.of(System.getProperty("lab.repo", "")).toAbsolutePath().normalize());
    }

    public Path runDir() {
        return repo.resolve(".lab/run");
    }

    public Path logDir() {
        return repo.resolve(".lab/logs");
    }

    public Path prometheusData() {
        return repo.resolve(".lab/prometheus");
    }

    public Path prometheusConfig() {
        return repo.resolve("prometheus/prometheus.yml");
    }

    /** Zipkin's server jar, copied there by bench's build ({@code ./lab build}). */
    public Path zipkinJar() {
        return repo.resolve("bench/target/zipkin/zipkin-server.jar");
    }

    public Path results() {
        return repo.resolve("results");
    }
}
