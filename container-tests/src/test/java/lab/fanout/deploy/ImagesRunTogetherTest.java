package lab.fanout.deploy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Capability;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.startupcheck.OneShotStartupCheckStrategy;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.lifecycle.Startables;
import org.testcontainers.utility.DockerImageName;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import lab.fanout.deploy.Manifests.Workload;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Check 4: the four images run together as they would in the cluster. Every lab workload of k8s/ becomes a
 * container of its image (the one the manifest names, never pulled), on one network under the names of the
 * Services that select it, with the environment its ConfigMaps and env give it, and with its pod's user, memory
 * and CPU limits, read-only root filesystem, emptyDir mounts (as tmpfs), no capabilities and no privilege
 * escalation. Then every strategy must answer through every main-service variant, every service must serve
 * /actuator/prometheus at the port Prometheus scrapes (its management port), and the load Job's own command must
 * load every variant without an error.
 * <p>
 * Needs a Docker engine (skipped without one) that can build the images: it runs scripts/build-images.sh --hey on
 * the jars of this build, with the base images pulled or made offline (docker/make-base-image.sh).
 */
@Testcontainers(disabledWithoutDocker = true)
class ImagesRunTogetherTest {

    private static final Duration STARTUP = Duration.ofMinutes(5);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final Map<String, GenericContainer<?>> RUNNING = new LinkedHashMap<>();
    private static final Map<String, Workload> WORKLOADS = new LinkedHashMap<>();
    private static Network network;

    @BeforeAll
    static void startTheLabAsTheClusterWould() {
        Manifests k8s = Manifests.of("k8s");
        k8s.workloads().stream().filter(w -> w.module().isPresent()).forEach(w -> WORKLOADS.put(w.name(), w));
        assertThat(WORKLOADS).as("lab workloads in k8s").isNotEmpty();
        // from the jars this build just packaged (the reactor builds container-tests last), so that the images
        // run the code under test; Docker's layer cache makes a rebuild of unchanged jars take seconds
        Repo.run(List.of("bash", "scripts/build-images.sh", "--hey"),
                "bash and docker are needed", Duration.ofMinutes(10));
        WORKLOADS.values().forEach(w -> requireImage(image(w)));
        network = Network.newNetwork();
        WORKLOADS.values().forEach(w -> RUNNING.put(w.name(), asInTheCluster(k8s, w)
                .withExposedPorts(WiringTest.containerPort(w, "http"), scrapePort(w))
                .waitingFor(Wait.forHttp(Y.str(w.containers().getFirst(), "readinessProbe.httpGet.path"))
                        .forPort(WiringTest.containerPort(w, "http")).withStartupTimeout(STARTUP))));
        Startables.deepStart(RUNNING.values()).join();
    }

    @AfterAll
    static void stop() {
        RUNNING.values().forEach(GenericContainer::stop);
        if (network != null) {
            network.close();
        }
    }

    static Stream<Arguments> mainServiceVariantsAndStrategies() {
        List<Arguments> arguments = new ArrayList<>();
        Manifests.of("k8s").workloads().stream().filter(w -> w.module().equals(java.util.Optional.of("main-service")))
                .forEach(w -> ServiceConfig.strategyNames().forEach(s -> arguments.add(Arguments.of(w.name(), s))));
        return arguments.stream();
    }

    @ParameterizedTest(name = "{0} concurrency={1}")
    @MethodSource("mainServiceVariantsAndStrategies")
    void everyStrategyAnswersThroughMainServiceWithAllThreeDownstreams(String variant, String strategy) throws Exception {
        HttpResponse<String> response = get(variant, "/backoffice/api/v1/backoffice/orders?concurrency=" + strategy + "&latencyMs=10");
        assertThat(response.statusCode()).as("%s: %s\n%s", variant, response.body(), logs(variant)).isEqualTo(200);
        assertThat(response.headers().firstValue("X-Fanout-Strategy")).contains(strategy);
        // the profile came through the environment: platform or virtual request threads on Tomcat; on Reactor Netty
        // (netty) a virtual thread per blocking fan-out, the event loop (a platform thread) for reactive
        String profile = config(variant).get("spring.profiles.active", String.class, "?");
        String thread = !profile.equals("netty") ? profile : strategy.equals("reactive") ? "platform" : "virtual";
        assertThat(response.headers().firstValue("X-Fanout-Request-Thread")).as("%s request thread", variant).contains(thread);
        JsonNode orders = JSON.readTree(response.body());
        assertThat(orders.isArray() && !orders.isEmpty()).as("orders in %s", response.body()).isTrue();
        for (JsonNode order : orders) {   // joined with accounts-service's and products-service's answers
            assertThat(order.path("account").isObject()).as("account of %s", order).isTrue();
            order.path("items").forEach(item -> assertThat(item.path("product").isObject()).as("product of %s", item).isTrue());
        }
    }

    static Stream<String> services() {
        return Manifests.of("k8s").workloads().stream().filter(w -> w.module().isPresent()).map(Workload::name);
    }

    static Stream<String> mainServiceVariants() {
        return services().filter(name -> name.startsWith("main-service"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("services")
    void everyServiceServesPrometheusMetricsTaggedWithItsName(String name) throws Exception {
        String path = (String) WORKLOADS.get(name).annotations().get("prometheus.io/path");
        HttpResponse<String> response = get(name, scrapePort(WORKLOADS.get(name)), path);
        assertThat(response.statusCode()).as("%s %s", name, path).isEqualTo(200);
        String application = config(name).get("spring.application.name", String.class, "?");
        assertThat(response.body()).as("%s metrics", name).contains("application=\"" + application + "\"");
    }

    /**
     * The image starts main-service from exploded layers (docker/Dockerfile), where the jar manifest's Add-Opens does
     * not apply: without the flag on its command line the thread-per-task executors' gauges are missing and the
     * overview's "Executor activity" panel shows nothing on Kubernetes (seen in the cluster of ./lab cluster).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("mainServiceVariants")
    void mainServiceShowsItsThreadPerTaskExecutors(String name) throws Exception {
        String body = get(name, scrapePort(WORKLOADS.get(name)), "/actuator/prometheus").body();
        for (String executor : List.of("completableFutureWithThreadTaskExecutor", "completableFutureWithVirtualTaskExecutor")) {
            assertThat(body.lines().filter(l -> l.startsWith("executor_active_threads{") && l.contains("name=\"" + executor + "\"")))
                    .as("%s: executor_active_threads of %s", name, executor).isNotEmpty();
        }
    }

    /** The load Job of k8s/components/load-test, its own command and targets, for 1 s per target and strategy. */
    @Test
    void theLoadJobLoadsBothVariantsWithoutErrors() {
        Manifests withLoad = Manifests.of("k8s/tests/with-load-test");
        Workload job = withLoad.workloads().stream().filter(w -> w.kind().equals("Job")).findFirst().orElseThrow();
        requireImage(image(job));
        Map<String, Object> spec = job.containers().getFirst();
        Map<String, String> environment = withLoad.environment(job, spec);
        environment.put("DURATION", "1s");
        environment.put("CONCURRENCY", "2");
        List<String> command = stringList(spec.get("command"));
        List<String> args = stringList(spec.get("args"));
        try (GenericContainer<?> hey = asInTheCluster(withLoad, job).withEnv(environment)
                .withCreateContainerCmdModifier(cmd -> cmd.withEntrypoint(command).withCmd(args))
                .withStartupCheckStrategy(new OneShotStartupCheckStrategy().withTimeout(Duration.ofMinutes(3)))) {
            hey.start();
            String output = hey.getLogs();
            int runs = environment.get("TARGETS").split("\\s+").length * environment.get("STRATEGIES").split("\\s+").length;
            assertThat(output.split("Status code distribution:", -1)).as("one hey summary per target and strategy:\n%s", output)
                    .hasSize(runs + 1);
            Matcher status = Pattern.compile("\\[(\\d{3})]\\s+\\d+ responses").matcher(output);
            while (status.find()) {
                assertThat(status.group(1)).as("status codes:\n%s", output).isEqualTo("200");
            }
            assertThat(output).as("hey output").doesNotContain("Error distribution");
        }
    }

    // ---- a pod's settings, applied to a container ----------------------------------------------------------------

    private static GenericContainer<?> asInTheCluster(Manifests manifests, Workload workload) {
        Map<String, Object> spec = workload.containers().getFirst();
        List<String> aliases = manifests.ofKind("Service").stream()
                .filter(s -> Manifests.namespaceOf(s).equals(workload.namespace()) && workload.selectedBy(Y.map(s, "spec.selector")))
                .map(s -> Y.str(s, "metadata.name")).toList();
        Map<String, String> tmpfs = new LinkedHashMap<>();
        for (Map<String, Object> mount : Y.maps(spec, "volumeMounts")) {
            Y.maps(workload.podSpec(), "volumes").stream()
                    .filter(v -> v.get("name").equals(mount.get("name")) && v.containsKey("emptyDir"))
                    .forEach(v -> tmpfs.put(Y.str(mount, "mountPath"), "rw,size=64m"));
        }
        String user = Y.str(workload.podSpec(), "securityContext.runAsUser");
        String group = Y.str(workload.podSpec(), "securityContext.runAsGroup");
        boolean readOnly = Boolean.TRUE.equals(Y.at(spec, "securityContext.readOnlyRootFilesystem"));
        boolean dropAll = String.valueOf(Y.at(spec, "securityContext.capabilities.drop")).contains("ALL");
        String memory = Y.str(spec, "resources.limits.memory");
        String cpu = Y.str(spec, "resources.limits.cpu");
        return new GenericContainer<>(DockerImageName.parse(image(workload)))
                .withImagePullPolicy(image -> false)
                .withNetwork(network)
                .withNetworkAliases(aliases.toArray(String[]::new))
                .withEnv(manifests.environment(workload, spec))
                .withCreateContainerCmdModifier(cmd -> {
                    if (user != null) {
                        cmd.withUser(group != null ? user + ":" + group : user);
                    }
                    var host = cmd.getHostConfig().withReadonlyRootfs(readOnly).withTmpFs(tmpfs)
                            .withSecurityOpts(List.of("no-new-privileges"));
                    if (dropAll) {
                        host.withCapDrop(Capability.ALL);
                    }
                    if (memory != null) {
                        host.withMemory(bytes(memory));
                    }
                    if (cpu != null) {
                        host.withNanoCPUs((long) (cores(cpu) * 1e9));
                    }
                });
    }

    private static String image(Workload workload) {
        return Y.str(workload.containers().getFirst(), "image");
    }

    private static void requireImage(String image) {
        try {
            DockerClientFactory.instance().client().inspectImageCmd(image).exec();
        } catch (NotFoundException e) {
            throw new AssertionError("image " + image + " was not built by scripts/build-images.sh --hey");
        }
    }

    /** @param quantity a Kubernetes memory quantity, e.g. 512Mi or 1Gi */
    static long bytes(String quantity) {
        Matcher m = Pattern.compile("(\\d+)([KMG]i)?").matcher(quantity);
        assertThat(m.matches()).as("memory quantity %s", quantity).isTrue();
        long unit = switch (m.group(2) == null ? "" : m.group(2)) {
            case "Ki" -> 1L << 10;
            case "Mi" -> 1L << 20;
            case "Gi" -> 1L << 30;
            default -> 1;
        };
        return Long.parseLong(m.group(1)) * unit;
    }

    /** @param quantity a Kubernetes CPU quantity, e.g. 2 or 500m */
    static double cores(String quantity) {
        return quantity.endsWith("m") ? Double.parseDouble(quantity.substring(0, quantity.length() - 1)) / 1000
                : Double.parseDouble(quantity);
    }

    private static List<String> stringList(Object list) {
        return list == null ? List.of() : ((List<?>) list).stream().map(String::valueOf).toList();
    }

    private static ServiceConfig config(String workload) {
        Workload w = WORKLOADS.get(workload);
        return ServiceConfig.of(w.module().orElseThrow(), Manifests.of("k8s").environment(w, w.containers().getFirst()));
    }

    /** @return the port Prometheus scrapes (prometheus.io/port): the management port */
    private static int scrapePort(Workload workload) {
        return Integer.parseInt((String) workload.annotations().get("prometheus.io/port"));
    }

    private static HttpResponse<String> get(String workload, String path) throws Exception {
        return get(workload, WiringTest.containerPort(WORKLOADS.get(workload), "http"), path);
    }

    private static HttpResponse<String> get(String workload, int port, String path) throws Exception {
        GenericContainer<?> container = RUNNING.get(workload);
        URI uri = URI.create("http://" + container.getHost() + ":" + container.getMappedPort(port) + path);
        return HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String logs(String workload) {
        String logs = RUNNING.get(workload).getLogs();
        return logs.length() > 4000 ? logs.substring(logs.length() - 4000) : logs;
    }
}
