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

import lab.fanout.bench.metrics.Exposition;
import lab.fanout.bench.metrics.Scraper;
import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.model.Stats;
import lab.fanout.bench.model.Strategy;
import lab.fanout.bench.system.LocalSystem.LaunchSpec;
import lab.fanout.bench.system.LocalSystem;
import lab.fanout.bench.system.Poll;

/**
 * {@code ./lab bench --preset faults}: the failure-mode table. For each scenario (one downstream failing or slow, the
 * other two healthy) and each strategy, a few requests one at a time, and for each request what the caller and the
 * services saw: the answer and how long it took (time to error), the downstream calls made and what became of them
 * (abandoned by main-service, finished after the budget it sent), calls that finished after the answer (wasted), and
 * what was still busy right after the answer (calls in flight, each holding a pooled connection or waiting for one,
 * and a thread too for every strategy but reactive; pooled connections leased, of both pools; platform threads above
 * the idle baseline) and for how long.
 * <p>
 * Figures come from the services' own meters at {@code /actuator/prometheus} (main-service: {@code fanout_calls_*},
 * {@code jvm_threads_live_threads}; downstreams: {@code downstream_requests_abandoned_total},
 * {@code downstream_requests_late_total}, {@code http_server_requests_seconds_count}), scraped before each request,
 * right after its answer, and once everything has ended. One request at a time, so that each delta is that request's.
 */
public final class FaultsPreset {

    /** main-service's deadline for this preset: short, so that the slow scenarios end in seconds. */
    static final Duration DEADLINE = Duration.ofSeconds(2);
    static final int REQUESTS_PER_CELL = 3;
    private static final String ENDPOINT = "/backoffice/api/v1/backoffice/orders";
    private static final Map<String, String> CATALOGUE_URIS = Map.of("orders-service", "/order/api/v1/orders",
            "products-service", "/product/api/v1/products", "accounts-service", "/account/api/v1/accounts");

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

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final PrintStream out;

    private FaultsPreset(PrintStream out) {
        this.out = out;
    }

    /**
     * Starts the four services (virtual profile, free ports, main-service's deadline 2 s), runs every scenario for
     * every strategy, stops them, and writes {@code faults.md} into {@code dir}.
     *
     * @return the markdown written, also printed to {@code out}
     */
    public static String run(Path repo, Path dir, PrintStream out) {
        LaunchSpec spec = new LaunchSpec(repo, "virtual", null, null, null, true, dir.resolve("logs"),
                Map.of("fanout.deadline", DEADLINE.toMillis() + "ms"), Map.of(), List.of());
        List<String> tables = new ArrayList<>();
        try (LocalSystem system = LocalSystem.start(spec)) {
            FaultsPreset preset = new FaultsPreset(out);
            preset.warmUp(system);
            for (Scenario scenario : SCENARIOS) {
                out.println("scenario: " + scenario.title());
                List<String> rows = new ArrayList<>();
                for (Strategy strategy : Strategy.values()) {
                    List<Observation> observations = new ArrayList<>();
                    for (int i = 0; i < REQUESTS_PER_CELL; i++) {
                        observations.add(preset.observe(system, strategy, scenario));
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

    /** The first failure of each strategy loads its classes: not part of any figure. */
    private void warmUp(LocalSystem system) {
        for (Strategy strategy : Strategy.values()) {
            send(system, strategy, "latencyMs=0");
            send(system, strategy, "latencyMs=0&faultTarget=orders&errorRate=1");
        }
    }

    private Observation observe(LocalSystem system, Strategy strategy, Scenario scenario) {
        awaitIdle(system.mainManagementUrl(), Duration.ofSeconds(15));
        Exposition mainBefore = scrape(system.mainManagementUrl());
        List<Exposition> downstreamsBefore = ServiceDefaults.DOWNSTREAMS.stream().map(d -> scrape(system.managementUrl(d))).toList();

        long start = System.nanoTime();
        int status = send(system, strategy, scenario.query());
        long answered = System.nanoTime();
        Exposition mainAfter = scrape(system.mainManagementUrl());
        double inFlightAfter = value(mainAfter, "fanout_calls_in_flight");
        // from the answer until no call runs; 0 when none ran at the first look (a scrape takes ~20 ms itself)
        double busyAfterMs = 0;
        if (inFlightAfter > 0) {
            awaitIdle(system.mainManagementUrl(), Duration.ofSeconds(15));
            busyAfterMs = (System.nanoTime() - answered) / 1e6;
        }
        sleepUntil(start + scenario.settleTime().toNanos());
        Exposition mainEnd = scrape(system.mainManagementUrl());
        List<Exposition> downstreamsEnd = ServiceDefaults.DOWNSTREAMS.stream().map(d -> scrape(system.managementUrl(d))).toList();

        double made = 0;
        double abandoned = 0;
        double late = 0;
        for (int i = 0; i < ServiceDefaults.DOWNSTREAMS.size(); i++) {
            Map<String, String> catalogue = Map.of("uri", CATALOGUE_URIS.get(ServiceDefaults.DOWNSTREAMS.get(i)));
            made += delta(downstreamsBefore.get(i), downstreamsEnd.get(i), "http_server_requests_seconds_count", catalogue);
            abandoned += delta(downstreamsBefore.get(i), downstreamsEnd.get(i), "downstream_requests_abandoned_total", Map.of());
            late += delta(downstreamsBefore.get(i), downstreamsEnd.get(i), "downstream_requests_late_total", Map.of());
        }
        return new Observation(status, (answered - start) / 1e6, made, abandoned, late,
                delta(mainBefore, mainEnd, "fanout_calls_wasted_total", Map.of()), inFlightAfter,
                mainAfter.sum(Scraper.LEASED, Map.of("state", "leased")).orElse(Double.NaN),
                value(mainAfter, "jvm_threads_live_threads") - value(mainBefore, "jvm_threads_live_threads"),
                busyAfterMs);
    }

    private int send(LocalSystem system, Strategy strategy, String query) {
        URI uri = system.mainBaseUrl().resolve(ENDPOINT + "?concurrency=" + strategy + "&" + query);
        try {
            return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            throw new UncheckedIOException("GET " + uri + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Waits until main-service runs no downstream call, polling every 10 ms. */
    private static void awaitIdle(URI main, Duration atMost) {
        Poll.until("main-service to run no downstream call (a leak, or a scenario longer than it says?)", atMost,
                Duration.ofMillis(10), () -> value(scrape(main), "fanout_calls_in_flight") <= 0);
    }

    /** @param service a service's management URL (its actuator) */
    private static Exposition scrape(URI service) {
        return Scraper.scrape(service)
                .orElseThrow(() -> new IllegalStateException(service + "/actuator/prometheus did not answer"));
    }

    private static double value(Exposition e, String name) {
        return e.sum(name, Map.of()).orElseThrow(() -> new IllegalStateException("no metric " + name
                + " (is the service built from this checkout? ./lab build)"));
    }

    /** Counters appear with their first increment: absent before means 0. */
    private static double delta(Exposition before, Exposition after, String name, Map<String, String> labels) {
        return after.sum(name, labels).orElse(0) - before.sum(name, labels).orElse(0);
    }

    static String row(Strategy strategy, List<Observation> o) {
        return "| " + strategy
                + " | " + String.join(" ", o.stream().map(x -> String.valueOf(x.status())).distinct().toList())
                + " | " + ms(median(o, Observation::timeToAnswerMs))
                + " | " + avg(o, Observation::callsMade)
                + " | " + avg(o, Observation::abandoned)
                + " | " + avg(o, Observation::late)
                + " | " + avg(o, Observation::wasted)
                + " | " + avg(o, Observation::inFlightAfter)
                + " | " + avg(o, Observation::leasedAfter)
                + " | " + avg(o, Observation::platformThreadsAfter)
                + " | " + ms(median(o, Observation::busyAfterMs)) + " |";
    }

    static String table(Scenario scenario, List<String> rows) {
        return "### " + scenario.title() + "\n\n`" + scenario.query() + "`\n\n"
                + "| strategy | answer | time to answer (ms, median) | downstream calls made | abandoned by main-service"
                + " | finished after the budget | wasted (finished after the answer) | calls in flight right after the answer"
                + " | pooled connections leased right after the answer | platform threads above before | busy after the answer (ms, median) |\n"
                + "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n" + String.join("\n", rows) + "\n";
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

    private interface Figure {
        double of(Observation o);
    }

    /** @return the mean per request, 1 decimal; n/a when some request lacks the figure (NaN: a gauge absent) */
    private static String avg(List<Observation> o, Figure figure) {
        Double mean = Stats.meanOrNull(o.stream().map(figure::of).toList());
        return mean == null ? "n/a" : String.format(Locale.ROOT, "%.1f", mean);
    }

    private static Double median(List<Observation> o, Figure figure) {
        return Stats.median(o.stream().map(figure::of).toList());
    }

    private static String ms(Double ms) {
        return ms == null ? "n/a" : String.format(Locale.ROOT, "%.0f", ms);
    }

    private static void sleepUntil(long nanoTime) {
        Poll.sleep(Duration.ofNanos(nanoTime - System.nanoTime()));
    }
}
