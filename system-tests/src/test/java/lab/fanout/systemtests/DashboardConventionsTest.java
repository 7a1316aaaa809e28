package lab.fanout.systemtests;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import tools.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What the issue asks of every dashboard beyond its schema: titles, descriptions, units, variables, provisioning. */
class DashboardConventionsTest {

    static final Set<String> VARIABLES = Set.of("datasource", "application", "instance");
    static final String DATASOURCE_UID = "fanout-prometheus";

    @Test
    void everyPanelHasATitleADescriptionAndAUnit() {
        for (Path file : Dashboards.files()) {
            for (JsonNode panel : Dashboards.panels(Dashboards.read(file))) {
                String where = file.getFileName() + " panel " + panel.path("id").asInt();
                assertThat(panel.path("title").asString()).as(where + " title").isNotBlank();
                assertThat(panel.path("description").asString()).as(where + " description").isNotBlank();
                if (panel.has("targets")) {
                    assertThat(panel.path("fieldConfig").path("defaults").path("unit").asString())
                            .as(where + " unit").isNotBlank();
                    assertThat(panel.path("datasource").path("uid").asString()).as(where + " datasource")
                            .isEqualTo("${datasource}");
                }
            }
        }
    }

    @Test
    void dashboardsHaveUniqueUidsAndPanelIdsAndTheVariables() {
        Set<String> uids = new HashSet<>();
        for (Path file : Dashboards.files()) {
            JsonNode dashboard = Dashboards.read(file);
            assertThat(uids.add(dashboard.path("uid").asString())).as(file + " uid is unique").isTrue();
            Set<Integer> ids = new HashSet<>();
            Set<String> names = new HashSet<>();
            dashboard.path("templating").path("list").forEach(v -> names.add(v.path("name").asString()));
            assertThat(names).as(file + " variables").containsAll(VARIABLES);
            allPanels(dashboard.path("panels"), ids, file);
            dashboard.path("templating").path("list").forEach(v -> {
                if (v.path("type").asString().equals("datasource")) {
                    assertThat(v.path("current").path("value").asString()).isEqualTo(DATASOURCE_UID);
                }
            });
        }
        // issue 22: the overview selects by Kubernetes namespace, variant and pod, and by strategy
        assertThat(Dashboards.read(Repo.DASHBOARDS.resolve("fanout-overview.json")).path("templating").path("list"))
                .extracting(v -> v.path("name").asString()).contains("namespace", "application", "pod", "strategy");
    }

    /** The provisioned datasource has the uid that the dashboards' datasource variable defaults to. */
    @Test
    void provisioningMatchesTheDashboards() throws Exception {
        assertThat(java.nio.file.Files.readString(Repo.GRAFANA.resolve("provisioning/datasources/prometheus.yaml")))
                .contains("uid: " + DATASOURCE_UID).contains("type: prometheus");
        assertThat(java.nio.file.Files.readString(Repo.GRAFANA.resolve("provisioning/dashboards/fanout.yaml")))
                .contains("type: file").contains("path: /var/lib/grafana/dashboards/fanout-lab");
    }

    private static void allPanels(JsonNode panels, Set<Integer> ids, Path file) {
        for (JsonNode panel : panels) {
            assertThat(ids.add(panel.path("id").asInt())).as(file + " panel id " + panel.path("id")).isTrue();
            allPanels(panel.path("panels"), ids, file);
        }
    }
}
