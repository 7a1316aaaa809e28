package lab.fanout.systemtests;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import tools.jackson.databind.JsonNode;

/**
 * A real Prometheus (Debian's {@code prometheus}) on a free loopback port, scraping the given services every second,
 * with its config generated for their ports (the lab's prometheus/prometheus.yml is for the fixed ports of
 * {@code ./lab up}).
 */
final class LocalPrometheus implements AutoCloseable {

    static final Duration SCRAPE_INTERVAL = Duration.ofSeconds(1);

    private final Process process;
    private final PrometheusClient client;
    private final Path log;

    private LocalPrometheus(Process process, URI url, Path log) {
        this.process = process;
        this.client = new PrometheusClient(url);
        this.log = log;
    }

    /**
     * @param binary  the prometheus program
     * @param targets job name (the service) to its management port on localhost (the actuator)
     * @param dir     config, data and log go here
     * @throws IllegalStateException if it is not ready within 60 s (message: the end of its log)
     */
    static LocalPrometheus start(Path binary, Map<String, Integer> targets, Path dir) throws IOException {
        Files.createDirectories(dir);
        Path config = Files.writeString(dir.resolve("prometheus.yml"), config(targets));
        Path log = dir.resolve("prometheus.log");
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Process process = new ProcessBuilder(binary.toString(), "--config.file=" + config,
                "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + port)
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        LocalPrometheus prometheus = new LocalPrometheus(process, URI.create("http://127.0.0.1:" + port), log);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!prometheus.client.ready()) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                prometheus.close();
                throw new IllegalStateException("prometheus did not get ready; " + log + ":\n" + Files.readString(log));
            }
            sleep(Duration.ofMillis(250));
        }
        return prometheus;
    }

    static String config(Map<String, Integer> targets) {
        return "global:\n  scrape_interval: " + SCRAPE_INTERVAL.toSeconds() + "s\n  scrape_timeout: 1s\nscrape_configs:\n"
                + targets.entrySet().stream().map(t -> "  - job_name: " + t.getKey()
                + "\n    metrics_path: /actuator/prometheus\n    static_configs:\n      - targets: [\"localhost:"
                + t.getValue() + "\"]\n").collect(Collectors.joining());
    }

    /** As {@link PrometheusClient#query(String)}. */
    JsonNode query(String promql) throws IOException, InterruptedException {
        return client.query(promql);
    }

    /** As {@link PrometheusClient#scalar(String)}. */
    double scalar(String promql) throws IOException, InterruptedException {
        return client.scalar(promql);
    }

    Path log() {
        return log;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
