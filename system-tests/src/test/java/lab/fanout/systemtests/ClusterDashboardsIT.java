package lab.fanout.systemtests;

import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import lab.fanout.systemtests.Dashboards.Query;
import tools.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboards against a Kubernetes cluster's Prometheus (k8s/monitoring), reached by {@code kubectl port-forward}:
 * every service's targets are up, and every dashboard query returns data, with {@link DashboardQueryCheck} and
 * the allowlist of {@link DashboardsEndToEndIT}. It starts nothing and sends no load: whoever runs it has loaded
 * the cluster within the last minute ({@code $__rate_interval}, see below), else rates are 0 and quantiles NaN.
 * Runs only with {@code -Dfanout.cluster.prometheus=http://127.0.0.1:19090} (its base URL); optional:
 * <ul>
 * <li>{@code -Dfanout.cluster.applications=a,b,...}: the pod label {@code app} of every service (default: k8s/base's
 * five); the {@code main-service*} ones are also the values the JVM dashboard's {@code $application} is tested
 * with, each in turn, where the local test uses the saved "main-service";</li>
 * <li>{@code -Dfanout.cluster.orders-store=memory|postgres|r2dbc}: the store orders-service serves from (its
 * {@code /actuator/info}); on {@code memory} the database pool's queries must be empty
 * ({@code empty-on-memory-store.txt}); on {@code postgres} its JDBC lines must have data like every other and its
 * R2DBC lines be empty ({@code empty-on-postgres-store.txt}), on {@code r2dbc} the other way round
 * ({@code empty-on-r2dbc-store.txt}) (default: postgres);</li>
 * <li>{@code -Dfanout.cluster.rate-interval=5m}: in place of {@code $__rate_interval}, if the load ended longer
 * ago;</li>
 * <li>{@code -Dfanout.cluster.loaded=main-service-virtual} and {@code -Dfanout.cluster.time=1764070000} (Unix
 * seconds): {@link #variantsStayApart()} runs, with the queries evaluated at that time, which lies within a load of
 * that variant alone (the others idle for longer than the rate interval before it); without them it is
 * skipped.</li>
 * </ul>
 * Alone, offline, in about 10 s once {@code ./mvnw verify} has compiled the modules (test-compile instead of verify:
 * the reactor then serves bench's classes, which nothing installs, and packages and unit-tests nothing):
 * <pre>
 * ./mvnw -B -o -q -pl system-tests -am test-compile failsafe:integration-test failsafe:verify \
 *     -Dit.test=ClusterDashboardsIT -Dfailsafe.failIfNoSpecifiedTests=false \
 *     -Dfanout.cluster.prometheus=http://127.0.0.1:19090
 * </pre>
 */
@EnabledIfSystemProperty(named = ClusterDashboardsIT.PROMETHEUS, matches = ".+")
class ClusterDashboardsIT {

    static final String PROMETHEUS = "fanout.cluster.prometheus";
    static final String APPLICATIONS = "fanout.cluster.applications";
    static final String RATE_INTERVAL = "fanout.cluster.rate-interval";
    static final String ORDERS_STORE = "fanout.cluster.orders-store";
    static final String LOADED = "fanout.cluster.loaded";
    static final String TIME = "fanout.cluster.time";
    /** k8s/base: the three downstreams and main-service's three variants, by their pods' label app. */
    static final String K8S_APPLICATIONS = "orders-service,products-service,accounts-service,main-service-platform,"
            + "main-service-virtual,main-service-netty";

    private final PrometheusClient prometheus = new PrometheusClient(URI.create(System.getProperty(PROMETHEUS)));
    private final List<String> applications = Arrays.stream(System.getProperty(APPLICATIONS, K8S_APPLICATIONS)
            .split(",")).map(String::strip).filter(a -> !a.isEmpty()).toList();
    private final String rateInterval = System.getProperty(RATE_INTERVAL, Dashboards.RATE_INTERVAL);

    @BeforeEach
    void prometheusAnswers() {
        // else every query fails with a bare ConnectException
        assertThat(prometheus.ready()).as("%s/-/ready answers 200 (-D%s wants Prometheus' base URL; is the"
                + " port-forward running?)", prometheus.url(), PROMETHEUS).isTrue();
    }

    /** Each application has a target (label app, from its pods' label) and every target of it is up. */
    @Test
    void everyApplicationIsUp() throws Exception {
        Map<String, List<String>> targets = new TreeMap<>();
        for (JsonNode series : prometheus.query("up")) {
            JsonNode metric = series.path("metric");
            targets.computeIfAbsent(metric.path("app").asString(""), a -> new ArrayList<>())
                    .add(metric.path("pod").asString(metric.path("instance").asString()) + " up="
                            + series.path("value").get(1).asString());
        }
        List<String> failures = new ArrayList<>();
        for (String app : applications) {
            List<String> its = targets.getOrDefault(app, List.of());
            if (its.isEmpty()) {
                failures.add(app + ": no target (no scraped pod with label app=" + app + ")");
            } else if (!its.stream().allMatch(t -> t.endsWith(" up=1"))) {
                failures.add(app + ": a target is down: " + its);
            }
        }
        assertThat(failures).as("up at %s, listed by app: %s", prometheus.url(), targets).isEmpty();
    }

    @Test
    void everyDashboardQueryReturnsData() throws Exception {
        List<String> variants = applications.stream().filter(a -> a.startsWith("main-service")).toList();
        assertThat(variants).as("main-service variants in -D%s", APPLICATIONS).isNotEmpty();
        // the same where and PromQL for every variant unless it uses $application: run those once
        Set<Query> queries = new LinkedHashSet<>();
        for (String variant : variants) {
            queries.addAll(Dashboards.queries(Map.of("application", variant, "__rate_interval", rateInterval)));
        }
        String store = System.getProperty(ORDERS_STORE, "postgres");
        String[] allowlists = switch (store) {
            case "postgres", "r2dbc", "memory" ->
                    new String[] {"empty-by-nature.txt", "empty-on-" + store + "-store.txt"};
            default -> throw new IllegalArgumentException("-D" + ORDERS_STORE + "=" + store
                    + ": the store is memory, postgres or r2dbc (orders-service's /actuator/info knobs.orders.store)");
        };
        assertThat(DashboardQueryCheck.failures(queries, prometheus::query, allowlists)).as("dashboard queries"
                        + " without data at %s ($application = each of %s, $__rate_interval = %s: the load must have"
                        + " run within it; orders-service's store: %s)",
                prometheus.url(), variants, rateInterval, store).isEmpty();
    }

    /**
     * {@link VariantSeparationCheck} on every dashboard query as a user sees it with each variant in its own panel
     * and with "All": one variant carries the load, the others read 0; the variants are k8s/base's, all of them
     * ({@link DashboardVariantsTest#deployedVariants()}). Then the same check on the overview with one
     * {@code by (application, strategy)} of a load query turned into {@code by (strategy)} must fail at that panel:
     * proof, on every run, that a query adding the variants together cannot pass.
     */
    @Test
    @EnabledIfSystemProperty(named = LOADED, matches = ".+")
    void variantsStayApart() throws Exception {
        String loaded = System.getProperty(LOADED);
        Instant time = Instant.ofEpochSecond(Long.parseLong(System.getProperty(TIME)));
        List<String> variants = applications.stream().filter(a -> a.startsWith("main-service")).toList();
        assertThat(variants).as("-D%s names a variant of -D%s", LOADED, APPLICATIONS).contains(loaded)
                .containsExactlyInAnyOrderElementsOf(DashboardVariantsTest.deployedVariants().keySet());
        List<Query> queries = new ArrayList<>();
        for (String application : variants) {
            queries.addAll(Dashboards.queries(Map.of("application", application, "__rate_interval", rateInterval)));
        }
        queries.addAll(Dashboards.queries(Map.of("__rate_interval", rateInterval)));   // "All"
        DashboardQueryCheck.InstantQuery at = promql -> prometheus.query(promql, time);
        VariantSeparationCheck.Result result = VariantSeparationCheck.check(queries, at, loaded, variants);
        System.out.println("variantsStayApart: " + loaded + " loaded, what the panels read at " + time + ":");
        result.readings().forEach(line -> System.out.println("  " + line));
        assertThat(result.failures()).as(
                "panels that do not keep the variants apart at %s with %s loaded ($__rate_interval = %s)",
                time, loaded, rateInterval).isEmpty();

        Query original = queries.stream().filter(q -> q.expr().contains("sum by (application, strategy) (rate(")
                && q.where().contains("Request rate by strategy")).findFirst().orElseThrow();
        String merged = original.promql().replace("sum by (application, strategy)", "sum by (strategy)");
        List<String> mutant = VariantSeparationCheck.check(List.of(new Query(original.where(), original.expr(),
                merged, null, original.application())), at, loaded, variants).failures().stream()
                .filter(line -> line.startsWith(original.where())).toList();   // not the unlisted others
        System.out.println("variantsStayApart: the same check with one by (application) removed:");
        mutant.forEach(line -> System.out.println("  " + line));
        assertThat(mutant).as("the check on %s", merged).isNotEmpty();
    }
}
