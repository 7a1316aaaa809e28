package lab.fanout.deploy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import lab.fanout.deploy.Manifests.Workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Check 3, Prometheus: its configuration, as mounted from the rendered ConfigMap, discovers every pod that asks to
 * be scraped (prometheus.io/scrape) at the port and path its annotations name, with the target labels the
 * dashboards select by (namespace, pod, app, app_kubernetes_io_*), and its RBAC lets it list and watch those pods.
 * Discovery and relabelling are simulated for each pod template as Prometheus' kubernetes_sd (role pod) would see
 * the pod: one target per container port, {@code __meta_kubernetes_pod_*} labels. The kubelet-cadvisor job reads
 * each node's cAdvisor through the API server's node proxy with Prometheus' mounted token, which its ClusterRole
 * allows, and keeps only the lab's container series the pods row needs (metric relabelling simulated on samples).
 */
class PrometheusDiscoveryTest {

    private Manifests k8s;
    private Workload prometheus;

    @BeforeEach
    void render() {
        k8s = Manifests.of("k8s");
        prometheus = k8s.workloads().stream()
                .filter(w -> w.containers().stream().anyMatch(c -> Y.str(c, "image").startsWith("prom/prometheus:")))
                .findFirst().orElseGet(() -> fail("k8s has no Prometheus"));
    }

    @Test
    void scrapesEveryAnnotatedPodAtItsAnnotatedPortAndPath() {
        List<Map<String, Object>> podJobs = podScrapeConfigs();
        assertThat(podJobs).as("scrape configs with kubernetes_sd_configs role pod").isNotEmpty();
        List<Workload> annotated = k8s.workloads().stream()
                .filter(w -> "true".equals(w.annotations().get("prometheus.io/scrape"))).toList();
        assertThat(annotated).as("pods that ask to be scraped").isNotEmpty();

        for (Workload workload : k8s.workloads()) {
            List<Map<String, String>> targets = new ArrayList<>();
            for (Map<String, Object> job : podJobs) {
                if (namespacesOf(job).contains(workload.namespace())) {
                    targets.addAll(targets(job, workload));
                }
            }
            if (!annotated.contains(workload)) {
                assertThat(targets).as("%s is not annotated and not scraped", workload).isEmpty();
                continue;
            }
            assertThat(targets).as("%s is scraped", workload).isNotEmpty();
            String port = (String) workload.annotations().get("prometheus.io/port");
            String path = (String) workload.annotations().get("prometheus.io/path");
            for (Map<String, String> target : targets) {
                assertThat(target.get("__address__")).as("%s target address", workload).isEqualTo(POD_IP + ":" + port);
                assertThat(target.get("__metrics_path__")).as("%s target path", workload).isEqualTo(path);
            }
            assertThat(WiringTest.containerPort(workload, port)).as("%s: annotated port %s is a container port", workload, port)
                    .isNotNull();
        }
    }

    @Test
    void mayListAndWatchPodsInEveryNamespaceItDiscovers() {
        String account = Y.str(prometheus.podSpec(), "serviceAccountName");
        assertThat(account).as("Prometheus runs under its own ServiceAccount").isNotNull();
        assertThat(Y.at(prometheus.podSpec(), "automountServiceAccountToken")).as("its token is mounted").isNotEqualTo(false);
        k8s.get("ServiceAccount", prometheus.namespace(), account);
        for (Map<String, Object> job : podScrapeConfigs()) {
            for (String namespace : namespacesOf(job)) {
                assertThat(grantedVerbs(account, namespace)).as("verbs on pods in %s for ServiceAccount %s", namespace, account)
                        .contains("list", "watch");
            }
        }
    }

    /** The label contract of the services' series: namespace, pod, app and the pod's four standard labels. */
    @Test
    void podTargetsCarryNamespacePodAppAndTheStandardLabels() {
        int checked = 0;
        for (Workload workload : k8s.workloads()) {
            for (Map<String, Object> job : podScrapeConfigs()) {
                if (!namespacesOf(job).contains(workload.namespace())) {
                    continue;
                }
                for (Map<String, String> target : targets(job, workload)) {
                    assertThat(target.get("namespace")).as("%s: target label namespace", workload).isEqualTo(workload.namespace());
                    assertThat(target.get("pod")).as("%s: target label pod", workload).startsWith(workload.name() + "-");
                    assertThat(target.get("app")).as("%s: target label app", workload).isEqualTo(workload.labels().get("app"));
                    for (String label : LabelsTest.STANDARD) {
                        String name = sanitize(label);
                        assertThat(target.get(name)).as("%s: target label %s (from the pod label %s)", workload, name, label)
                                .isNotNull().isEqualTo(workload.labels().get(label));
                    }
                    checked++;
                }
            }
        }
        assertThat(checked).as("pod targets checked").isPositive();
    }

    /** Per-pod CPU, throttling, memory and restarts come from the kubelets' cAdvisor, through the API server. */
    @Test
    void scrapesEveryKubeletsCadvisorThroughTheApiServerWithItsToken() {
        Map<String, Object> job = cadvisorJob();
        assertThat(Y.maps(job, "kubernetes_sd_configs")).as("kubelet-cadvisor discovers nodes")
                .anyMatch(sd -> "node".equals(sd.get("role")));
        assertThat(job.get("scheme")).as("kubelet-cadvisor scheme").isEqualTo("https");
        assertThat(Y.str(job, "tls_config.ca_file")).as("the API server's CA").isEqualTo(SERVICE_ACCOUNT + "/ca.crt");
        String token = Y.str(job, "authorization.credentials_file") != null ? Y.str(job, "authorization.credentials_file")
                : Y.str(job, "bearer_token_file");
        assertThat(token).as("Prometheus' service-account token").isEqualTo(SERVICE_ACCOUNT + "/token");

        Map<String, String> node = new TreeMap<>();
        node.put("__address__", "172.18.0.2:10250");
        node.put("__metrics_path__", String.valueOf(job.getOrDefault("metrics_path", "/metrics")));
        node.put("__scheme__", String.valueOf(job.get("scheme")));
        node.put("job", String.valueOf(job.get("job_name")));
        node.put("__meta_kubernetes_node_name", "fanout-lab-control-plane");
        node.put("__meta_kubernetes_node_address_InternalIP", "172.18.0.2");
        Map<String, String> target = relabel(node, Y.maps(job, "relabel_configs"));
        assertThat(target).as("the node's target").isNotNull();
        assertThat(target.get("__address__")).as("through the API server").isEqualTo("kubernetes.default.svc:443");
        assertThat(target.get("__metrics_path__")).as("the node proxy's cAdvisor path")
                .isEqualTo("/api/v1/nodes/fanout-lab-control-plane/proxy/metrics/cadvisor");
        assertThat(target.get("job")).isEqualTo("kubelet-cadvisor");

        // the token is there: mounted into Prometheus (and only there: jvm-pod.patch.yaml turns it off elsewhere)
        assertThat(Y.at(prometheus.podSpec(), "automountServiceAccountToken")).as("Prometheus mounts its token").isEqualTo(true);
        Map<String, Object> account = k8s.get("ServiceAccount", prometheus.namespace(), Y.str(prometheus.podSpec(), "serviceAccountName"));
        assertThat(account.get("automountServiceAccountToken")).as("its ServiceAccount allows it").isNotEqualTo(false);
        for (Map<String, Object> mount : Y.maps(prometheus.containers().getFirst(), "volumeMounts")) {
            assertThat(Y.str(mount, "mountPath")).as("nothing hides the token's folder").doesNotStartWith("/var/run/secrets");
        }
    }

    /**
     * What the dashboards' pods row reads: per pod of namespace fanout-lab, these metrics of its own cgroup
     * (container=""), with namespace and pod; nothing of other namespaces, no per-container or pause ("POD") series,
     * which exist only where cAdvisor reaches the container runtime and would double a sum by pod.
     */
    @Test
    void keepsOnlyTheLabsPodSeriesOfThePodsRow() {
        List<Map<String, Object>> rules = Y.maps(cadvisorJob(), "metric_relabel_configs");
        assertThat(rules).as("kubelet-cadvisor metric_relabel_configs").isNotEmpty();
        String namespace = prometheus.namespace();
        for (String metric : PODS_ROW) {
            Map<String, String> kept = relabel(sample(metric, namespace, "main-service-virtual-6d9f8b7c5d-x2x4z", ""), rules);
            assertThat(kept).as("%s of a lab pod's own cgroup is kept", metric).isNotNull();
            assertThat(kept).as("%s keeps namespace and pod", metric)
                    .containsEntry("namespace", namespace).containsEntry("pod", "main-service-virtual-6d9f8b7c5d-x2x4z");
            assertThat(relabel(sample(metric, "kube-system", "etcd-fanout-lab-control-plane", ""), rules))
                    .as("%s of another namespace is dropped", metric).isNull();
            assertThat(relabel(sample(metric, namespace, "main-service-virtual-6d9f8b7c5d-x2x4z", "main-service"), rules))
                    .as("%s of a container (counted in its pod's cgroup) is dropped", metric).isNull();
            assertThat(relabel(sample(metric, namespace, "main-service-virtual-6d9f8b7c5d-x2x4z", "POD"), rules))
                    .as("%s of the pause container is dropped", metric).isNull();
        }
        for (String other : List.of("container_network_receive_bytes_total", "container_fs_reads_total",
                "container_memory_rss", "machine_cpu_cores", "container_cpu_system_seconds_total", "container_start_time_seconds")) {
            assertThat(relabel(sample(other, namespace, "orders-service-5d8f7c9b6-x2x4z", ""), rules))
                    .as("%s is not needed by the pods row and is dropped", other).isNull();
        }
    }

    @Test
    void mayReadTheKubeletsThroughTheApiServersNodeProxy() {
        String account = Y.str(prometheus.podSpec(), "serviceAccountName");
        assertThat(clusterGrants(account, "nodes")).as("cluster-wide verbs on nodes for ServiceAccount %s", account)
                .contains("get", "list", "watch");
        assertThat(clusterGrants(account, "nodes/proxy")).as("verbs on nodes/proxy (GET .../proxy/metrics/cadvisor)").contains("get");
        assertThat(clusterGrants(account, "nodes/metrics")).as("verbs on nodes/metrics").contains("get");
    }

    private static final String SERVICE_ACCOUNT = "/var/run/secrets/kubernetes.io/serviceaccount";
    private static final List<String> PODS_ROW = List.of("container_cpu_usage_seconds_total", "container_cpu_cfs_periods_total",
            "container_cpu_cfs_throttled_periods_total", "container_memory_working_set_bytes",
            "container_spec_memory_limit_bytes");

    /** A sample as the kubelet's /metrics/cadvisor exposes it, with the target labels of the job added. */
    private static Map<String, String> sample(String metric, String namespace, String pod, String container) {
        Map<String, String> labels = new TreeMap<>();
        labels.put("__name__", metric);
        labels.put("namespace", namespace);
        labels.put("pod", pod);
        labels.put("container", container);
        labels.put("id", "/kubelet.slice/kubelet-kubepods.slice/" + pod + "/" + container);
        labels.put("image", container.isEmpty() ? "" : "fanout-lab/" + container + ":0.1.0");
        labels.put("name", container.isEmpty() ? "" : "0123abcd");
        labels.put("job", "kubelet-cadvisor");
        labels.put("instance", "fanout-lab-control-plane");
        return labels;
    }

    private Map<String, Object> cadvisorJob() {
        return Y.maps(configuration(), "scrape_configs").stream().filter(job -> "kubelet-cadvisor".equals(job.get("job_name")))
                .findFirst().orElseGet(() -> fail("no scrape config kubelet-cadvisor (the pods row of the dashboards needs it)"));
    }

    /** Verbs a ClusterRoleBinding grants {@code account} cluster-wide on {@code resource} of the core API group. */
    private Set<String> clusterGrants(String account, String resource) {
        Set<String> verbs = new java.util.TreeSet<>();
        for (Map<String, Object> binding : k8s.ofKind("ClusterRoleBinding")) {
            boolean bindsAccount = Y.maps(binding, "subjects").stream().anyMatch(s -> "ServiceAccount".equals(s.get("kind"))
                    && account.equals(s.get("name")) && prometheus.namespace().equals(s.get("namespace")));
            if (!bindsAccount || !"ClusterRole".equals(Y.str(binding, "roleRef.kind"))) {
                continue;
            }
            Map<String, Object> role = k8s.ofKind("ClusterRole").stream()
                    .filter(r -> Y.str(binding, "roleRef.name").equals(Y.str(r, "metadata.name")))
                    .findFirst().orElseGet(() -> fail("no ClusterRole " + Y.str(binding, "roleRef.name")));
            for (Map<String, Object> rule : Y.maps(role, "rules")) {
                if (((List<?>) rule.getOrDefault("apiGroups", List.of())).contains("")
                        && ((List<?>) rule.getOrDefault("resources", List.of())).stream().anyMatch(r -> r.equals(resource) || r.equals("*"))) {
                    ((List<?>) rule.getOrDefault("verbs", List.of())).forEach(v -> verbs.add(String.valueOf(v)));
                }
            }
        }
        if (verbs.contains("*")) {
            verbs.addAll(List.of("get", "list", "watch"));
        }
        return verbs;
    }

    // ---- configuration as Prometheus reads it -------------------------------------------------------------------

    private Map<String, Object> configuration() {
        Map<String, Object> container = prometheus.containers().getFirst();
        String file = ((List<?>) container.getOrDefault("args", List.of())).stream().map(String::valueOf)
                .filter(a -> a.startsWith("--config.file=")).map(a -> a.substring("--config.file=".length()))
                .findFirst().orElse("/etc/prometheus/prometheus.yml");
        String folder = file.substring(0, file.lastIndexOf('/'));
        String mount = Y.maps(container, "volumeMounts").stream().filter(m -> folder.equals(Y.str(m, "mountPath")))
                .map(m -> Y.str(m, "name")).findFirst().orElseGet(() -> fail("nothing is mounted at " + folder));
        String configMap = Y.maps(prometheus.podSpec(), "volumes").stream().filter(v -> mount.equals(Y.str(v, "name")))
                .map(v -> Y.str(v, "configMap.name")).findFirst().orElseGet(() -> fail("volume " + mount + " is no ConfigMap"));
        Object text = Y.map(k8s.get("ConfigMap", prometheus.namespace(), configMap), "data").get(file.substring(folder.length() + 1));
        assertThat(text).as("ConfigMap %s has %s", configMap, file).isNotNull();
        return new Yaml(new SafeConstructor(new LoaderOptions())).load((String) text);
    }

    private List<Map<String, Object>> podScrapeConfigs() {
        return Y.maps(configuration(), "scrape_configs").stream()
                .filter(job -> Y.maps(job, "kubernetes_sd_configs").stream().anyMatch(sd -> "pod".equals(sd.get("role"))))
                .toList();
    }

    @SuppressWarnings("unchecked")
    private Set<String> namespacesOf(Map<String, Object> job) {
        Set<String> namespaces = new java.util.TreeSet<>();
        for (Map<String, Object> sd : Y.maps(job, "kubernetes_sd_configs")) {
            Map<String, Object> selection = Y.map(sd, "namespaces");
            if (selection.isEmpty()) {
                fail("a pod discovery over all namespaces needs a ClusterRole; not checked yet: " + sd);
            }
            if (Boolean.TRUE.equals(selection.get("own_namespace"))) {
                namespaces.add(prometheus.namespace());
            }
            namespaces.addAll((List<String>) selection.getOrDefault("names", List.of()));
        }
        return namespaces;
    }

    private Set<String> grantedVerbs(String account, String namespace) {
        Set<String> verbs = new java.util.TreeSet<>();
        for (Map<String, Object> binding : k8s.ofKind("RoleBinding")) {
            boolean bindsAccount = Y.maps(binding, "subjects").stream().anyMatch(s -> "ServiceAccount".equals(s.get("kind"))
                    && account.equals(s.get("name"))
                    && prometheus.namespace().equals(s.getOrDefault("namespace", Manifests.namespaceOf(binding))));
            if (!bindsAccount || !namespace.equals(Manifests.namespaceOf(binding))) {
                continue;
            }
            String roleKind = Y.str(binding, "roleRef.kind");
            Map<String, Object> role = roleKind.equals("Role")
                    ? k8s.get("Role", namespace, Y.str(binding, "roleRef.name"))
                    : k8s.ofKind("ClusterRole").stream().filter(r -> Y.str(binding, "roleRef.name").equals(Y.str(r, "metadata.name")))
                            .findFirst().orElseGet(() -> fail("no ClusterRole " + Y.str(binding, "roleRef.name")));
            for (Map<String, Object> rule : Y.maps(role, "rules")) {
                if (((List<?>) rule.getOrDefault("apiGroups", List.of())).contains("")
                        && ((List<?>) rule.getOrDefault("resources", List.of())).stream().anyMatch(r -> r.equals("pods") || r.equals("*"))) {
                    ((List<?>) rule.getOrDefault("verbs", List.of())).forEach(v -> verbs.add(String.valueOf(v)));
                }
            }
        }
        if (verbs.contains("*")) {
            verbs.addAll(List.of("get", "list", "watch"));
        }
        return verbs;
    }

    // ---- kubernetes_sd role pod and relabel_configs, as Prometheus applies them ---------------------------------

    private static final String POD_IP = "10.244.0.7";

    /** @return the targets (label sets after relabelling) that {@code job} makes of {@code workload}'s pod */
    private static List<Map<String, String>> targets(Map<String, Object> job, Workload workload) {
        List<Map<String, String>> targets = new ArrayList<>();
        for (Map<String, Object> container : workload.containers()) {
            for (Map<String, Object> port : Y.maps(container, "ports")) {
                Map<String, String> labels = new TreeMap<>();
                labels.put("__address__", POD_IP + ":" + port.get("containerPort"));
                labels.put("__metrics_path__", String.valueOf(job.getOrDefault("metrics_path", "/metrics")));
                labels.put("__scheme__", String.valueOf(job.getOrDefault("scheme", "http")));
                labels.put("job", String.valueOf(job.get("job_name")));
                labels.put("__meta_kubernetes_namespace", workload.namespace());
                labels.put("__meta_kubernetes_pod_name", workload.name() + "-5d8f7c9b6-x2x4z");
                labels.put("__meta_kubernetes_pod_ip", POD_IP);
                labels.put("__meta_kubernetes_pod_phase", "Running");
                labels.put("__meta_kubernetes_pod_ready", "true");
                labels.put("__meta_kubernetes_pod_container_name", Y.str(container, "name"));
                labels.put("__meta_kubernetes_pod_container_port_number", String.valueOf(port.get("containerPort")));
                labels.put("__meta_kubernetes_pod_container_port_name", String.valueOf(port.getOrDefault("name", "")));
                workload.labels().forEach((k, v) -> {
                    labels.put("__meta_kubernetes_pod_label_" + sanitize(k), String.valueOf(v));
                    labels.put("__meta_kubernetes_pod_labelpresent_" + sanitize(k), "true");
                });
                workload.annotations().forEach((k, v) -> {
                    labels.put("__meta_kubernetes_pod_annotation_" + sanitize(k), String.valueOf(v));
                    labels.put("__meta_kubernetes_pod_annotationpresent_" + sanitize(k), "true");
                });
                Map<String, String> relabelled = relabel(labels, Y.maps(job, "relabel_configs"));
                if (relabelled != null && !targets.contains(relabelled)) {
                    targets.add(relabelled);
                }
            }
        }
        return targets;
    }

    private static String sanitize(String name) {
        return name.replaceAll("[^a-zA-Z0-9_]", "_");
    }

    /** @return the relabelled labels, or null if the target is dropped */
    static Map<String, String> relabel(Map<String, String> input, List<Map<String, Object>> rules) {
        Map<String, String> labels = new LinkedHashMap<>(input);
        for (Map<String, Object> rule : rules) {
            String action = String.valueOf(rule.getOrDefault("action", "replace"));
            Pattern regex = Pattern.compile("^(?:" + rule.getOrDefault("regex", "(.*)") + ")$");
            String separator = String.valueOf(rule.getOrDefault("separator", ";"));
            String value = String.join(separator, ((List<?>) rule.getOrDefault("source_labels", List.of())).stream()
                    .map(l -> labels.getOrDefault(String.valueOf(l), "")).toList());
            String replacement = String.valueOf(rule.getOrDefault("replacement", "$1")).replaceAll("\\$\\{(\\d+)}", "\\$$1");
            Matcher m = regex.matcher(value);
            switch (action) {
                case "keep" -> {
                    if (!m.matches()) {
                        return null;
                    }
                }
                case "drop" -> {
                    if (m.matches()) {
                        return null;
                    }
                }
                case "replace" -> {
                    if (m.matches()) {
                        String result = m.replaceFirst(replacement);
                        String target = String.valueOf(rule.get("target_label"));
                        if (result.isEmpty()) {
                            labels.remove(target);
                        } else {
                            labels.put(target, result);
                        }
                    }
                }
                case "labelmap" -> new ArrayList<>(labels.keySet()).forEach(name -> {
                    Matcher n = regex.matcher(name);
                    if (n.matches()) {
                        labels.put(n.replaceFirst(replacement), labels.get(name));
                    }
                });
                case "labeldrop" -> labels.keySet().removeIf(name -> regex.matcher(name).matches());
                case "labelkeep" -> labels.keySet().removeIf(name -> !regex.matcher(name).matches());
                default -> fail("relabel action " + action + " is not simulated yet: extend PrometheusDiscoveryTest");
            }
        }
        labels.keySet().removeIf(name -> name.startsWith("__meta_"));
        return labels;
    }
}
