package lab.fanout.systemtests;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;

import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.model.Strategy;
import lab.fanout.bench.system.Http;
import lab.fanout.bench.system.LocalSystem;
import lab.fanout.bench.system.LocalSystem.LaunchSpec;
import lab.fanout.bench.system.Poll;
import lab.fanout.bench.system.Processes;
import lab.fanout.bench.system.Zipkin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 42, item 4: one request per strategy, a hedged one and a scopeFork request whose orders call fails, through
 * the four service jars reporting to a real Zipkin (the jar bench's build copies); each trace counted from Zipkin's API,
 * then opened in Zipkin's UI by headless Chromium (Debian's {@code chromium}), whose page must show the same number
 * of spans and every span's name. Each page is saved as a PNG in {@code target/traces/}, or in {@code -Dlab.traces.dir}
 * ({@code scripts/trace-pictures.sh} writes docs/traces/ so). The services sample at 0.0: only the requests sent with
 * a sampled {@code traceparent} are recorded, as {@code ./lab up --with-zipkin}'s links are. About 1-2 minutes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ZipkinTracesIT {

    static final Path WORK = Path.of("target", "traces-e2e").toAbsolutePath();
    static final Path ZIPKIN_JAR = Repo.ROOT.resolve("bench/target/zipkin/zipkin-server.jar");
    /** A plain fan-out: main-service's server span, its 3 client spans, the 3 downstreams' server spans. */
    static final int PLAIN_SPANS = 7;
    /** The lab's default latency: bars wide enough to read at this width. */
    static final int LATENCY_MS = 200;
    static final int WIDTH_PX = 1400;
    /** Warm-up requests per strategy, untraced, at 5 ms: the pictures show warm JVMs, not the first request's JIT. */
    static final int WARMUP = 30;
    /** Each call's copy after 100 ms of a 300 ms call: every call is hedged, every copy loses and is cancelled. */
    static final String HEDGED = "concurrency=scopeFork&hedgeAfterMs=100&latencyMs=300";
    /** orders fails at once while its siblings would take 1 s: scopeFork cancels them. */
    static final String SIBLING_FAILS = "concurrency=scopeFork&latencyMs=1000&faultTarget=orders&errorRate=1";
    private static final Pattern TOTAL_SPANS = Pattern.compile("Total Spans\\s+(\\d+)");

    private Path chromium;
    private Zipkin zipkin;
    private Process zipkinProcess;
    private LocalSystem system;
    /** Trace id per picture name, e.g. "sequential", "scopeFork-hedged". */
    private final Map<String, String> traces = new LinkedHashMap<>();
    private final Map<String, Integer> statuses = new LinkedHashMap<>();

    @BeforeAll
    void startZipkinAndTheServicesThenSendTheTracedRequests() throws IOException {
        chromium = RequiredTool.onPath("chromium", "apt-get install -y chromium");
        RequiredTool.file(ZIPKIN_JAR, "./mvnw -B -pl bench package -DskipTests (bench's build copies Zipkin's jar)");
        Files.createDirectories(WORK);
        zipkin = new Zipkin(freePort());
        zipkinProcess = zipkin.start(ZIPKIN_JAR, WORK.resolve("zipkin.log"), WORK);
        // started in a session of its own (as ./lab up's): a Ctrl-C of the build must still end it
        Runtime.getRuntime().addShutdownHook(new Thread(zipkinProcess::destroy, "zipkin-traces-it-stop"));
        system = LocalSystem.start(LaunchSpec.custom(Repo.ROOT).freePorts(true).logDir(WORK.resolve("logs"))
                .latencyMs(LATENCY_MS).allProperties(zipkin.serviceProperties(0.0)).build());
        for (Strategy s : Strategy.values()) {
            for (int i = 0; i < WARMUP; i++) {
                Http.get(ServiceDefaults.ordersUrl(system.mainBaseUrl(), s, "latencyMs=5"), Duration.ofSeconds(10));
            }
        }
        for (Strategy s : Strategy.values()) {
            send(s.toString(), ServiceDefaults.ordersUrl(system.mainBaseUrl(), s, ""));
        }
        send("scopeFork-hedged", URI.create(system.mainBaseUrl() + ServiceDefaults.ORDERS_PATH + "?" + HEDGED));
        send("scopeFork-sibling-fails", URI.create(system.mainBaseUrl() + ServiceDefaults.ORDERS_PATH + "?"
                + SIBLING_FAILS));
    }

    @AfterAll
    void stop() throws InterruptedException {
        if (system != null) {
            system.close();
        }
        if (zipkinProcess != null) {
            zipkinProcess.destroy();
            zipkinProcess.waitFor();
        }
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void everyStrategysTraceHoldsItsRequestItsThreeCallsAndTheirServerSpansOnTheApiAndThePage(Strategy strategy)
            throws IOException {
        assertThat(statuses.get(strategy.toString())).isEqualTo(200);
        JsonNode spans = awaitSpans(strategy.toString(), PLAIN_SPANS);
        assertThat(spans.size()).isEqualTo(PLAIN_SPANS);
        assertThat(names(spans, "main-service", "CLIENT"))
                .containsExactlyInAnyOrder("get orders-service", "get products-service", "get accounts-service");
        assertThat(names(spans, null, "SERVER")).hasSize(4);
        assertThePageShows(strategy.toString(), spans);
    }

    @Test
    void aHedgedRequestShowsACopyOfEachCallCancelledWhenTheFirstAnswered() throws IOException {
        assertThat(statuses.get("scopeFork-hedged")).isEqualTo(200);
        // 3 calls and 3 copies from main-service; a copy's server span ends when its downstream answers, after the
        // client has gone, so wait for all 13
        JsonNode spans = awaitSpans("scopeFork-hedged", 1 + 6 + 6);
        List<JsonNode> clients = spans(spans, "main-service", "CLIENT");
        assertThat(clients).hasSize(6);
        // the copies started about 100 ms after the request and ended with the first copies' answers, ~300 ms in
        long start = spans(spans, "main-service", "SERVER").getFirst().get("timestamp").asLong();
        long copies = clients.stream().filter(c -> c.get("timestamp").asLong() - start >= 90_000).count();
        assertThat(copies).isEqualTo(3);
        assertThePageShows("scopeFork-hedged", spans);
    }

    @Test
    void aFailedCallCancelsItsSiblingsLongBeforeTheirSecond() throws IOException {
        assertThat(statuses.get("scopeFork-sibling-fails")).isEqualTo(502);
        JsonNode spans = awaitSpans("scopeFork-sibling-fails", PLAIN_SPANS);
        JsonNode server = spans(spans, "main-service", "SERVER").getFirst();
        // the siblings would take 1,000 ms: the request ends as soon as orders fails, its calls cancelled
        assertThat(server.get("duration").asLong()).isLessThan(500_000);
        List<JsonNode> clients = spans(spans, "main-service", "CLIENT");
        assertThat(clients).hasSize(3).allSatisfy(c -> assertThat(c.get("duration").asLong()).isLessThan(500_000));
        assertThat(clients).filteredOn(c -> c.get("name").asString().equals("get orders-service"))
                .singleElement().satisfies(c -> assertThat(c.path("tags").has("error")).isTrue());
        assertThePageShows("scopeFork-sibling-fails", spans);
    }

    private void send(String picture, URI uri) {
        String traceId = Zipkin.newTraceId();
        traces.put(picture, traceId);
        statuses.put(picture, Zipkin.sendTraced(uri, traceId, Duration.ofSeconds(15)));
    }

    /** @return the trace's spans once Zipkin holds {@code expected} of them (up to 15 s), else what it holds then */
    private JsonNode awaitSpans(String picture, int expected) {
        String traceId = traces.get(picture);
        Poll.reached(Duration.ofSeconds(15), Duration.ofMillis(250), () -> zipkin.spanCount(traceId) >= expected);
        return zipkin.spans(traceId);
    }

    /**
     * Opens the trace's page in headless Chromium: its text must say "Total Spans N" with the API's N and hold each
     * span's name as often as the trace holds it (its rows were drawn); then saves its screenshot.
     */
    private void assertThePageShows(String picture, JsonNode spans) throws IOException {
        URI page = zipkin.traceUrl(traces.get(picture));
        String text = chromium(List.of(windowSize(spans), "--dump-dom"), page).replaceAll("<[^>]+>", " ")
                .replaceAll("\\s+", " ");
        Path textFile = WORK.resolve(picture + ".txt");
        Files.writeString(textFile, text);
        Matcher total = TOTAL_SPANS.matcher(text);
        assertThat(total.find()).as("\"Total Spans N\" on %s (its text: %s)", page, textFile).isTrue();
        assertThat(Integer.parseInt(total.group(1))).as("spans on the page").isEqualTo(spans.size());
        names(spans, null, null).stream().distinct().forEach(name -> assertThat(occurrences(text, name))
                .as("rows named %s on %s (its text: %s)", name, page, textFile)
                .isGreaterThanOrEqualTo(Collections.frequency(names(spans, null, null), name)));
        Path dir = Path.of(System.getProperty("lab.traces.dir", "target/traces")).toAbsolutePath();
        Files.createDirectories(dir);
        Path png = dir.resolve(picture + ".png");
        Files.deleteIfExists(png);
        chromium(List.of(windowSize(spans), "--screenshot=" + png), page);
        assertThat(png).isNotEmptyFile();
    }

    /**
     * Zipkin's UI draws only the rows that fit its list, about the window's height less 430 px, 30 px a row (seen at
     * 510, 690 and 800 px: 3, 9 and all 7 rows): a window tall enough for every row.
     */
    private static String windowSize(JsonNode spans) {
        return "--window-size=" + WIDTH_PX + "," + (470 + 30 * spans.size());
    }

    private static int occurrences(String text, String name) {
        return text.split(Pattern.quote(name), -1).length - 1;
    }

    /** @return what Chromium printed, after the page's scripts ran (up to 15 s of the page's own time) */
    private String chromium(List<String> what, URI page) {
        List<String> command = new ArrayList<>(List.of(chromium.toString(), "--headless", "--no-sandbox",
                "--disable-gpu", "--hide-scrollbars", "--user-data-dir=" + WORK.resolve("chromium"),
                "--virtual-time-budget=15000"));
        command.addAll(what);
        command.add(page.toString());
        Processes.Result result = Processes.run(command, WORK, Duration.ofSeconds(90));
        assertThat(result.ok()).as("chromium %s: %s", what, result.output()).isTrue();
        return result.output();
    }

    /** @param service null for any; @param kind null for any */
    private static List<JsonNode> spans(JsonNode spans, String service, String kind) {
        return StreamSupport.stream(spans.spliterator(), false)
                .filter(s -> service == null || service.equals(s.path("localEndpoint").path("serviceName").asString()))
                .filter(s -> kind == null || kind.equals(s.path("kind").asString()))
                .toList();
    }

    private static List<String> names(JsonNode spans, String service, String kind) {
        return spans(spans, service, kind).stream().map(s -> s.get("name").asString()).toList();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
