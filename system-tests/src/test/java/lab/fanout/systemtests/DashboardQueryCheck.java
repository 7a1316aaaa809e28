package lab.fanout.systemtests;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.StreamSupport;

import lab.fanout.systemtests.Dashboards.Query;
import tools.jackson.databind.JsonNode;

/**
 * Does every dashboard query return data? Shared by {@link DashboardsEndToEndIT} (a local Prometheus) and
 * {@link ClusterDashboardsIT} (a cluster's), with the allowlist {@code empty-by-nature.txt}; the local test adds
 * {@code empty-under-lab-up.txt} (what only Kubernetes has: namespaces, pods, cAdvisor, the platform variant).
 */
final class DashboardQueryCheck {

    /** Runs a PromQL instant query at the current time: {@link PrometheusClient#query(String)} or the like. */
    @FunctionalInterface
    interface InstantQuery {
        /** @return the {@code data.result} array; never null */
        JsonNode result(String promql) throws IOException, InterruptedException;
    }

    private DashboardQueryCheck() {
    }

    /**
     * Runs every query and lists what is wrong: a query without data that no allowlist names (kind, where, PromQL),
     * an allowlisted one that has data, an allowlist entry that names no query. The same {@code where} may come more
     * than once (a panel repeated per variant, tested with each): it has data when one of them has.
     *
     * @param allowlists resources on the class path, each as {@code empty-by-nature.txt}
     * @return one line per failure; empty when all is well
     * @throws IllegalArgumentException when Prometheus rejects a query (its error and the PromQL)
     * @throws IOException              when Prometheus cannot be reached, or an allowlist cannot be read
     */
    static List<String> failures(Collection<Query> queries, InstantQuery prometheus, String... allowlists)
            throws IOException, InterruptedException {
        Map<String, String> allowed = new TreeMap<>();
        for (String allowlist : allowlists) {
            allowed.putAll(emptyByNature(allowlist));
        }
        Map<String, String> missing = new LinkedHashMap<>();   // where -> what is missing, while no evaluation has data
        Set<String> hasData = new TreeSet<>();
        for (Query query : queries) {
            String problem = missingData(prometheus.result(query.promql()), query.label());
            if (problem == null) {
                hasData.add(query.where());
            } else {
                missing.putIfAbsent(query.where(), problem + " " + query.where() + "\n      " + query.promql());
            }
        }
        List<String> failures = new ArrayList<>();
        missing.forEach((where, problem) -> {
            if (!hasData.contains(where) && !allowed.containsKey(where)) {
                failures.add(problem);
            }
        });
        hasData.stream().filter(allowed::containsKey)
                .forEach(where -> failures.add("HAS DATA, remove from the allowlist: " + where));
        allowed.keySet().stream().filter(k -> !hasData.contains(k) && !missing.containsKey(k))
                .forEach(k -> failures.add("the allowlist names no dashboard query: " + k));
        return failures;
    }

    /**
     * @param label for a variable's query, the label it lists
     * @return null when the result holds a number that is not NaN (with {@code label}, if given), else what is wrong
     */
    static String missingData(JsonNode result, String label) {
        if (result.isEmpty()) {
            return "EMPTY";
        }
        List<JsonNode> series = StreamSupport.stream(result.spliterator(), false)
                .filter(s -> label == null || !s.path("metric").path(label).asString("").isEmpty()).toList();
        if (series.isEmpty()) {
            return "NO LABEL " + label + ":";
        }
        return series.stream().anyMatch(s -> !Double.isNaN(Double.parseDouble(s.path("value").get(1).asString())))
                ? null : "ALL NaN";
    }

    /**
     * @param resource e.g. {@code empty-by-nature.txt}
     * @return "dashboard uid | panel title | refId" to the reason
     * @throws IllegalStateException when a line is not "uid | panel | refId | reason"
     */
    static Map<String, String> emptyByNature(String resource) throws IOException {
        Map<String, String> entries = new TreeMap<>();
        try (InputStream in = DashboardQueryCheck.class.getResourceAsStream("/" + resource)) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            for (String line : text.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList()) {
                String[] parts = line.split("\\s*\\|\\s*", 4);
                if (parts.length != 4 || parts[3].isBlank()) {
                    throw new IllegalStateException(resource + ": want 'uid | panel | refId | reason', got: " + line);
                }
                entries.put(parts[0] + " | " + parts[1] + " | " + parts[2], parts[3]);
            }
        }
        return entries;
    }
}
