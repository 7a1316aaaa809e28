package lab.fanout.deploy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import lab.fanout.deploy.Manifests.Workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Check 3 for the lab's own pods, in every whole deployment: what they read from their ConfigMaps, Secrets and env is
 * a real Spring property of that service (or a variable it reads itself), their probes ask the public port,
 * Prometheus scrapes the management port, and no Service exposes it.
 */
class SpringConfigurationTest {

    /** Read by the JVM itself, not by Spring. */
    private static final Set<String> JVM_VARIABLES = Set.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS");

    /**
     * Read by a service from its process environment itself, never as a Spring property (so never at
     * /actuator/info or in a log): orders-service's database user and password, named by OrdersDatabase's constants.
     */
    private static final Map<String, Set<String>> SERVICE_VARIABLES = Map.of("orders-service",
            Set.of(constant("lab.fanout.orders.store.OrdersDatabase", "USERNAME_VARIABLE"),
                    constant("lab.fanout.orders.store.OrdersDatabase", "PASSWORD_VARIABLE")));

    /** A lab pod as one whole deployment renders it. */
    record LabPod(String entryPoint, Workload workload) {

        Map<String, String> environment() {
            return Manifests.of(entryPoint).environment(workload, workload.containers().getFirst());
        }

        @Override
        public String toString() {
            return entryPoint + ": " + workload;
        }
    }

    /**
     * The lab's pods of every whole deployment (k8s/, k8s/tests/*, k8s/overlays/*), each distinct environment once:
     * the components change some (the breaker's main-service, the postgres and r2dbc stores' orders-service).
     */
    static Stream<LabPod> labWorkloads() {
        Map<String, LabPod> distinct = new java.util.LinkedHashMap<>();
        for (String entryPoint : Repo.deployments()) {
            for (Workload workload : Manifests.of(entryPoint).workloads()) {
                if (workload.module().isPresent()) {
                    LabPod pod = new LabPod(entryPoint, workload);
                    distinct.putIfAbsent(workload.name() + " " + new java.util.TreeMap<>(pod.environment()), pod);
                }
            }
        }
        assertThat(distinct).as("the deployments render the lab's services").isNotEmpty();
        assertThat(distinct.values()).as("orders-service with the postgres store (k8s/components/postgres) is checked")
                .anyMatch(pod -> "postgres".equals(pod.environment().get("ORDERS_STORE")));
        assertThat(distinct.values())
                .as("orders-service with the r2dbc store (k8s/components/postgres-r2dbc) is checked")
                .anyMatch(pod -> "r2dbc".equals(pod.environment().get("ORDERS_STORE")));
        return distinct.values().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("labWorkloads")
    void everyVariableThePodReadsIsASpringPropertyOfItsService(LabPod pod) {
        Workload workload = pod.workload();
        String module = workload.module().orElseThrow();
        Map<String, String> environment = pod.environment();
        List<Class<?>> classes = ServiceConfig.propertiesClasses(module);
        assertThat(classes).as("%s has @ConfigurationProperties classes (is main-service compiled?)", module).isNotEmpty();
        Set<String> own = new TreeSet<>();
        classes.forEach(type -> own.addAll(ServiceConfig.propertyNames(type)));

        List<String> unknown = new ArrayList<>();
        for (String variable : environment.keySet()) {
            boolean known = JVM_VARIABLES.contains(variable)
                    || SERVICE_VARIABLES.getOrDefault(module, Set.of()).contains(variable)
                    || own.stream().anyMatch(p -> ServiceConfig.sets(variable, ConfigurationPropertyName.of(p), false))
                    || ServiceConfig.BOOT_PROPERTIES.entrySet().stream()
                            .anyMatch(p -> ServiceConfig.sets(variable, p.getKey(), p.getValue()));
            if (!known) {
                unknown.add(variable);
            }
        }
        assertThat(unknown).as("%s: variables that set no property of %s (its own: %s, or Spring Boot's)",
                workload, module, own).isEmpty();

        // and the values convert: "5x" for a Duration or "many" for an int fails here, not at pod start
        Binder binder = new Binder(ConfigurationPropertySources.from(
                new SystemEnvironmentPropertySource("pod environment", Map.copyOf(environment))));
        for (Class<?> type : classes) {
            String prefix = type.getAnnotation(ConfigurationProperties.class).value();
            try {
                binder.bind(prefix, Bindable.of(type));
            } catch (BindException e) {
                fail(workload + ": " + e.getMessage() + ": " + e.getCause().getMessage());
            }
        }
    }

    /**
     * The actuator has a port of its own (management.server.port), which Prometheus scrapes; the probes ask the public
     * port's {@code /livez} and {@code /readyz} (management.endpoint.health.probes.add-additional-paths), so that they
     * fail when the port that serves callers does (Boot's advice for a separate management port).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("labWorkloads")
    void probesAskThePublicPortAndPrometheusScrapesTheManagementPort(LabPod pod) {
        Workload workload = pod.workload();
        ServiceConfig config = ServiceConfig.of(workload.module().orElseThrow(), pod.environment());
        int serverPort = config.get("server.port", Integer.class, 8080);
        Integer managementPort = config.get("management.server.port", Integer.class, null);
        assertThat(managementPort).as("%s: management.server.port (the actuator off the public port)", workload)
                .isNotNull().isNotEqualTo(serverPort);
        String actuator = config.get("management.endpoints.web.base-path", String.class, "/actuator");

        assertThat(config.list("management.endpoints.web.exposure.include"))
                .as("%s exposes health and prometheus over HTTP", workload).containsAnyOf("*", "health")
                .containsAnyOf("*", "prometheus");
        assertThat(config.get("management.endpoint.health.probes.enabled", Boolean.class, false))
                .as("%s: management.endpoint.health.probes.enabled (liveness and readiness groups)", workload).isTrue();
        assertThat(config.get("management.endpoint.health.probes.add-additional-paths", Boolean.class, false))
                .as("%s: management.endpoint.health.probes.add-additional-paths (/livez, /readyz on server.port)", workload)
                .isTrue();

        Map<String, Object> container = workload.containers().getFirst();
        Map<String, String> expectedPaths = Map.of("startupProbe", "/livez", "livenessProbe", "/livez",
                "readinessProbe", "/readyz");
        expectedPaths.forEach((probe, path) -> {
            assertThat(Y.str(container, probe + ".httpGet.path")).as("%s %s path", workload, probe).isEqualTo(path);
            assertThat(WiringTest.containerPort(workload, Y.at(container, probe + ".httpGet.port")))
                    .as("%s %s port", workload, probe).isEqualTo(serverPort);
        });
        assertThat(WiringTest.containerPort(workload, "http"))
                .as("%s: container port 'http' (the Services' target) is server.port", workload).isEqualTo(serverPort);
        assertThat(WiringTest.containerPort(workload, "management"))
                .as("%s: container port 'management' is management.server.port", workload).isEqualTo(managementPort);

        Map<String, Object> annotations = workload.annotations();
        assertThat(annotations.get("prometheus.io/scrape")).as("%s prometheus.io/scrape", workload).isEqualTo("true");
        assertThat(annotations.get("prometheus.io/port")).as("%s prometheus.io/port", workload).isEqualTo(String.valueOf(managementPort));
        assertThat(annotations.get("prometheus.io/path")).as("%s prometheus.io/path", workload).isEqualTo(actuator + "/prometheus");
    }

    /** No Service, and so no NodePort, reaches a lab pod's management port: only Prometheus, pod to pod, does. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("lab.fanout.deploy.WiringTest#deployments")
    void noServiceReachesTheManagementPort(String entryPoint) {
        Manifests manifests = Manifests.of(entryPoint);
        int checked = 0;
        for (Workload workload : manifests.workloads()) {
            if (workload.module().isEmpty()) {
                continue;
            }
            Integer managementPort = ServiceConfig.of(workload.module().get(),
                    manifests.environment(workload, workload.containers().getFirst()))
                    .get("management.server.port", Integer.class, null);
            assertThat(managementPort).as("%s: %s has management.server.port", entryPoint, workload).isNotNull();
            for (Map<String, Object> service : manifests.ofKind("Service")) {
                if (!Manifests.namespaceOf(service).equals(workload.namespace())
                        || !workload.selectedBy(Y.map(service, "spec.selector"))) {
                    continue;
                }
                for (Map<String, Object> port : Y.maps(service, "spec.ports")) {
                    Object target = port.getOrDefault("targetPort", port.get("port"));
                    assertThat(WiringTest.containerPort(workload, target))
                            .as("%s: Service %s port %s reaches %s", entryPoint, Y.str(service, "metadata.name"), target, workload)
                            .isNotEqualTo(managementPort);
                    checked++;
                }
            }
        }
        assertThat(checked).as("%s: Service ports in front of the lab's pods", entryPoint).isPositive();
    }

    private static String constant(String className, String field) {
        try {
            var declared = Class.forName(className).getDeclaredField(field);
            declared.setAccessible(true);
            return (String) declared.get(null);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(className + "." + field + " (is orders-service compiled?)", e);
        }
    }
}
