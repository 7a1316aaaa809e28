package lab.fanout.systemtests;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import tools.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The static half of issue 22's check: every dashboard query keeps main-service's variants apart
 * ({@link VariantLabels}), every legend names the variant, and a panel repeated per value of a variable filters by
 * it. The semantic half, against a cluster with one variant loaded, is {@link VariantSeparationCheck}.
 */
class DashboardVariantsTest {

    @Test
    void everyAggregationKeepsApplicationOrPod() {
        List<String> failures = new ArrayList<>();
        forEachTarget((where, panel, target) -> VariantLabels.dropped(target.path("expr").asString())
                .forEach(problem -> failures.add(where + ": " + problem)));
        assertThat(failures).as("aggregations that add main-service-platform and main-service-virtual together")
                .isEmpty();
    }

    @Test
    void everyLegendNamesTheVariant() {
        List<String> failures = new ArrayList<>();
        forEachTarget((where, panel, target) -> {
            String legend = target.path("legendFormat").asString("");
            if (!legend.contains("{{application}}") && !legend.contains("{{pod}}")) {
                failures.add(where + ": legend '" + legend + "'");
            }
        });
        assertThat(failures).as("legends without {{application}} or {{pod}}").isEmpty();
    }

    @Test
    void aRepeatedPanelFiltersByItsVariable() {
        List<String> failures = new ArrayList<>();
        forEachTarget((where, panel, target) -> {
            String repeat = panel.path("repeat").asString("");
            if (!repeat.isEmpty() && !target.path("expr").asString().contains("$" + repeat)) {
                failures.add(where + ": repeated per $" + repeat + " but does not use it");
            }
        });
        assertThat(failures).isEmpty();
    }

    /** The overview puts the variants side by side: its main-service panels are repeated per $application. */
    @Test
    void theOverviewRepeatsItsMainServicePanelsPerVariant() {
        JsonNode overview = Dashboards.read(Repo.DASHBOARDS.resolve("fanout-overview.json"));
        List<String> notRepeated = new ArrayList<>();
        for (JsonNode panel : Dashboards.panels(overview)) {
            boolean perVariant = false;
            for (JsonNode target : panel.path("targets")) {
                perVariant |= target.path("expr").asString().contains("$application");
            }
            boolean comparison = panel.path("title").asString().startsWith("Platform vs virtual vs netty");
            if (perVariant && !comparison && !panel.path("repeat").asString("").equals("application")) {
                notRepeated.add(panel.path("title").asString());
            }
        }
        assertThat(notRepeated).as("overview panels on $application that are not repeated per variant").isEmpty();
    }

    /**
     * The metrics of each server main-service runs on, which only that server publishes: a variant on it needs them
     * on the overview, in panels repeated per variant (issue 38: Reactor Netty's connections and event loops).
     */
    static final Map<String, List<String>> SERVER_METRICS = Map.of(
            "platform", List.of("tomcat_threads_busy_threads", "tomcat_threads_config_max_threads"),
            "virtual", List.of("tomcat_threads_busy_threads"),
            "netty", List.of("reactor_netty_http_server_connections", "reactor_netty_http_server_connections_active",
                    "reactor_netty_eventloop_pending_tasks"));

    /**
     * Every main-service variant k8s/base deploys (each folder main-service-X with its SPRING_PROFILES_ACTIVE) is one
     * of the overview's $application values and has its server's own metrics in panels repeated per variant; a variant
     * on a server this test does not know fails until its metrics are named here and charted.
     */
    @Test
    void everyDeployedVariantHasItsServersPanels() throws IOException {
        JsonNode overview = Dashboards.read(Repo.DASHBOARDS.resolve("fanout-overview.json"));
        String applications = applicationRegex(overview);
        List<String> repeatedMetrics = new ArrayList<>();
        for (JsonNode panel : Dashboards.panels(overview)) {
            if (panel.path("repeat").asString("").equals("application")) {
                panel.path("targets").forEach(t -> repeatedMetrics.addAll(PromqlNames.of(t.path("expr").asString())));
            }
        }
        Map<String, String> variants = deployedVariants();
        assertThat(variants).as("k8s/base/main-service-*/ and their profiles").containsKey("main-service-netty");
        List<String> failures = new ArrayList<>();
        variants.forEach((variant, profile) -> {
            if (!variant.matches(applications)) {
                failures.add(variant + ": not a value of $application (application=~\"" + applications + "\")");
            }
            List<String> metrics = SERVER_METRICS.get(profile);
            if (metrics == null) {
                failures.add(variant + ": profile " + profile + " runs a server whose metrics SERVER_METRICS does not name");
            } else {
                metrics.stream().filter(m -> !repeatedMetrics.contains(m))
                        .forEach(m -> failures.add(variant + " (" + profile + "): no panel repeated per $application shows " + m));
            }
        });
        assertThat(failures).as("deployed variants without their server's panels on the overview").isEmpty();
    }

    /** @return the regex of the overview's $application variable's query (application=~"..."), or "" */
    private static String applicationRegex(JsonNode dashboard) {
        for (JsonNode variable : dashboard.path("templating").path("list")) {
            Matcher regex = Pattern.compile("application=~\"([^\"]+)\"").matcher(variable.path("query").asString());
            if (variable.path("name").asString().equals("application") && regex.find()) {
                return regex.group(1);
            }
        }
        return "";
    }

    /** @return each k8s/base/main-service-X folder's name to the Spring profile its patch sets */
    static Map<String, String> deployedVariants() throws IOException {
        Pattern profile = Pattern.compile("name: SPRING_PROFILES_ACTIVE\\s+value: (\\S+)");
        Map<String, String> variants = new TreeMap<>();
        try (Stream<Path> dirs = Files.list(Repo.ROOT.resolve("k8s/base"))) {
            for (Path dir : dirs.filter(d -> d.getFileName().toString().startsWith("main-service-")).toList()) {
                Matcher m = profile.matcher(Files.readString(dir.resolve("kustomization.yaml")));
                variants.put(dir.getFileName().toString(), m.find() ? m.group(1) : "(none)");
            }
        }
        return variants;
    }

    /** The check can fail: the lexer finds what a merged query looks like, in every form the dashboards use. */
    @Test
    void mergingExpressionsAreFound() {
        assertThat(VariantLabels.dropped("sum by (strategy) (rate(x{application=~\"main-service.*\"}[1m]))"))
                .containsExactly("sum by (strategy): keeps neither application nor pod");
        assertThat(VariantLabels.dropped("sum(rate(x[1m]))")).containsExactly("sum(...): keeps neither application nor pod");
        assertThat(VariantLabels.dropped("histogram_quantile(0.99, sum by (le) (rate(x_bucket[1m])))")).hasSize(1);
        assertThat(VariantLabels.dropped("sum(rate(x[1m])) by (strategy)")).hasSize(1);
        assertThat(VariantLabels.dropped("max without (application, pod) (x)")).hasSize(1);
        assertThat(VariantLabels.dropped("sum by (application) (a) or on (strategy) 0 * sum by (application) (b)"))
                .containsExactly("on (strategy): matches across variants");
        assertThat(VariantLabels.dropped("a / ignoring (application) b")).hasSize(1);
        // and what keeps them apart
        assertThat(VariantLabels.dropped("histogram_quantile(0.5, sum by (le, application, strategy) (rate(x[1m])))")).isEmpty();
        assertThat(VariantLabels.dropped("sum(rate(x[1m])) by (pod)")).isEmpty();
        assertThat(VariantLabels.dropped("sum without (le) (x) / on (application, strategy) y")).isEmpty();
        assertThat(VariantLabels.dropped("max_over_time(x{application=\"sum by (strategy) (\"}[1m])")).isEmpty();
    }

    /** Issue 22's "done when": one {@code by (application} removed from today's overview makes the check fail. */
    @Test
    void removingOneByApplicationFromTheOverviewFails() {
        JsonNode overview = Dashboards.read(Repo.DASHBOARDS.resolve("fanout-overview.json"));
        String mutated = null;
        for (JsonNode panel : Dashboards.panels(overview)) {
            for (JsonNode target : panel.path("targets")) {
                String expr = target.path("expr").asString();
                if (mutated == null && expr.contains("by (application, strategy)")) {
                    mutated = expr.replaceFirst("by \\(application, strategy\\)", "by (strategy)");
                }
            }
        }
        assertThat(mutated).as("an overview query grouped by (application, strategy)").isNotNull();
        assertThat(VariantLabels.dropped(mutated)).isNotEmpty();
    }

    interface TargetVisitor {
        void visit(String where, JsonNode panel, JsonNode target);
    }

    private static void forEachTarget(TargetVisitor visitor) {
        for (Path file : Dashboards.files()) {
            JsonNode dashboard = Dashboards.read(file);
            for (JsonNode panel : Dashboards.panels(dashboard)) {
                for (JsonNode target : panel.path("targets")) {
                    if (target.has("expr")) {
                        visitor.visit(dashboard.path("uid").asString() + " | " + panel.path("title").asString()
                                + " | " + target.path("refId").asString(), panel, target);
                    }
                }
            }
        }
    }
}
