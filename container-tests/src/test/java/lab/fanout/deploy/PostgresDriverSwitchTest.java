package lab.fanout.deploy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import lab.fanout.deploy.Manifests.Workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The database driver as a switch (issue 39): k8s/components/postgres-r2dbc, listed after k8s/components/postgres, puts
 * orders-service on the r2dbc store and changes nothing else. Each pair renders the same deployment with JDBC and with
 * R2DBC: orders-service's environment differs in {@code ORDERS_STORE} alone (the same server, URL, credentials, pool
 * size and timeout); of all the rendered objects only the knobs ConfigMap differs, under a new name (its content
 * hash), so that applying the switch restarts orders-service and nothing else.
 */
class PostgresDriverSwitchTest {

    static final String KNOBS = "orders-db-knobs";

    /** The JDBC deployment and the same one with the R2DBC switch: CI's and ./lab cluster check 8's. */
    static Stream<Arguments> pairs() {
        return Stream.of(arguments("k8s/tests/with-postgres", "k8s/tests/with-postgres-r2dbc"),
                arguments("k8s/tests/cluster-postgres", "k8s/tests/cluster-postgres-r2dbc"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("pairs")
    void theR2dbcComponentChangesOrdersServicesStoreAndNothingElse(String jdbc, String r2dbc) {
        Map<String, String> before = ordersEnvironment(Manifests.of(jdbc));
        Map<String, String> after = ordersEnvironment(Manifests.of(r2dbc));
        assertThat(before).as("%s: orders-service's environment", jdbc).containsEntry("ORDERS_STORE", "postgres")
                .containsKeys("ORDERS_DB_URL", "ORDERS_DB_POOL_SIZE", "ORDERS_DB_CONNECTION_TIMEOUT",
                        "ORDERS_DB_USERNAME", "ORDERS_DB_PASSWORD");
        assertThat(after).as("%s: orders-service's environment", r2dbc).containsEntry("ORDERS_STORE", "r2dbc");
        before.remove("ORDERS_STORE");
        after.remove("ORDERS_STORE");
        assertThat(after).as("%s: the rest of orders-service's environment, as %s's", r2dbc, jdbc).isEqualTo(before);

        assertThat(differences(Manifests.of(jdbc), Manifests.of(r2dbc)))
                .as("objects that differ between %s and %s, ConfigMap names' hashes aside", jdbc, r2dbc)
                .containsExactly("ConfigMap fanout-lab/" + KNOBS);
        assertThat(knobsName(Manifests.of(r2dbc))).as("the knobs' name: a new hash restarts orders-service")
                .isNotEqualTo(knobsName(Manifests.of(jdbc)));
    }

    private static Map<String, String> ordersEnvironment(Manifests manifests) {
        Workload orders = manifests.workloads().stream().filter(w -> w.name().equals("orders-service")).findFirst()
                .orElseThrow(() -> new AssertionError(manifests + ": no orders-service"));
        return new TreeMap<>(manifests.environment(orders, orders.containers().getFirst()));
    }

    private static String knobsName(Manifests manifests) {
        return manifests.ofKind("ConfigMap").stream().map(c -> Y.str(c, "metadata.name"))
                .filter(name -> name.startsWith(KNOBS + "-")).findFirst()
                .orElseThrow(() -> new AssertionError(manifests + ": no ConfigMap " + KNOBS + "-<hash>"));
    }

    /** @return "Kind namespace/name" of each object that one rendering has and the other lacks or holds otherwise */
    private static List<String> differences(Manifests a, Manifests b) {
        Map<String, String> left = normalised(a);
        Map<String, String> right = normalised(b);
        TreeSet<String> keys = new TreeSet<>(left.keySet());
        keys.addAll(right.keySet());
        List<String> differ = new ArrayList<>();
        for (String key : keys) {
            if (!String.valueOf(left.get(key)).equals(String.valueOf(right.get(key)))) {
                differ.add(key);
            }
        }
        return differ;
    }

    /** Each object by "Kind namespace/name", with the knobs ConfigMap's hash suffix removed wherever it appears. */
    private static Map<String, String> normalised(Manifests manifests) {
        String hashed = knobsName(manifests);
        Map<String, String> objects = new TreeMap<>();
        for (Map<String, Object> resource : manifests.resources) {
            String key = resource.get("kind") + " " + Manifests.namespaceOf(resource) + "/"
                    + Y.str(resource, "metadata.name");
            objects.put(key.replace(hashed, KNOBS), String.valueOf(resource).replace(hashed, KNOBS));
        }
        return objects;
    }
}
