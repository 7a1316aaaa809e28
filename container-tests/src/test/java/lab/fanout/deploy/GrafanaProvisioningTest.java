package lab.fanout.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import tools.jackson.databind.json.JsonMapper;

import lab.fanout.deploy.Manifests.Workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Check 3, Grafana: the dashboards Grafana provisions in the cluster are exactly the files in grafana/dashboards/,
 * byte for byte, in the folder its dashboard provider reads; its datasources are provisioned, and every
 * datasource uid a dashboard names is one of them. Its home dashboard is the overview, mounted under the
 * provider's path; anonymous visitors are viewers who cannot edit; its image is a pinned version. Grafana's own
 * process cannot run on the build machines (k8s/README.md), so these read what it would be given.
 */
class GrafanaProvisioningTest {

    /** Grafana's own provisioning folders (GF_PATHS_PROVISIONING of the image). */
    private static final String DASHBOARD_PROVIDERS = "/etc/grafana/provisioning/dashboards";
    private static final String DATASOURCES = "/etc/grafana/provisioning/datasources";
    /** kubectl apply (client side) keeps the whole object in an annotation, which may hold 256 KiB. */
    private static final int LAST_APPLIED_LIMIT = 262_144;

    private Manifests k8s;
    private Workload grafana;

    @BeforeEach
    void render() {
        k8s = Manifests.of("k8s");
        grafana = k8s.workloads().stream()
                .filter(w -> w.containers().stream().anyMatch(c -> Y.str(c, "image").matches("grafana/grafana([:@].*)?")))
                .findFirst().orElseGet(() -> fail("k8s has no Grafana"));
    }

    @Test
    void provisionsExactlyTheDashboardFilesAtTheProvidersPath() {
        Map<String, String> expected = dashboardFiles();
        assertThat(expected).as("grafana/dashboards/*.json").isNotEmpty();
        Map<String, String> providers = filesMountedAt(DASHBOARD_PROVIDERS);
        assertThat(providers).as("dashboard provider files at %s", DASHBOARD_PROVIDERS).isNotEmpty();
        int checked = 0;
        for (String provider : providers.values()) {
            Map<String, Object> config = new Yaml(new SafeConstructor(new LoaderOptions())).load(provider);
            for (Map<String, Object> entry : Y.maps(config, "providers")) {
                String path = Y.str(entry, "options.path");
                assertThat(filesMountedAt(path)).as("dashboards mounted at provider %s's path %s",
                        entry.get("name"), path).isEqualTo(expected);
                checked++;
            }
        }
        assertThat(checked).as("file providers checked").isPositive();
    }

    @Test
    void dashboardsFitIntoAClientSideApply() {
        for (Map<String, Object> configMap : k8s.ofKind("ConfigMap")) {
            int bytes = Y.map(configMap, "data").values().stream()
                    .mapToInt(v -> String.valueOf(v).getBytes(StandardCharsets.UTF_8).length).sum();
            assertThat(bytes).as("ConfigMap %s: kubectl apply -k fails above %d bytes (use --server-side then)",
                    Y.str(configMap, "metadata.name"), LAST_APPLIED_LIMIT).isLessThan(LAST_APPLIED_LIMIT - 8_192);
        }
    }

    @Test
    void everyDatasourceUidOfTheDashboardsIsProvisioned() {
        Set<String> provisioned = new TreeSet<>();
        for (String file : filesMountedAt(DATASOURCES).values()) {
            Map<String, Object> config = new Yaml(new SafeConstructor(new LoaderOptions())).load(file);
            Y.maps(config, "datasources").forEach(d -> provisioned.add(Y.str(d, "uid")));
        }
        assertThat(provisioned).as("provisioned datasources at %s (each with a uid)", DATASOURCES).isNotEmpty().doesNotContainNull();
        JsonMapper json = JsonMapper.builder().build();
        dashboardFiles().forEach((name, text) -> json.readTree(text).findValues("datasource").forEach(ds -> {
            String uid = ds.isObject() ? ds.path("uid").asString("") : "";
            if (!uid.isEmpty() && !uid.startsWith("$") && !uid.startsWith("-- ")) {
                assertThat(provisioned).as("%s names datasource uid %s", name, uid).contains(uid);
            }
        }));
    }

    /**
     * A query that filters on a literal {@code application="x"} shows nothing in the cluster unless a lab pod
     * reports x (its spring.application.name, e.g. main-service-platform): the variants are told apart by it.
     */
    @Test
    void everyApplicationTheDashboardsNameRunsInTheCluster() {
        Set<String> applications = new TreeSet<>();
        for (Workload workload : k8s.workloads()) {
            workload.module().ifPresent(module -> applications.add(ServiceConfig.of(module,
                    k8s.environment(workload, workload.containers().getFirst()))
                    .get("spring.application.name", String.class, module)));
        }
        Pattern literal = Pattern.compile("application\\s*(=~?)\\s*\"([^\"]*)\"");
        JsonMapper json = JsonMapper.builder().build();
        dashboardFiles().forEach((name, text) -> json.readTree(text).findValues("expr").forEach(expr -> {
            Matcher m = literal.matcher(expr.asString(""));
            while (m.find()) {
                String value = m.group(2);
                boolean plain = m.group(1).equals("=") || value.matches("[\\w-]+(\\|[\\w-]+)*");
                if (!value.contains("$") && plain) {
                    for (String application : value.split("\\|")) {
                        assertThat(applications).as("%s queries application=\"%s\"", name, application).contains(application);
                    }
                }
            }
        }));
    }

    private static final String HOME_UID = "fanout-overview";

    @Test
    void theOverviewIsTheHomeDashboardAFileTheProviderLoads() {
        String home = env().get("GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH");
        assertThat(home).as("Grafana's GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH").isNotNull();
        String folder = home.substring(0, home.lastIndexOf('/'));
        String file = home.substring(home.lastIndexOf('/') + 1);
        Set<String> providerPaths = new TreeSet<>();
        for (String provider : filesMountedAt(DASHBOARD_PROVIDERS).values()) {
            Map<String, Object> config = new Yaml(new SafeConstructor(new LoaderOptions())).load(provider);
            Y.maps(config, "providers").forEach(entry -> providerPaths.add(Y.str(entry, "options.path")));
        }
        assertThat(providerPaths).as("the home dashboard's folder %s is a provider's path", folder).contains(folder);
        Map<String, String> mounted = filesMountedAt(folder);
        assertThat(mounted).as("the home dashboard %s is mounted", home).containsKey(file);
        String uid = JsonMapper.builder().build().readTree(mounted.get(file)).path("uid").asString("");
        assertThat(uid).as("%s's uid", home).isEqualTo(HOME_UID);
    }

    @Test
    void anonymousVisitorsOnlyView() {
        Map<String, String> env = env();
        if ("true".equalsIgnoreCase(env.get("GF_AUTH_ANONYMOUS_ENABLED"))) {
            assertThat(env.get("GF_AUTH_ANONYMOUS_ORG_ROLE")).as("the anonymous role (Grafana's default is Viewer; say it)")
                    .isEqualTo("Viewer");
        }
        assertThat(env.get("GF_USERS_VIEWERS_CAN_EDIT")).as("GF_USERS_VIEWERS_CAN_EDIT").isEqualTo("false");
        // nowhere else: no entry point may give anonymous visitors more (an env var or a grafana.ini in a ConfigMap)
        Pattern elevated = Pattern.compile("(?i)(GF_AUTH_ANONYMOUS_ORG_ROLE\\s*[=:]\\s*[\"']?|org_role\\s*=\\s*)(Editor|Admin)");
        for (String entryPoint : Repo.entryPoints()) {
            Manifests manifests = Manifests.of(entryPoint);
            for (Workload workload : manifests.workloads()) {
                for (Map<String, Object> container : workload.containers()) {
                    for (Map<String, Object> variable : Y.maps(container, "env")) {
                        if ("GF_AUTH_ANONYMOUS_ORG_ROLE".equals(variable.get("name"))) {
                            assertThat(String.valueOf(variable.get("value"))).as("%s %s: anonymous role", entryPoint, workload)
                                    .isEqualTo("Viewer");
                        }
                    }
                }
            }
            for (Map<String, Object> configMap : manifests.ofKind("ConfigMap")) {
                Y.map(configMap, "data").forEach((key, value) -> assertThat(elevated.matcher(String.valueOf(value)).find())
                        .as("%s: ConfigMap %s, %s gives anonymous visitors Editor or Admin", entryPoint,
                                Y.str(configMap, "metadata.name"), key).isFalse());
            }
        }
    }

    @Test
    void theImageIsAPinnedVersion() {
        String image = Y.str(grafana.containers().getFirst(), "image");
        assertThat(image).as("Grafana's image: a full version, never latest or untagged (dashboards follow its JSON model)")
                .matches("grafana/grafana:\\d+\\.\\d+\\.\\d+");
    }

    /** Grafana's environment: its env values (no Grafana setting is read from a ConfigMap here). */
    private Map<String, String> env() {
        Map<String, String> env = new TreeMap<>();
        for (Map<String, Object> variable : Y.maps(grafana.containers().getFirst(), "env")) {
            env.put(Y.str(variable, "name"), Y.str(variable, "value"));
        }
        return env;
    }

    /** @return file name to content of what a container of Grafana sees in {@code folder}, from a ConfigMap volume */
    private Map<String, String> filesMountedAt(String folder) {
        Map<String, Object> container = grafana.containers().getFirst();
        String volume = Y.maps(container, "volumeMounts").stream().filter(m -> folder.equals(Y.str(m, "mountPath")))
                .map(m -> Y.str(m, "name")).findFirst().orElseGet(() -> fail("Grafana has nothing mounted at " + folder));
        String configMap = Y.maps(grafana.podSpec(), "volumes").stream().filter(v -> volume.equals(Y.str(v, "name")))
                .map(v -> Y.str(v, "configMap.name")).findFirst().orElseGet(() -> fail("volume " + volume + " is no ConfigMap"));
        Map<String, String> files = new TreeMap<>();
        Y.map(k8s.get("ConfigMap", grafana.namespace(), configMap), "data").forEach((k, v) -> files.put(k, String.valueOf(v)));
        return files;
    }

    private static Map<String, String> dashboardFiles() {
        try (Stream<Path> files = Files.list(Repo.path("grafana/dashboards"))) {
            Map<String, String> dashboards = new TreeMap<>();
            files.filter(Files::isRegularFile).forEach(f -> dashboards.put(f.getFileName().toString(), Repo.read(f)));
            return dashboards;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
