package lab.fanout.bench.faults;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import lab.fanout.bench.metrics.Exposition;
import lab.fanout.bench.metrics.Scraper;
import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.model.Stats;
import lab.fanout.bench.model.Strategy;
import lab.fanout.bench.report.MarkdownTable;
import lab.fanout.bench.system.LocalSystem.LaunchSpec;
import lab.fanout.bench.system.LocalSystem;
import lab.fanout.bench.system.Poll;

import static lab.fanout.bench.model.ServiceDefaults.DOWNSTREAMS;

/**
 * {@code ./lab bench --preset faults}: the failure-mode table. Per scenario (one downstream failing or slow, the others
 * healthy) and strategy, a few requests one at a time, each measured as deltas of the services' own meters at
 * {@code /actuator/prometheus}, scraped before it, right after its answer, and once every call has ended: time to
 * answer (or error), downstream calls made, abandoned and finished after the budget, calls wasted (finished after the
 * answer), and what was still busy after the answer (calls in flight, leased connections, platform threads) and how
 * long. One request at a time, so that each delta is that request's.
 */
public final class FaultsPreset {

    /** main-service's deadline for this preset: short, so that the slow scenarios end in seconds. */
    static final Duration DEADLINE = Duration.ofSeconds(2);
    static final int REQUESTS_PER_CELL = 3;
    private static final Map<String, String> CATALOGUE_URIS = Map.of("orders-service", "/order/api/v1/orders",
            "products-service", "/product/api/v1/products", "accounts-service", "/account/api/v1/accounts");
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    /**
     * @param query      the fault, as main-service's query parameters
     * @param settleTime how long after the request started every downstream call has surely ended (its latency, tail
     *                   or dribble, plus a margin), so that the downstream counters are final
     */
    record Scenario(String title, String query, Duration settleTime) {
    }

    static final List<Scenario> SCENARIOS = List.of(
            new Scenario("orders fails at once (500), products and accounts take 600 ms",
                    "latencyMs=600&faultTarget=orders&errorRate=1", Duration.ofMillis(1800)),
            new Scenario("accounts closes the connection at once, orders and products take 600 ms",
                    "latencyMs=600&faultTarget=accounts&closeRate=1", Duration.ofMillis(1800)),
            new Scenario("orders answers after 5 s, past the 2 s deadline; the others take 100 ms",
                    "latencyMs=100&faultTarget=orders&tailMs=5000", Duration.ofMillis(5800)),
            new Scenario("orders dribbles its body over 5 s, past the 2 s deadline; the others take 100 ms",
                    "latencyMs=100&faultTarget=orders&dribbleMs=5000", Duration.ofMillis(5800)));

    /** What one request cost, as deltas of the services' meters. */
    record Observation(int status, double timeToAnswerMs, double callsMade, double abandoned, double late,
                       double wasted, double inFlightAfter, double leasedAfter, double platformThreadsAfter,
                       double busyAfterMs) {
    }

    private FaultsPreset() {
    }

    /** @return for {@code --dry-run}: per scenario and strategy its requests and time (each waits out the settling) */
    public static List<String> plan() {
        List<String> lines = new ArrayList<>(List.of(String.format(Locale.ROOT, "--preset faults: %d scenarios x %d"
                + " strategies, %d requests each, one at a time; main-service's deadline %d s", SCENARIOS.size(),
                Strategy.values().length, REQUESTS_PER_CELL, DEADLINE.toSeconds())));
        Duration total = Duration.ZERO;
        for (Scenario scenario : SCENARIOS) {
            lines.add("  " + scenario.title() + " (" + scenario.query() + ")");
            Duration cell = scenario.settleTime().multipliedBy(REQUESTS_PER_CELL);
            for (Strategy strategy : Strategy.values()) {
                lines.add(String.format(Locale.ROOT, "    %-45s %d requests, ~%.1f s", strategy, REQUESTS_PER_CELL,
                        cell.toMillis() / 1000.0));
                total = total.plus(cell);
            }
        }
        lines.add(String.format(Locale.ROOT, "%d requests, about %d min %02d s plus starting the four services",
                SCENARIOS.size() * Strategy.values().length * REQUESTS_PER_CELL, total.toMinutes(),
                total.toSecondsPart()));
        return lines;
    }

    /**
     * Starts the four services (virtual, free ports, deadline 2 s), runs every scenario for every strategy, stops them.
     *
     * @return the markdown written to {@code dir/faults.md}, also printed to {@code out}
     */
    public static String run(Path repo, Path dir, PrintStream out) {
        LaunchSpec spec = LaunchSpec.custom(repo).freePorts(true).logDir(dir.resolve("logs"))
                .extraMainProperties(Map.of("fanout.deadline", DEADLINE.toMillis() + "ms")).build();
        List<String> tables = new ArrayList<>();
        try (LocalSystem system = LocalSystem.start(spec)) {
            for (Strategy strategy : Strategy.values()) {   // the first failure of each loads its classes: no figure
                send(system, strategy, "latencyMs=0");
                send(system, strategy, "latencyMs=0&faultTarget=orders&errorRate=1");
            }
            for (Scenario scenario : SCENARIOS) {
                out.println("scenario: " + scenario.title());
                List<List<String>> rows = new ArrayList<>();
                for (Strategy strategy : Strategy.values()) {
                    List<Observation> observations = new ArrayList<>();
                    for (int i = 0; i < REQUESTS_PER_CELL; i++) {
                        observations.add(observe(system, strategy, scenario));
                    }
                    rows.add(row(strategy, observations));
                    out.println("  " + strategy + " done");
                }
                tables.add(table(scenario, rows));
            }
        }
        String markdown = document(tables);
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("faults.md"), markdown);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + dir.resolve("faults.md"), e);
        }
        out.println(markdown);
        return markdown;
    }

    private static Observation observe(LocalSystem system, Strategy strategy, Scenario scenario) {
        URI main = system.mainManagementUrl();
        awaitIdle(main);
        Exposition mainBefore = scrape(main);
        List<Exposition> downstreamsBefore = DOWNSTREAMS.stream().map(d -> scrape(system.managementUrl(d))).toList();
        long start = System.nanoTime();
        int status = send(system, strategy, scenario.query());
        long answered = System.nanoTime();
        Exposition mainAfter = scrape(main);
        double inFlightAfter = value(mainAfter, "fanout_calls_in_flight");
        // from the answer until no call runs; 0 when none ran at the first look (a scrape takes ~20 ms itself)
        double busyAfterMs = 0;
        if (inFlightAfter > 0) {
            awaitIdle(main);
            busyAfterMs = (System.nanoTime() - answered) / 1e6;
        }
        Poll.sleep(Duration.ofNanos(start + scenario.settleTime().toNanos() - System.nanoTime()));
        Exposition mainEnd = scrape(main);
        List<Exposition> downstreamsEnd = DOWNSTREAMS.stream().map(d -> scrape(system.managementUrl(d))).toList();
        return new Observation(status, (answered - start) / 1e6,
                downstreams(downstreamsBefore, downstreamsEnd, "http_server_requests_seconds_count", true),
                downstreams(downstreamsBefore, downstreamsEnd, "downstream_requests_abandoned_total", false),
                downstreams(downstreamsBefore, downstreamsEnd, "downstream_requests_late_total", false),
                delta(mainBefore, mainEnd, "fanout_calls_wasted_total", Map.of()), inFlightAfter,
                mainAfter.sum(Scraper.LEASED, Map.of("state", "leased")).orElse(Double.NaN),
                value(mainAfter, "jvm_threads_live_threads") - value(mainBefore, "jvm_threads_live_threads"),
                busyAfterMs);
    }

    private static int send(LocalSystem system, Strategy strategy, String query) {
        URI uri = ServiceDefaults.ordersUrl(system.mainBaseUrl(), strategy, query);
        try {
            return HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            throw new UncheckedIOException("GET " + uri + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Waits up to 15 s until main-service runs no downstream call, polling every 10 ms. */
    private static void awaitIdle(URI main) {
        Poll.until("main-service to run no downstream call (a leak, or a scenario longer than it says?)", Duration
                .ofSeconds(15), Duration.ofMillis(10), () -> value(scrape(main), "fanout_calls_in_flight") <= 0);
    }

    /** @param service a service's management URL (its actuator) */
    private static Exposition scrape(URI service) {
        return Scraper.scrape(service)
                .orElseThrow(() -> new IllegalStateException(service + "/actuator/prometheus did not answer"));
    }

    private static double value(Exposition e, String name) {
        return e.sum(name).orElseThrow(() -> new IllegalStateException("no metric " + name
                + " (is the service built from this checkout? ./lab build)"));
    }

    /** @return the change of {@code name} summed over the downstreams; {@code uri}: only their catalogue's requests */
    private static double downstreams(List<Exposition> before, List<Exposition> end, String name, boolean uri) {
        double sum = 0;
        for (int i = 0; i < DOWNSTREAMS.size(); i++) {
            Map<String, String> labels = uri ? Map.of("uri", CATALOGUE_URIS.get(DOWNSTREAMS.get(i))) : Map.of();
            sum += delta(before.get(i), end.get(i), name, labels);
        }
        return sum;
    }

    /** Counters appear with their first increment: absent before means 0. */
    private static double delta(Exposition before, Exposition after, String name, Map<String, String> labels) {
        return after.sum(name, labels).orElse(0) - before.sum(name, labels).orElse(0);
    }

    /** @return a strategy's row of {@link #table}: its answers' statuses, then the medians and means */
    static List<String> row(Strategy strategy, List<Observation> o) {
        return List.of(strategy.toString(),
                String.join(" ", o.stream().map(x -> String.valueOf(x.status())).distinct().toList()),
                ms(o, Observation::timeToAnswerMs), mean(o, Observation::callsMade), mean(o, Observation::abandoned),
                mean(o, Observation::late), mean(o, Observation::wasted), mean(o, Observation::inFlightAfter),
                mean(o, Observation::leasedAfter), mean(o, Observation::platformThreadsAfter),
                ms(o, Observation::busyAfterMs));
    }

    private static final List<String> HEADER = List.of("strategy", "answer", "time to answer (ms, median)",
            "downstream calls made", "abandoned by main-service", "finished after the budget",
            "wasted (finished after the answer)", "calls in flight right after the answer",
            "pooled connections leased right after the answer", "platform threads above before",
            "busy after the answer (ms, median)");

    static String table(Scenario scenario, List<List<String>> rows) {
        MarkdownTable table = new MarkdownTable(HEADER, MarkdownTable.align(2, MarkdownTable.DEFAULT,
                MarkdownTable.RIGHT, HEADER.size()));
        rows.forEach(table::row);
        return "### " + scenario.title() + "\n\n`" + scenario.query() + "`\n\n" + table;
    }

    private static String document(List<String> tables) {
        return "## Failure modes per strategy (`./lab bench --preset faults`)\n\n"
                + "Virtual profile, main-service deadline " + DEADLINE.toSeconds() + " s, response timeout 5 s; "
                + REQUESTS_PER_CELL + " requests per row, one at a time; counts are per request (mean). "
                + "\"Calls in flight\" each hold a pooled connection, and a thread too for every strategy but reactive"
                + " (whose calls run on HttpClient's I/O reactor threads); \"pooled connections leased\" counts both"
                + " pools (the blocking strategies' and reactive's); \"busy after the answer\" is how long"
                + " main-service still ran calls of that request after answering it.\n\n"
                + String.join("\n", tables);
    }

    /** @return the mean per request, 1 decimal; n/a when some request lacks the figure (NaN: a gauge absent) */
    private static String mean(List<Observation> o, ToDoubleFunction<Observation> figure) {
        Double mean = Stats.meanOrNull(o.stream().map(figure::applyAsDouble).toList());
        return mean == null ? "n/a" : String.format(Locale.ROOT, "%.1f", mean);
    }

    /** @return the median, whole ms */
    private static String ms(List<Observation> o, ToDoubleFunction<Observation> figure) {
        Double median = Stats.median(o.stream().map(figure::applyAsDouble).toList());
        return median == null ? "n/a" : String.format(Locale.ROOT, "%.0f", median);
    }
}
