package lab.fanout.deploy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * What {@code kubectl kustomize <entry point>} renders, as parsed YAML documents, with the look-ups the checks need.
 * Rendered once per entry point and test run.
 */
final class Manifests {

    private static final Map<String, Manifests> RENDERED = new ConcurrentHashMap<>();

    final String entryPoint;
    final List<Map<String, Object>> resources;

    private Manifests(String entryPoint, List<Map<String, Object>> resources) {
        this.entryPoint = entryPoint;
        this.resources = resources;
    }

    /** @param entryPoint a folder relative to the repository root, e.g. {@code k8s} */
    static Manifests of(String entryPoint) {
        return RENDERED.computeIfAbsent(entryPoint, Manifests::render);
    }

    @SuppressWarnings("unchecked")
    private static Manifests render(String entryPoint) {
        String yaml = Repo.run(List.of("kubectl", "kustomize", entryPoint),
                "install kubectl 1.32+ (https://kubernetes.io/docs/tasks/tools/)");
        List<Map<String, Object>> resources = new ArrayList<>();
        for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(yaml)) {
            if (document != null) {
                resources.add((Map<String, Object>) document);
            }
        }
        return new Manifests(entryPoint, resources);
    }

    List<Map<String, Object>> ofKind(String kind) {
        return resources.stream().filter(r -> kind.equals(r.get("kind"))).toList();
    }

    Optional<Map<String, Object>> find(String kind, String namespace, String name) {
        return ofKind(kind).stream()
                .filter(r -> name.equals(Y.str(r, "metadata.name")) && namespace.equals(namespaceOf(r)))
                .findFirst();
    }

    Map<String, Object> get(String kind, String namespace, String name) {
        return find(kind, namespace, name).orElseGet(() -> fail(
                entryPoint + ": no " + kind + " " + namespace + "/" + name + " in the rendered manifests"));
    }

    static String namespaceOf(Map<String, Object> resource) {
        String namespace = Y.str(resource, "metadata.namespace");
        return namespace == null ? "default" : namespace;
    }

    /** Every pod template: Deployments, StatefulSets, DaemonSets and Jobs. */
    List<Workload> workloads() {
        return resources.stream()
                .filter(r -> List.of("Deployment", "StatefulSet", "DaemonSet", "Job").contains(r.get("kind")))
                .map(Workload::new)
                .toList();
    }

    /**
     * The environment a container sees: its envFrom ConfigMaps, then its env (later wins, as in Kubernetes), with the
     * values of the ConfigMap and Secret keys it refers to. Fails on a missing ConfigMap, Secret or key.
     */
    Map<String, String> environment(Workload workload, Map<String, Object> container) {
        Map<String, String> env = new LinkedHashMap<>();
        for (Map<String, Object> from : Y.maps(container, "envFrom")) {
            String configMap = Y.str(from, "configMapRef.name");
            if (configMap == null) {
                fail(workload + ": envFrom other than configMapRef is not checked yet: " + from);
            }
            Y.map(get("ConfigMap", workload.namespace(), configMap), "data")
                    .forEach((key, value) -> env.put(key, String.valueOf(value)));
        }
        for (Map<String, Object> variable : Y.maps(container, "env")) {
            String name = Y.str(variable, "name");
            if (variable.containsKey("value")) {
                env.put(name, String.valueOf(variable.get("value")));
            } else if (Y.str(variable, "valueFrom.configMapKeyRef.name") != null) {
                Map<String, Object> data = Y.map(
                        get("ConfigMap", workload.namespace(), Y.str(variable, "valueFrom.configMapKeyRef.name")), "data");
                String key = Y.str(variable, "valueFrom.configMapKeyRef.key");
                if (!data.containsKey(key)) {
                    fail(workload + ": env " + name + " reads missing ConfigMap key " + key);
                }
                env.put(name, String.valueOf(data.get(key)));
            } else if (Y.str(variable, "valueFrom.secretKeyRef.name") != null) {
                Map<String, Object> data = Y.map(
                        get("Secret", workload.namespace(), Y.str(variable, "valueFrom.secretKeyRef.name")), "data");
                String key = Y.str(variable, "valueFrom.secretKeyRef.key");
                if (!data.containsKey(key)) {
                    fail(workload + ": env " + name + " reads missing Secret key " + key);
                }
                env.put(name, new String(Base64.getDecoder().decode(String.valueOf(data.get(key))),
                        StandardCharsets.UTF_8));
            } else {
                fail(workload + ": env " + name + " has a source that is not checked yet: " + variable);
            }
        }
        return env;
    }

    @Override
    public String toString() {
        return entryPoint;
    }

    /** A resource with a pod template. */
    record Workload(Map<String, Object> resource) {

        String kind() {
            return (String) resource.get("kind");
        }

        String name() {
            return Y.str(resource, "metadata.name");
        }

        String namespace() {
            return namespaceOf(resource);
        }

        Map<String, Object> template() {
            return Y.map(resource, "spec.template");
        }

        Map<String, Object> podSpec() {
            return Y.map(resource, "spec.template.spec");
        }

        Map<String, Object> labels() {
            return Y.map(template(), "metadata.labels");
        }

        Map<String, Object> annotations() {
            return Y.map(template(), "metadata.annotations");
        }

        List<Map<String, Object>> containers() {
            return Y.maps(podSpec(), "containers");
        }

        /** The lab module this workload runs, from its image {@code fanout-lab/<module>:<tag>}, if any. */
        Optional<String> module() {
            return containers().stream().map(c -> Y.str(c, "image"))
                    .filter(image -> image.startsWith("fanout-lab/"))
                    .map(image -> image.substring("fanout-lab/".length(), image.lastIndexOf(':')))
                    .filter(module -> Repo.path(module + "/src/main/resources/application.yml").toFile().isFile())
                    .findFirst();
        }

        /** @return true if every pair of {@code selector} is among this pod template's labels */
        boolean selectedBy(Map<String, Object> selector) {
            return !selector.isEmpty() && selector.entrySet().stream()
                    .allMatch(e -> String.valueOf(e.getValue()).equals(String.valueOf(labels().get(e.getKey()))));
        }

        @Override
        public String toString() {
            return kind() + " " + namespace() + "/" + name();
        }
    }
}
