package lab.fanout.systemtests;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The PromQL in grafana/dashboards/*.json: every panel target's {@code expr}, and every query variable's
 * {@code label_values(selector, label)} turned into {@code count by (label) (selector)}.
 */
final class Dashboards {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\((.*),\\s*(\\w+)\\s*\\)");
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{?(\\w+)}?");

    /**
     * What Grafana puts in place of {@code $__rate_interval} here: the end-to-end test's load lies within the last
     * minute. (Grafana itself uses max(4 x scrape interval, step + scrape interval).)
     */
    static final String RATE_INTERVAL = "1m";

    /**
     * One PromQL query of a dashboard.
     *
     * @param where  dashboard uid, panel title and refId (or "variable NAME"), for messages and the allowlist
     * @param expr   as written in the dashboard, with Grafana's variables
     * @param promql ready for Prometheus: each variable replaced by its "All" value (its current value when it has
     *               no "All"), {@code $__rate_interval} by {@link #RATE_INTERVAL}
     * @param label  for a variable's query, the label whose values it lists (a result without it lists nothing);
     *               null for a panel's
     * @param application the value put in place of {@code $application}, a regex (the dashboards match it with
     *               {@code =~}); null when the query does not use it
     */
    record Query(String where, String expr, String promql, String label, String application) {

        /** @return whether this query can show {@code variant}'s series: it does not filter by $application, or the value matches */
        boolean shows(String variant) {
            return application == null || variant.matches(application);
        }
    }

    private Dashboards() {
    }

    static List<Path> files() {
        try (Stream<Path> files = Files.list(Repo.DASHBOARDS)) {
            List<Path> json = files.filter(f -> f.toString().endsWith(".json")).sorted().toList();
            if (json.isEmpty()) {
                throw new IllegalStateException("no dashboards in " + Repo.DASHBOARDS);
            }
            return json;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode read(Path file) {
        return JSON.readTree(file.toFile());
    }

    /** @return every query of every dashboard, panels first, then variables, with the values saved in them */
    static List<Query> queries() {
        return queries(Map.of());
    }

    /**
     * As {@link #queries()}, with some variables set as a user would in Grafana: a cluster names its applications
     * otherwise than the saved value, which is the local one, and a panel repeated per variant shows one value each.
     *
     * @param chosen name to value, in place of the saved current value (or "All") of a variable, or of
     *               {@code __rate_interval}
     * @throws IllegalArgumentException when {@code chosen} names no variable of any dashboard
     */
    static List<Query> queries(Map<String, String> chosen) {
        Set<String> unused = new TreeSet<>(chosen.keySet());
        unused.remove("__rate_interval");
        List<Query> queries = new ArrayList<>();
        for (Path file : files()) {
            JsonNode dashboard = read(file);
            String uid = dashboard.path("uid").asString();
            Map<String, String> values = variableValues(dashboard, chosen);
            for (JsonNode variable : dashboard.path("templating").path("list")) {
                unused.remove(variable.path("name").asString());
            }
            String application = values.get("application");
            for (JsonNode panel : panels(dashboard)) {
                for (JsonNode target : panel.path("targets")) {
                    if (target.has("expr")) {
                        String expr = target.get("expr").asString();
                        queries.add(new Query(uid + " | " + panel.path("title").asString() + " | "
                                + target.path("refId").asString(), expr, substitute(expr, values, uid), null,
                                expr.contains("$application") ? application : null));
                    }
                }
            }
            for (JsonNode variable : dashboard.path("templating").path("list")) {
                if (variable.path("type").asString().equals("query")) {
                    String expr = variable.path("query").asString();
                    Matcher m = LABEL_VALUES.matcher(expr);
                    if (!m.matches()) {
                        throw new IllegalStateException(uid + ": variable " + variable.path("name").asString()
                                + " is not label_values(selector, label): " + expr);
                    }
                    String promql = "count by (" + m.group(2) + ") (" + m.group(1) + ")";
                    queries.add(new Query(uid + " | variable " + variable.path("name").asString() + " | query",
                            expr, substitute(promql, values, uid), m.group(2),
                            expr.contains("$application") ? application : null));
                }
            }
        }
        if (!unused.isEmpty()) {
            throw new IllegalArgumentException("no dashboard has a variable named " + unused);
        }
        return queries;
    }

    /** @return every panel, those inside rows included, rows themselves excluded */
    static List<JsonNode> panels(JsonNode dashboard) {
        List<JsonNode> all = new ArrayList<>();
        collect(dashboard.path("panels"), all);
        return all;
    }

    private static void collect(JsonNode panels, List<JsonNode> all) {
        for (JsonNode panel : panels) {
            if (!panel.path("type").asString().equals("row")) {
                all.add(panel);
            }
            collect(panel.path("panels"), all);
        }
    }

    private static Map<String, String> variableValues(JsonNode dashboard, Map<String, String> chosen) {
        Map<String, String> values = new HashMap<>();
        values.put("__rate_interval", chosen.getOrDefault("__rate_interval", RATE_INTERVAL));
        for (JsonNode variable : dashboard.path("templating").path("list")) {
            String name = variable.path("name").asString();
            String saved = variable.path("includeAll").asBoolean(false)
                    ? variable.path("allValue").asString()
                    : variable.path("current").path("value").asString();
            values.put(name, chosen.getOrDefault(name, saved));
        }
        return values;
    }

    /** @throws IllegalStateException for a variable the dashboard does not define: it would reach Prometheus raw */
    private static String substitute(String expr, Map<String, String> values, String uid) {
        return VARIABLE.matcher(expr).replaceAll(m -> {
            String value = values.get(m.group(1));
            if (value == null || value.isEmpty()) {
                throw new IllegalStateException(uid + ": $" + m.group(1) + " has no value to test with in " + expr);
            }
            return Matcher.quoteReplacement(value);
        });
    }
}
