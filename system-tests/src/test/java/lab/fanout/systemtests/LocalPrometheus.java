package lab.fanout.systemtests;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real Prometheus (Debian's {@code prometheus}) on a free loopback port, scraping the given services every second,
 * with its config generated for their ports (the lab's prometheus/prometheus.yml is for the fixed ports of
 * {@code ./lab up}).
 */
final class LocalPrometheus implements AutoCloseable {

    static final Duration SCRAPE_INTERVAL = Duration.ofSeconds(1);

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final Process process;
    private final URI url;
    private final Path log;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private LocalPrometheus(Process process, URI url, Path log) {
        this.process = process;
        this.url = url;
        this.log = log;
    }

    /**
     * @param binary  the prometheus program
     * @param targets job name (the service) to its port on localhost
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
        while (!prometheus.ready()) {
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

    /** @return the {@code data.result} array of an instant query at the current time; never null */
    JsonNode query(String promql) throws IOException, InterruptedException {
        URI uri = url.resolve("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        JsonNode body = JSON.readTree(response.body());
        if (response.statusCode() != 200 || !"success".equals(body.path("status").asString())) {
            throw new IllegalArgumentException("Prometheus answered " + response.statusCode() + ": "
                    + body.path("error").asString() + " for " + promql);
        }
        return body.path("data").path("result");
    }

    /** @return the value of a query whose result is one number, or NaN when the result is empty */
    double scalar(String promql) throws IOException, InterruptedException {
        JsonNode result = query(promql);
        return result.isEmpty() ? Double.NaN : Double.parseDouble(result.get(0).path("value").get(1).asString());
    }

    Path log() {
        return log;
    }

    private boolean ready() {
        try {
            return http.send(HttpRequest.newBuilder(url.resolve("/-/ready")).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
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
