package lab.fanout.deploy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import lab.fanout.deploy.Manifests.Workload;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Check 3, the references between rendered resources that schemas cannot see and an API server would accept,
 * but that leave a Service without endpoints or a pod that never starts: for every whole deployment (k8s/ and
 * k8s/tests/*). Check 1 (every kustomize entry point renders) is here too, as scripts/check-k8s.sh does it.
 */
class WiringTest {

    static List<String> entryPoints() {
        return Repo.entryPoints();
    }

    static List<String> deployments() {
        return Repo.deployments();
    }

    /** k8s/base's workloads (the three downstreams and main-service's variants), which every deployment builds on. */
    private static List<String> baseWorkloads;

    /**
     * @return the deployment's workloads, having checked that they include every workload k8s/base renders, so that
     * a loop over them cannot pass by rendering none
     */
    static List<Workload> workloads(Manifests manifests, String entryPoint) {
        if (baseWorkloads == null) {
            List<String> names = Manifests.of("k8s/base").workloads().stream().map(Workload::name).toList();
            assertThat(names).as("k8s/base renders workloads").isNotEmpty();
            baseWorkloads = names;   // cached only once checked, so every later call checks again if it failed
        }
        List<Workload> workloads = manifests.workloads();
        assertThat(workloads.stream().map(Workload::name).toList())
                .as("%s renders k8s/base's workloads", entryPoint).containsAll(baseWorkloads);
        return workloads;
    }

    @ParameterizedTest
    @MethodSource("entryPoints")
    void everyEntryPointRenders(String entryPoint) {
        assertThat(Manifests.of(entryPoint).resources).as("%s renders resources", entryPoint).isNotEmpty();
    }

    @ParameterizedTest
    @MethodSource("deployments")
    void everyWorkloadSelectsItsOwnPodTemplate(String entryPoint) {
        for (Workload workload : workloads(Manifests.of(entryPoint), entryPoint)) {
            if (workload.kind().equals("Job")) {
                continue;   // a Job's selector is generated
            }
            assertThat(workload.selectedBy(Y.map(workload.resource(), "spec.selector.matchLabels")))
                    .as("%s: spec.selector.matchLabels %s are among the template's labels %s", workload,
                            Y.map(workload.resource(), "spec.selector.matchLabels"), workload.labels())
                    .isTrue();
        }
    }

    @ParameterizedTest
    @MethodSource("deployments")
    void everyServiceSelectsExactlyOneWorkloadAndReachesItsPorts(String entryPoint) {
        Manifests manifests = Manifests.of(entryPoint);
        workloads(manifests, entryPoint);
        assertThat(manifests.ofKind("Service")).as("%s renders Services", entryPoint).isNotEmpty();
        for (Map<String, Object> service : manifests.ofKind("Service")) {
            String name = Y.str(service, "metadata.name");
            Map<String, Object> selector = Y.map(service, "spec.selector");
            List<Workload> selected = manifests.workloads().stream()
                    .filter(w -> w.namespace().equals(Manifests.namespaceOf(service)) && w.selectedBy(selector))
                    .toList();
            if (selected.isEmpty() && entryPoint.startsWith("k8s/tests/cluster") && name.equals("grafana")) {
                continue;   // the real cluster's overlays delete Grafana's Deployment on purpose (no image); the Service stays
            }
            assertThat(selected).as("%s: Service %s with selector %s selects exactly one pod template",
                    entryPoint, name, selector).hasSize(1);
            Workload workload = selected.getFirst();
            for (Map<String, Object> port : Y.maps(service, "spec.ports")) {
                Object target = port.getOrDefault("targetPort", port.get("port"));
                assertThat(containerPort(workload, target))
                        .as("%s: Service %s targetPort %s is a port of %s's containers", entryPoint, name, target, workload)
                        .isNotNull();
            }
        }
    }

    @ParameterizedTest
    @MethodSource("deployments")
    void everyProbeUsesADeclaredContainerPort(String entryPoint) {
        for (Workload workload : workloads(Manifests.of(entryPoint), entryPoint)) {
            for (Map<String, Object> container : workload.containers()) {
                for (String probe : List.of("startupProbe", "livenessProbe", "readinessProbe")) {
                    Object port = Y.at(container, probe + ".httpGet.port");
                    if (port == null) {
                        port = Y.at(container, probe + ".tcpSocket.port");
                    }
                    if (port != null) {
                        assertThat(containerPort(workload, port))
                                .as("%s: %s %s port %s is a port of its container", entryPoint, workload, probe, port)
                                .isNotNull();
                    }
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("deployments")
    void everyReferencedConfigMapAndServiceAccountExists(String entryPoint) {
        Manifests manifests = Manifests.of(entryPoint);
        for (Workload workload : workloads(manifests, entryPoint)) {
            String account = Y.str(workload.podSpec(), "serviceAccountName");
            if (account != null) {
                manifests.get("ServiceAccount", workload.namespace(), account);
            }
            for (Map<String, Object> volume : Y.maps(workload.podSpec(), "volumes")) {
                String configMap = Y.str(volume, "configMap.name");
                if (configMap != null) {
                    manifests.get("ConfigMap", workload.namespace(), configMap);
                }
            }
            for (Map<String, Object> container : workload.containers()) {
                manifests.environment(workload, container);   // fails on a missing ConfigMap or key
            }
        }
    }

    /**
     * Every {@code http://host:port} (or {@code jdbc:postgresql://host:port}) in a ConfigMap or a container's env or
     * args (downstream base URLs, Grafana's datasource, the load Job's targets, orders-service's database) names a
     * Service of the same namespace and one of its ports.
     */
    @ParameterizedTest
    @MethodSource("deployments")
    void everyInClusterUrlNamesAServiceAndItsPort(String entryPoint) {
        Manifests manifests = Manifests.of(entryPoint);
        Pattern url = Pattern.compile("(?:https?|jdbc:postgresql)://([a-z0-9-]+)(?:\\.([a-z0-9-]+))?(?:\\.svc[a-z.]*)?:(\\d+)");
        List<String> found = new ArrayList<>();
        for (Map<String, Object> resource : manifests.resources) {
            String namespace = Manifests.namespaceOf(resource);
            List<String> texts = new ArrayList<>();
            Y.map(resource, "data").values().forEach(v -> texts.add(String.valueOf(v)));
            if (resource.containsKey("spec") && Y.at(resource, "spec.template.spec") != null) {
                for (Map<String, Object> container : new Workload(resource).containers()) {
                    Y.maps(container, "env").forEach(e -> texts.add(String.valueOf(e.get("value"))));
                    texts.add(String.valueOf(container.get("args")));
                }
            }
            for (String text : texts) {
                Matcher m = url.matcher(text);
                while (m.find()) {
                    if (m.group(1).equals("localhost")) {
                        continue;
                    }
                    String serviceNamespace = m.group(2) != null ? m.group(2) : namespace;
                    Map<String, Object> service = manifests.get("Service", serviceNamespace, m.group(1));
                    Set<String> ports = Y.maps(service, "spec.ports").stream()
                            .map(p -> String.valueOf(p.get("port"))).collect(Collectors.toSet());
                    assertThat(ports).as("%s: %s in %s %s: a port of Service %s", entryPoint, m.group(),
                            resource.get("kind"), Y.str(resource, "metadata.name"), m.group(1)).contains(m.group(3));
                    found.add(m.group());
                }
            }
        }
        if (manifests.workloads().stream().anyMatch(w -> w.name().startsWith("main-service"))) {
            assertThat(found).as("%s: main-service's downstream URLs were found and checked", entryPoint).isNotEmpty();
        }
    }

    /** k8s/kind-config.yaml maps exactly the node ports of k8s/'s NodePort Services to the host, port for port. */
    @Test
    void kindPortMappingsAreTheNodePortServices() {
        Map<String, Object> kindConfig = new Yaml(new SafeConstructor(new LoaderOptions()))
                .load(Repo.read(Repo.path("k8s/kind-config.yaml")));
        Set<Integer> mapped = new TreeSet<>();
        for (Map<String, Object> node : Y.maps(kindConfig, "nodes")) {
            for (Map<String, Object> mapping : Y.maps(node, "extraPortMappings")) {
                assertThat(mapping.get("hostPort")).as("hostPort = containerPort (the README's URLs)").isEqualTo(mapping.get("containerPort"));
                mapped.add((Integer) mapping.get("containerPort"));
            }
        }
        Set<Integer> nodePorts = new TreeSet<>();
        for (Map<String, Object> service : Manifests.of("k8s").ofKind("Service")) {
            if ("NodePort".equals(Y.str(service, "spec.type"))) {
                for (Map<String, Object> port : Y.maps(service, "spec.ports")) {
                    assertThat(port.get("nodePort")).as("NodePort Service %s has a fixed nodePort",
                            Y.str(service, "metadata.name")).isNotNull();
                    nodePorts.add((Integer) port.get("nodePort"));
                }
            }
        }
        assertThat(mapped).as("kind-config.yaml's containerPorts").isEqualTo(nodePorts);
    }

    /** @return the container port that {@code port} (a name or a number) refers to, or null */
    static Integer containerPort(Workload workload, Object port) {
        for (Map<String, Object> container : workload.containers()) {
            for (Map<String, Object> declared : Y.maps(container, "ports")) {
                if (Objects.equals(String.valueOf(port), String.valueOf(declared.get("name")))
                        || Objects.equals(String.valueOf(port), String.valueOf(declared.get("containerPort")))) {
                    return (Integer) declared.get("containerPort");
                }
            }
        }
        return null;
    }
}
