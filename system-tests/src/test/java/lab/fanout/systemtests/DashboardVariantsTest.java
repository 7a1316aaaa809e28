package lab.fanout.systemtests;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

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
            boolean comparison = panel.path("title").asString().startsWith("Platform vs virtual");
            if (perVariant && !comparison && !panel.path("repeat").asString("").equals("application")) {
                notRepeated.add(panel.path("title").asString());
            }
        }
        assertThat(notRepeated).as("overview panels on $application that are not repeated per variant").isEmpty();
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
