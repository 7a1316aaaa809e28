package lab.fanout.systemtests;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Prometheus' HTTP API at a base URL: the one {@link LocalPrometheus} starts, or a cluster's behind
 * {@code kubectl port-forward}.
 */
final class PrometheusClient {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final URI url;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** @param url base URL, e.g. http://127.0.0.1:19090 (a path after it is ignored) */
    PrometheusClient(URI url) {
        this.url = url;
    }

    URI url() {
        return url;
    }

    /**
     * @return the {@code data.result} array of an instant query at the current time; never null
     * @throws IllegalArgumentException when Prometheus answers with an error (e.g. a syntax error), naming the query
     * @throws IOException              when Prometheus cannot be reached or answers with no JSON within 10 s
     */
    JsonNode query(String promql) throws IOException, InterruptedException {
        return query(promql, null);
    }

    /**
     * As {@link #query(String)}, evaluated at {@code time} (Prometheus' {@code time} parameter) instead of now: what a
     * panel showed at that moment.
     *
     * @param time null for now
     */
    JsonNode query(String promql, Instant time) throws IOException, InterruptedException {
        URI uri = url.resolve("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)
                + (time == null ? "" : "&time=" + time.getEpochSecond()));
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        JsonNode body;
        try {
            body = JSON.readTree(response.body());
        } catch (RuntimeException e) {
            // not Prometheus (e.g. a wrong port-forward): say what answered instead of a parser error
            throw new IOException(uri + " answered " + response.statusCode() + " with no JSON: " + response.body(), e);
        }
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

    /** @return whether /-/ready answers 200 within 2 s; false when unreachable or interrupted (flag kept) */
    boolean ready() {
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
}
