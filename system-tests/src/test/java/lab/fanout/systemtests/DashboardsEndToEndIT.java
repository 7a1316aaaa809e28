package lab.fanout.systemtests;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;

import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.system.LocalSystem.LaunchSpec;
import lab.fanout.bench.system.LocalSystem;
import lab.fanout.systemtests.Dashboards.Query;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Tests 3 and 4, end to end: the four service jars on free ports and a real Prometheus scraping them every second;
 * orders-service serves from PostgreSQL through JDBC (an embedded server: the database pool's JDBC lines need
 * HikariCP's series; its R2DBC lines are empty here, {@code empty-on-postgres-store.txt}, and have data in ./lab
 * cluster check 8); a few hundred requests through every strategy (and some with an unknown strategy, so that the
 * error panels have data),
 * then a burst past main-service's admission limit (so that the admission panels see rejections); then
 * <ul>
 * <li>every query of every dashboard (panels and variables) returns a non-empty result from Prometheus, with at
 * least one number that is not NaN (for a variable: with the label it lists), unless {@code empty-by-nature.txt} lists it with its reason (a misspelt metric
 * or label makes Prometheus answer "success" with an empty result, so "no error" proves nothing;
 * {@link DashboardQueryCheck}, which {@link ClusterDashboardsIT} runs against a cluster's Prometheus);</li>
 * <li>every metric name the dashboards use appears in a real scrape of the services' /actuator/prometheus;</li>
 * <li>the admission panels read what the burst did, not just some number ({@link #theAdmissionPanelsShowTheBurst}).</li>
 * </ul>
 * About 1-2 minutes on 2 cores, most of it JVM start-up.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DashboardsEndToEndIT {

    static final int REQUESTS_PER_STRATEGY = 50;
    static final int INVALID_REQUESTS = 10;
    static final int CONCURRENCY = 8;
    /** Simulated downstream latency (ms): small, so that the load takes seconds; not a benchmark. */
    static final int LATENCY_MS = 5;
    static final Path WORK = Path.of("target", "e2e").toAbsolutePath();
    static final String ORDERS = "/backoffice/api/v1/backoffice/orders";
    /**
     * main-service's admission limit here (fanout.admission.max-in-flight, mode fixed): twice {@link #CONCURRENCY}, so
     * that the load is never rejected (an async request's permit is released just after its answer has left, when
     * its client may already send the next), and low enough for a cheap burst to pass it.
     */
    static final int ADMISSION_LIMIT = 2 * CONCURRENCY;
    /** Requests of the burst, sent at once: three times the limit, so that most of them are rejected. */
    static final int BURST = 3 * ADMISSION_LIMIT;
    /**
     * Simulated downstream latency of the burst (ms): the admitted requests hold their permits this long, longer than
     * a scrape interval, so that a scrape sees the limit reached.
     */
    static final int BURST_LATENCY_MS = 2000;
    static final String OVERLOADED = "429 overloaded";
    /** The queries empty here by nature, under ./lab up's kind of start, on PostgreSQL through JDBC. */
    static final String[] ALLOWLISTS = {"empty-by-nature.txt", "empty-under-lab-up.txt", "empty-on-postgres-store.txt"};
    static final String ADMISSION_IN_FLIGHT = "fanout-overview | Admission: requests in flight vs limit: $application";
    static final String ADMISSION_OUTCOMES =
            "fanout-overview | Admission: admitted, rejected and expired per second: $application";

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private LocalSystem system;
    private LocalPrometheus prometheus;
    private List<String> strategies;
    /** What the clients of the burst got: "200" or "429 overloaded" to count. */
    private Map<String, Integer> burst;

    @BeforeAll
    void startSystemPrometheusAndLoad() throws Exception {
        Path prometheusBinary = RequiredTool.onPath("prometheus", "apt-get install -y prometheus");
        deleteRecursively(WORK);
        // -XX:TieredStopAtLevel=1 starts four JVMs faster on 2 cores; these JVMs are observed, not measured.
        // orders-service on its postgres store (an embedded server), so that the JDBC pool's panels have HikariCP's
        // series; the other downstreams ignore the orders.* properties. Its pool holds a connection through each
        // simulated latency (pg_sleep): as many connections as the admission limit, so that every request of the burst
        // that main-service admits gets one (with 4, 12 of the 16 failed with 502 after HikariCP's 1 s timeout)
        system = LocalSystem.start(LaunchSpec.custom(Repo.ROOT).latencyMs(LATENCY_MS).freePorts(true)
                .logDir(WORK.resolve("logs")).extraMainProperties(Map.of("fanout.admission.mode", "fixed",
                        "fanout.admission.max-in-flight", String.valueOf(ADMISSION_LIMIT)))
                .extraDownstreamProperties(Map.of("orders.store", "postgres",
                        "orders.db.pool-size", String.valueOf(ADMISSION_LIMIT),
                        "orders.db.data-dir", WORK.resolve("orders-db").toString()))
                .extraJvmArgs(List.of("-Xmx256m", "-XX:TieredStopAtLevel=1")).build());
        prometheus = LocalPrometheus.start(prometheusBinary, system.managementPorts(), WORK.resolve("prometheus"));
        awaitPrometheus("count(up == 1)", ServiceDefaults.SERVICES.size(), "all four targets up");
        strategies = strategies();
        int backofficeRequests = drive(strategies);
        burst = burst();
        awaitPrometheus("sum(fanout_admission_requests_total{application=\"main-service\", outcome=\"rejected\"})",
                burst.getOrDefault(OVERLOADED, 0), "the burst's rejections scraped");
        // the last scrape must have happened after the load and the burst: it then holds every request, the burst's
        // refusals too (they carry the route they asked for)
        awaitPrometheus("sum(http_server_requests_seconds_count{application=\"main-service\", uri=\"" + ORDERS + "\"})",
                backofficeRequests + BURST, "every request of the load and the burst scraped");
        LocalPrometheus.sleep(LocalPrometheus.SCRAPE_INTERVAL.multipliedBy(2));
    }

    @AfterAll
    void stop() {
        if (prometheus != null) {
            prometheus.close();
        }
        if (system != null) {
            system.close();
        }
    }

    @Test
    void everyDashboardQueryReturnsData() throws Exception {
        assertThat(DashboardQueryCheck.failures(Dashboards.queries(), prometheus::query, ALLOWLISTS)).as(
                "queries without data (Prometheus log: %s, service logs: %s)", prometheus.log(), WORK.resolve("logs"))
                .isEmpty();
    }

    /** The tags the dashboards group by hold their few known values, never raw input or "localhost". */
    @Test
    void tagsHoldOnlyTheirKnownValues() throws Exception {
        assertThat(labelValues("http_client_requests_seconds_count{application=\"main-service\"}", "client_name"))
                .containsExactlyInAnyOrder("orders-service", "products-service", "accounts-service");
        List<String> expected = new ArrayList<>(strategies);
        expected.add("invalid");    // the unknown strategies sent; never their raw values
        assertThat(labelValues("http_server_requests_seconds_count{uri=\"" + ORDERS + "\"}", "strategy"))
                .containsExactlyInAnyOrderElementsOf(expected);
    }

    /** Every series the services expose carries the common tag application (and Prometheus adds instance). */
    @Test
    void everySeriesHasApplicationAndInstance() throws Exception {
        assertThat(prometheus.query("count by (job, __name__) ({job=~\".+\", __name__!~\"up|scrape_.*\", application=\"\"})"))
                .as("series without application").isEmpty();
        assertThat(labelValues("process_uptime_seconds", "application"))
                .containsExactlyInAnyOrderElementsOf(ServiceDefaults.SERVICES);
        assertThat(labelValues("process_uptime_seconds", "instance"))
                .containsExactlyInAnyOrderElementsOf(system.managementPorts().values().stream().map(p -> "localhost:" + p).toList());
    }

    private List<String> labelValues(String selector, String label) throws Exception {
        return StreamSupport.stream(prometheus.query("count by (" + label + ") (" + selector + ")").spliterator(), false)
                .map(series -> series.path("metric").path(label).asString("")).toList();
    }

    /**
     * Every metric name a dashboard query uses appears in a scrape of the four services, except in the queries the
     * allowlists name as empty here (everyDashboardQueryReturnsData proves those empty, e.g. a knob's other client).
     */
    @Test
    void everyMetricTheDashboardsUseIsScraped() throws Exception {
        Map<String, String> emptyHere = new TreeMap<>();
        for (String allowlist : ALLOWLISTS) {
            emptyHere.putAll(DashboardQueryCheck.emptyByNature(allowlist));
        }
        Set<String> scraped = new TreeSet<>();
        for (String service : ServiceDefaults.SERVICES) {
            String body = get(system.managementUrl(service).resolve("/actuator/prometheus")).body();
            body.lines().filter(line -> !line.isBlank() && !line.startsWith("#"))
                    .map(line -> line.split("[{ ]", 2)[0]).forEach(scraped::add);
        }
        Map<String, Set<String>> missing = new TreeMap<>();
        for (Query query : Dashboards.queries().stream().filter(q -> !emptyHere.containsKey(q.where())).toList()) {
            PromqlNames.of(query.promql()).stream().filter(name -> !scraped.contains(name) && !notFromTheServices(name))
                    .forEach(name -> missing.computeIfAbsent(name, n -> new TreeSet<>()).add(query.where()));
        }
        assertThat(missing).as("metric names used by dashboards but absent from the scrape of all four services")
                .isEmpty();
    }

    /**
     * The admission panels show the burst as it happened, the right values and not only some: in flight reached the
     * limit and never passed it (the maximum over the last two minutes, which the panel's legend shows as "max"), and
     * reads 0 now that every request is answered; the limit line is the configured limit; admitted and rejected per
     * second are above 0, and expired is 0 (virtual request threads: no request waits for one). A rejected query that
     * selected another outcome, or the sum of them all, would still return data: 0 is a value. And
     * http_server_requests, which the rate, latency and error panels read, counts each refusal as a 429 of the
     * endpoint: the refusals carry its route, although Spring MVC never ran for them.
     */
    @Test
    void theAdmissionPanelsShowTheBurst() throws Exception {
        assertThat(burst.getOrDefault(OVERLOADED, 0)).as("the burst was rejected in part: %s", burst).isPositive();
        assertThat(prometheus.scalar("sum(fanout_admission_requests_total{application=\"main-service\","
                + " outcome=\"rejected\"})")).as("rejections counted = 429s the burst's clients got")
                .isEqualTo((double) burst.get(OVERLOADED));
        assertThat(prometheus.scalar("sum(http_server_requests_seconds_count{application=\"main-service\", uri=\""
                + ORDERS + "\", status=\"429\"})")).as("429s under the endpoint's uri = 429s the burst's clients got")
                .isEqualTo((double) burst.get(OVERLOADED));
        Query inFlight = panelQuery(ADMISSION_IN_FLIGHT + " | A");
        assertThat(panelValue(inFlight.promql())).as(inFlight.where() + " now, every request answered").isZero();
        assertThat(panelValue("max_over_time((" + inFlight.promql() + ")[2m:500ms])"))
                .as(inFlight.where() + ", its maximum over the burst").isEqualTo(ADMISSION_LIMIT);
        assertThat(panelValue(panelQuery(ADMISSION_IN_FLIGHT + " | B").promql())).as("the limit line")
                .isEqualTo(ADMISSION_LIMIT);
        assertThat(panelValue(panelQuery(ADMISSION_OUTCOMES + " | A").promql())).as("admitted per second").isPositive();
        assertThat(panelValue(panelQuery(ADMISSION_OUTCOMES + " | B").promql())).as("rejected per second").isPositive();
        assertThat(panelValue(panelQuery(ADMISSION_OUTCOMES + " | C").promql())).as("expired per second").isZero();
    }

    /** @throws AssertionError when no dashboard has a query at {@code where} ("uid | panel title | refId") */
    private static Query panelQuery(String where) {
        return Dashboards.queries().stream().filter(q -> q.where().equals(where)).findFirst()
                .orElseThrow(() -> new AssertionError("no dashboard query " + where));
    }

    /** @return the value of main-service's one series in the result of {@code promql}; fails on another answer */
    private double panelValue(String promql) throws Exception {
        JsonNode result = prometheus.query(promql);
        assertThat(result).as("one series for main-service: " + promql).hasSize(1);
        assertThat(result.get(0).path("metric").path("application").asString()).as(promql).isEqualTo("main-service");
        return Double.parseDouble(result.get(0).path("value").get(1).asString());
    }

    /**
     * @return whether the series come from elsewhere: {@code up} from Prometheus itself, {@code container_*} from
     *         cAdvisor (the kubelet; Kubernetes only, where ClusterDashboardsIT requires their data), or from a server
     *         the virtual profile here does not run: {@code reactor_netty_*} (the netty profile; ClusterDashboardsIT
     *         requires their data from main-service-netty), or from the store orders-service does not run here:
     *         {@code r2dbc_pool_*} (orders.store=r2dbc; orders-service's R2dbcStorePoolTest reads each name the
     *         dashboards use in its scrape, DashboardStoreAllowlistsTest ties the two, ClusterDashboardsIT requires
     *         their data on the r2dbc store)
     */
    private static boolean notFromTheServices(String metric) {
        return metric.equals("up") || metric.startsWith("container_") || metric.startsWith("reactor_netty_")
                || metric.startsWith("r2dbc_pool_");
    }

    /** @return the strategy names main-service accepts, read from its 400 problem for an unknown one */
    private List<String> strategies() throws Exception {
        HttpResponse<String> response = get(system.mainBaseUrl().resolve(ORDERS + "?concurrency=no-such-strategy"));
        Matcher valid = Pattern.compile("is not one of \\[([^]]+)]").matcher(response.body());
        if (response.statusCode() != 400 || !valid.find()) {
            fail("expected a 400 naming the valid strategies, got " + response.statusCode() + ": " + response.body());
        }
        return Arrays.stream(valid.group(1).split(",\\s*")).toList();
    }

    /** One request of the load: what it should count as (strategy or "invalid") and where it goes. */
    record Call(String label, URI uri) {
    }

    /** @return how many backoffice requests were sent: the load plus the probe of {@link #strategies()} */
    private int drive(List<String> strategies) throws Exception {
        // all of them, so that every per-strategy panel has each strategy's series, reactive's included
        assertThat(strategies).hasSizeGreaterThanOrEqualTo(7).contains("scopeFork", "reactive",
                "completableFutureWithBoundedPool");
        List<Call> calls = new ArrayList<>();
        for (String strategy : strategies) {
            for (int i = 0; i < REQUESTS_PER_STRATEGY; i++) {
                calls.add(new Call(strategy,
                        system.mainBaseUrl().resolve(ORDERS + "?concurrency=" + strategy + "&latencyMs=" + LATENCY_MS)));
            }
        }
        for (int i = 0; i < INVALID_REQUESTS; i++) {
            calls.add(new Call("invalid", system.mainBaseUrl().resolve(ORDERS + "?concurrency=invalid-" + i)));
        }
        Map<String, AtomicInteger> statuses = new ConcurrentHashMap<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(CONCURRENCY)) {
            for (Call call : calls) {
                pool.submit(() -> statuses.computeIfAbsent(call.label() + " " + get(call.uri()).statusCode(),
                        k -> new AtomicInteger()).incrementAndGet());
            }
        }
        Map<String, Integer> expected = new TreeMap<>();
        strategies.forEach(s -> expected.put(s + " 200", REQUESTS_PER_STRATEGY));
        expected.put("invalid 400", INVALID_REQUESTS);
        Map<String, Integer> actual = new TreeMap<>();
        statuses.forEach((k, v) -> actual.put(k, v.get()));
        assertThat(actual).as("strategy and status of every request").isEqualTo(expected);
        return calls.size() + 1;
    }

    /**
     * {@link #BURST} requests at once on scopeFork, each holding its permit {@link #BURST_LATENCY_MS}: the first
     * {@link #ADMISSION_LIMIT} are admitted, the others answered 429 overloaded.
     *
     * @return "200" and {@link #OVERLOADED} to how many of the burst got each; fails on any other answer
     */
    private Map<String, Integer> burst() throws Exception {
        URI uri = system.mainBaseUrl().resolve(ORDERS + "?concurrency=scopeFork&latencyMs=" + BURST_LATENCY_MS);
        Map<String, AtomicInteger> answers = new ConcurrentHashMap<>();
        CountDownLatch start = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newFixedThreadPool(BURST)) {
            for (int i = 0; i < BURST; i++) {
                pool.submit(() -> {
                    start.await();
                    String answer;
                    try {
                        HttpResponse<String> response = get(uri);
                        answer = response.statusCode() + (response.statusCode() == 429
                                && response.body().contains("overloaded") ? " overloaded" : "");
                    } catch (IOException e) {
                        answer = e.toString();
                    }
                    return answers.computeIfAbsent(answer, k -> new AtomicInteger()).incrementAndGet();
                });
            }
            start.countDown();
        }
        Map<String, Integer> counts = new TreeMap<>();
        answers.forEach((k, v) -> counts.put(k, v.get()));
        assertThat(counts).as("answers to the burst").containsOnlyKeys("200", OVERLOADED);
        return counts;
    }

    private void awaitPrometheus(String promql, double atLeast, String what) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        double value = Double.NaN;
        while (System.nanoTime() < deadline) {
            value = prometheus.scalar(promql);
            if (value >= atLeast) {
                return;
            }
            LocalPrometheus.sleep(Duration.ofMillis(500));
        }
        fail("waited 60 s for " + what + ": " + promql + " = " + value + ", expected >= " + atLeast);
    }

    private HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (var paths = Files.walk(dir)) {
                for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
