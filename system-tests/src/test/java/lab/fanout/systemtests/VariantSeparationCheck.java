package lab.fanout.systemtests;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import lab.fanout.systemtests.DashboardQueryCheck.InstantQuery;
import lab.fanout.systemtests.Dashboards.Query;
import tools.jackson.databind.JsonNode;

/**
 * Issue 22's semantic dashboard check: with exactly one main-service variant loaded and the others idle, does every
 * panel show the load where it belongs? Run by {@link ClusterDashboardsIT} once per variant
 * (scripts/cluster/check.sh 5 loads each alone in turn). For every query, evaluated once per variant as a panel
 * repeated per {@code $application} shows it, and once with "All":
 * <ul>
 * <li>every series names whose it is: an {@code application} label, or a {@code pod} label (cAdvisor's); a series
 * with neither has added variants (or pods) together;</li>
 * <li>a panel filtered to one variant shows only that variant's series;</li>
 * <li>{@code load} queries ({@code variant-load.txt}: request rate, latency, in flight, leased connections, Little's
 * law): the loaded variant's series carry the load (at least one value above 0) and the idle variants' read 0, NaN
 * (a quantile or mean of no requests) or are absent; {@code load on V,...}: the same, but only variants V publish
 * the metric (Reactor Netty's connections: main-service-netty), so another loaded variant has none to carry it;
 * {@code idle-zero} queries (errors, pending, pinning): the idle variants' read 0, NaN or are absent. Every other query (threads, heap, CPU, pool sizes) is only checked for its
 * labels: an idle JVM has them too.</li>
 * </ul>
 */
final class VariantSeparationCheck {

    /** What {@code variant-load.txt} says a query must show. */
    enum Kind { LOAD, IDLE_ZERO }

    /**
     * @param kind      load or idle-zero
     * @param publishers for {@code load on V,...}, the variants whose series can carry the load; empty: every variant
     */
    record Expect(Kind kind, Set<String> publishers) {

        /** @return whether {@code variant}, when loaded, must show the load in this query */
        boolean carriedBy(String variant) {
            return kind == Kind.LOAD && (publishers.isEmpty() || publishers.contains(variant));
        }
    }

    /**
     * @param failures one line per failure, naming the panel ("uid | title | refId"), the $application value and
     *                 what was read; empty when every query keeps the variants apart
     * @param readings for each listed query with "All": what each variant's series read, e.g. {@code
     *                 "fanout-overview | Little's law: $application | A (load): main-service-platform [0.00],
     *                 main-service-virtual [66.40]"}
     */
    record Result(List<String> failures, List<String> readings) {
    }

    private VariantSeparationCheck() {
    }

    /**
     * @param queries   every dashboard query, once per value of $application to check (see {@link Query#shows})
     * @param loaded    the variant that was loaded within the rate interval before the evaluation time
     * @param variants  every variant (main-service-platform, main-service-virtual, main-service-netty); all but
     *                  {@code loaded} are idle
     * @throws IllegalArgumentException when Prometheus rejects a query
     * @throws IOException              when Prometheus cannot be reached or variant-load.txt cannot be read
     */
    static Result check(Collection<Query> queries, InstantQuery prometheus, String loaded,
                        Collection<String> variants) throws IOException, InterruptedException {
        Map<String, Expect> expected = expectations();
        Set<String> seen = new TreeSet<>();
        List<String> failures = new ArrayList<>();
        List<String> readings = new ArrayList<>();
        for (Query query : queries) {
            if (query.label() != null) {
                continue;   // a variable lists label values; the panels show the series
            }
            seen.add(query.where());
            String where = query.where() + " [$application=" + query.application() + "]";
            Map<String, List<Double>> byVariant = new TreeMap<>();
            for (JsonNode series : prometheus.result(query.promql())) {
                JsonNode metric = series.path("metric");
                String owner = owner(metric, variants);
                double value = Double.parseDouble(series.path("value").get(1).asString());
                if (owner == null) {
                    failures.add(where + ": a series names no application or pod, it adds variants together: " + metric);
                } else if (variants.contains(owner)) {
                    if (!query.shows(owner)) {
                        failures.add(where + ": shows " + owner + ", which its $application excludes: " + metric);
                    }
                    byVariant.computeIfAbsent(owner, v -> new ArrayList<>()).add(value);
                }
            }
            Expect expect = expected.get(query.where());
            if (expect == null) {
                continue;
            }
            if (variants.stream().allMatch(query::shows)) {
                readings.add(query.where() + " (" + expect.kind().name().toLowerCase().replace('_', '-') + "): " + variants.stream()
                        .map(v -> v + " " + sum(byVariant.get(v))).collect(Collectors.joining(", ")));
            }
            for (String variant : variants) {
                List<Double> values = byVariant.getOrDefault(variant, List.of());
                if (variant.equals(loaded)) {
                    if (expect.carriedBy(variant) && query.shows(variant) && values.stream().noneMatch(v -> v > 0)) {
                        failures.add(where + ": the loaded " + variant + " carries no load: " + values);
                    }
                } else if (values.stream().anyMatch(v -> !Double.isNaN(v) && v != 0)) {
                    failures.add(where + ": the idle " + variant + " reads " + values + " (want 0, NaN or no series)");
                }
            }
        }
        expected.keySet().stream().filter(k -> !seen.contains(k))
                .forEach(k -> failures.add("variant-load.txt names no dashboard query: " + k));
        return new Result(failures, readings);
    }

    /**
     * @return the values, or for more than three their sum and maximum, rounded to 0.01 ("no series" when there is
     *         none); e.g. {@code "[0.2, NaN]"}, {@code "sum 60.8, max 17.1 of 6"}
     */
    private static String sum(List<Double> values) {
        if (values == null) {
            return "no series";
        }
        if (values.size() <= 3) {
            return values.stream().map(VariantSeparationCheck::round).toList().toString();
        }
        double sum = values.stream().mapToDouble(Double::doubleValue).sum();
        double max = values.stream().mapToDouble(Double::doubleValue).filter(v -> !Double.isNaN(v)).max().orElse(Double.NaN);
        return "sum " + round(sum) + ", max " + round(max) + " of " + values.size();
    }

    private static String round(double value) {
        return Double.isNaN(value) ? "NaN" : String.format(Locale.ROOT, "%.2f", value);
    }

    /**
     * @return whose a series is: its application label when it has one, else the application (of
     *         {@code variants}) whose Deployment's pods its pod label names ("main-service-virtual-5d8f9-x2x7k"),
     *         else its pod label (another pod of the namespace); null when it has neither label
     */
    static String owner(JsonNode metric, Collection<String> variants) {
        String application = metric.path("application").asString("");
        if (!application.isEmpty()) {
            return application;
        }
        String pod = metric.path("pod").asString("");
        if (pod.isEmpty()) {
            return null;
        }
        return variants.stream().filter(v -> pod.startsWith(v + "-")).findFirst().orElse(pod);
    }

    /**
     * @return "dashboard uid | panel title | refId" to what it must show, from variant-load.txt
     * @throws IllegalStateException when a line is not "uid | panel | refId | load, load on V,... or idle-zero | why"
     */
    static Map<String, Expect> expectations() throws IOException {
        Map<String, Expect> entries = new TreeMap<>();
        try (InputStream in = VariantSeparationCheck.class.getResourceAsStream("/variant-load.txt")) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            for (String line : text.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList()) {
                String[] parts = line.split("\\s*\\|\\s*", 5);
                if (parts.length != 5 || !parts[3].matches("load|idle-zero|load on [\\w.-]+(,[\\w.-]+)*") || parts[4].isBlank()) {
                    throw new IllegalStateException("variant-load.txt: want 'uid | panel | refId | load, load on V,... or"
                            + " idle-zero | why', got: " + line);
                }
                Set<String> publishers = parts[3].startsWith("load on ")
                        ? Set.of(parts[3].substring("load on ".length()).split(",")) : Set.of();
                entries.put(parts[0] + " | " + parts[1] + " | " + parts[2],
                        new Expect(parts[3].equals("idle-zero") ? Kind.IDLE_ZERO : Kind.LOAD, publishers));
            }
        }
        return entries;
    }
}
