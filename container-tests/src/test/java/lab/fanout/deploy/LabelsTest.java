package lab.fanout.deploy;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import lab.fanout.deploy.Manifests.Workload;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The standard labels (issue 22): every rendered object of every whole deployment (k8s/, k8s/tests/*,
 * k8s/overlays/*), and every pod template, carries app.kubernetes.io/name, instance, component and part-of
 * (fanout-lab). Prometheus copies the pod template's four onto the services' series and the dashboards select by
 * them. Pod templates keep their {@code app} label, which the checks and the cluster scripts select by; a
 * main-service variant's instance is the variant, a downstream's name and instance are the service.
 */
class LabelsTest {

    static final List<String> STANDARD = List.of("app.kubernetes.io/name", "app.kubernetes.io/instance",
            "app.kubernetes.io/component", "app.kubernetes.io/part-of");

    static List<String> deployments() {
        return Repo.deployments();
    }

    @ParameterizedTest
    @MethodSource("deployments")
    void everyObjectCarriesTheFourStandardLabels(String entryPoint) {
        Manifests manifests = Manifests.of(entryPoint);
        for (Map<String, Object> resource : manifests.resources) {
            String what = entryPoint + ": " + resource.get("kind") + " " + Y.str(resource, "metadata.name");
            Map<String, Object> labels = Y.map(resource, "metadata.labels");
            assertThat(labels).as("%s: labels", what).containsKeys(STANDARD.toArray(String[]::new));
            assertThat(labels.get("app.kubernetes.io/part-of")).as("%s: part-of", what).isEqualTo("fanout-lab");
            STANDARD.forEach(key -> assertThat(String.valueOf(labels.get(key))).as("%s: %s", what, key).isNotBlank());
        }
        assertThat(manifests.resources).as("%s renders objects", entryPoint).isNotEmpty();
    }

    @ParameterizedTest
    @MethodSource("deployments")
    void everyPodTemplateCarriesThemAndItsWorkloadsValues(String entryPoint) {
        for (Workload workload : Manifests.of(entryPoint).workloads()) {
            Map<String, Object> labels = workload.labels();
            assertThat(labels).as("%s %s: pod template labels", entryPoint, workload)
                    .containsKeys(STANDARD.toArray(String[]::new)).containsKey("app");
            Map<String, Object> own = Y.map(workload.resource(), "metadata.labels");
            for (String key : STANDARD) {
                assertThat(labels.get(key)).as("%s %s: the pod's %s is the workload's", entryPoint, workload, key)
                        .isEqualTo(own.get(key));
            }
            workload.module().ifPresent(module -> {
                if (module.equals("main-service")) {
                    assertThat(labels.get("app.kubernetes.io/name")).as("%s %s: name", entryPoint, workload).isEqualTo("main-service");
                    assertThat(labels.get("app.kubernetes.io/instance")).as("%s %s: instance is the variant", entryPoint, workload)
                            .isEqualTo(workload.name()).isIn("main-service-platform", "main-service-virtual", "main-service-netty");
                    assertThat(labels.get("app.kubernetes.io/component")).as("%s %s", entryPoint, workload).isEqualTo("aggregator");
                } else {
                    assertThat(labels.get("app.kubernetes.io/name")).as("%s %s: name", entryPoint, workload).isEqualTo(module);
                    assertThat(labels.get("app.kubernetes.io/instance")).as("%s %s: instance", entryPoint, workload).isEqualTo(module);
                    assertThat(labels.get("app.kubernetes.io/component")).as("%s %s", entryPoint, workload).isEqualTo("downstream");
                }
            });
        }
    }
}
