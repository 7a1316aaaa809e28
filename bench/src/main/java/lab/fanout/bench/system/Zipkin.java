package lab.fanout.bench.system;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A local Zipkin (the {@code io.zipkin:zipkin-server} exec jar that bench's build copies to
 * {@code bench/target/zipkin/zipkin-server.jar}) on 127.0.0.1:9411, in-memory storage, its UI at {@link #UI}; and
 * what the lab needs from it: the four services' properties to report there, a trace per strategy with a known id,
 * and a trace's span count from its API. {@link #LOCAL} is {@code ./lab up}'s; a test may run one on a free port.
 *
 * @param port where it listens, on 127.0.0.1 only
 */
public record Zipkin(int port) {

    public static final int PORT = 9411;
    /** {@code ./lab up --with-zipkin}'s. */
    public static final Zipkin LOCAL = new Zipkin(PORT);
    public static final URI UI = LOCAL.ui();
    /**
     * Spans kept in memory, oldest dropped first: about 7,000 per 1,000 requests at width 1 (1 server span, 3 client
     * spans, 3 downstream server spans), so a few hey runs, in about 100 MB of the 256 MB heap given here.
     */
    static final int MAX_SPANS = 50_000;
    /** About 14 s on 2 quiet cores (checked 2026-11-21); more beside four starting services. */
    static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** @return e.g. {@code http://127.0.0.1:9411} */
    public URI url() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /** @return its UI, e.g. {@code http://127.0.0.1:9411/zipkin/} */
    public URI ui() {
        return url().resolve("/zipkin/");
    }

    /**
     * @param sampling the share of new traces recorded, 0.0 to 1.0
     * @return the Spring properties that make a service record and report its spans here
     * @throws IllegalArgumentException {@code sampling} outside 0.0 to 1.0
     */
    public Map<String, String> serviceProperties(double sampling) {
        if (!(sampling >= 0.0 && sampling <= 1.0)) {
            throw new IllegalArgumentException("the sampling probability must be in 0.0..1.0, was " + sampling);
        }
        return Map.of("management.tracing.sampling.probability", Double.toString(sampling),
                "management.tracing.export.zipkin.endpoint", url().resolve("/api/v2/spans").toString());
    }

    /**
     * The command that runs it: the JDK running this code, a 256 MB heap, in-memory storage, listening on 127.0.0.1
     * only (Armeria's port list, which replaces Zipkin's own one-entry list on all interfaces).
     */
    List<String> command(Path jar) {
        String java = ProcessHandle.current().info().command().orElse("java");
        return List.of(java, "-Xms64m", "-Xmx256m", "-XX:+ExitOnOutOfMemoryError", "-jar", jar.toString(),
                "--zipkin.storage.type=mem", "--zipkin.storage.mem.max-spans=" + MAX_SPANS,
                "--armeria.ports[0].ip=127.0.0.1", "--armeria.ports[0].port=" + port,
                "--armeria.ports[0].protocols[0]=http");
    }

    /**
     * Starts it detached (it outlives the CLI, as {@code ./lab up}'s services do) and waits for {@code /health}.
     *
     * @throws IllegalStateException the jar is missing (message: how to build it), its port busy (message: who holds
     *                               it), or not healthy within 120 s (message: the last lines of its log)
     */
    public Process start(Path jar, Path log, Path workDir) {
        requireStartable(jar);
        Process p = Processes.spawn(CpuGroups.onLoadSide(command(jar)), workDir, log, true, false);
        boolean answered = Poll.reached(READY_TIMEOUT, Duration.ofMillis(500),
                () -> !p.isAlive() || Http.get(url().resolve("/health"), Duration.ofSeconds(2)).isPresent());
        if (!answered || !p.isAlive()) {
            p.destroy();
            throw new IllegalStateException("zipkin did not get healthy; last lines of " + log + ":\n"
                    + Logs.tail(log, 15));
        }
        return p;
    }

    /**
     * Checks what {@link #start} needs before anything else starts, so that {@code ./lab up} fails before its services.
     *
     * @throws IllegalStateException the jar is missing (message: how to build it), or its port is busy (message: who
     *                               holds it)
     */
    public void requireStartable(Path jar) {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: run ./lab build (bench's package copies Zipkin's jar"
                    + " there)");
        }
        Ports.requireFree(Map.of("zipkin", port));
    }

    /** @return a new W3C trace id: 32 lowercase hex digits, not all zero */
    public static String newTraceId() {
        byte[] id = new byte[16];
        ThreadLocalRandom.current().nextBytes(id);
        id[0] |= 1;
        return HexFormat.of().formatHex(id);
    }

    /**
     * @param traceId 32 hex digits
     * @return a {@code traceparent} that starts a <em>sampled</em> trace with that id: recorded whatever the services'
     *         sampling probability (parent-based sampling), so its link always has something to show
     */
    public static String sampledTraceparent(String traceId) {
        return "00-" + traceId + "-" + traceId.substring(0, 16) + "-01";
    }

    /** @return the trace's page in Zipkin's UI */
    public URI traceUrl(String traceId) {
        return ui().resolve("traces/" + traceId);
    }

    /**
     * @return the spans Zipkin holds for the trace (its API, {@code /api/v2/trace/<id>}); 0 when it has none yet, is
     *         not running, or does not answer within 2 s
     */
    public int spanCount(String traceId) {
        return spans(traceId).size();
    }

    /**
     * @return the trace's spans as Zipkin's API gives them ({@code /api/v2/trace/<id>}, a JSON array); an empty array
     *         when it has none yet, is not running, or does not answer within 2 s
     */
    public JsonNode spans(String traceId) {
        return Http.get(url().resolve("/api/v2/trace/" + traceId), Duration.ofSeconds(2)).map(Zipkin::parse)
                .orElseGet(JSON::createArrayNode);
    }

    private static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (JacksonException e) {
            return JSON.createArrayNode();
        }
    }

    /**
     * Sends one GET with a sampled {@code traceparent} of {@code traceId}, so that its whole fan-out is recorded.
     *
     * @return the HTTP status, or -1 when no answer came within {@code timeout}
     */
    public static int sendTraced(URI uri, String traceId, Duration timeout) {
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(timeout)
                .header("traceparent", sampledTraceparent(traceId)).header("X-Request-Id", "trace-" + traceId).build();
        try {
            return CLIENT.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
