package lab.fanout.bench.system;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * orders-service's PostgreSQL stores as the Spring properties it reads (OrdersProperties, docs/orders-store.md): the
 * one place that writes their names, for {@code ./lab up --orders-store postgres|r2dbc} and the bench's
 * {@code dbPools} and {@code ordersStores} axes.
 */
public final class OrdersStore {

    private OrdersStore() {
    }

    /**
     * @param store             {@code postgres} (JDBC, HikariCP) or {@code r2dbc} (R2DBC, r2dbc-pool):
     *                          {@code orders.store}
     * @param poolSize          {@code orders.db.pool-size}, connections; null = orders-service's default (10)
     * @param dataDir           the embedded server's data folder; null when {@code url} names a server
     * @param url               an existing server's JDBC URL, without a password; null = the embedded server
     * @param connectionTimeout {@code orders.db.connection-timeout} in Spring's duration format (e.g. {@code 10s},
     *                          250ms..60s); null = orders-service's default (1 s)
     * @return the properties that put orders-service on that store, in a stable order
     * @throws IllegalArgumentException another store, or neither or both of {@code dataDir} and {@code url}
     */
    public static Map<String, String> database(String store, Integer poolSize, Path dataDir, String url,
                                               String connectionTimeout) {
        if (!store.equals("postgres") && !store.equals("r2dbc")) {
            throw new IllegalArgumentException("a database store is postgres or r2dbc, not " + store);
        }
        if ((dataDir == null) == (url == null)) {
            throw new IllegalArgumentException("the " + store + " store needs either a data folder or a JDBC URL");
        }
        Map<String, String> p = new LinkedHashMap<>();
        p.put("orders.store", store);
        if (poolSize != null) {
            p.put("orders.db.pool-size", poolSize.toString());
        }
        if (connectionTimeout != null) {
            p.put("orders.db.connection-timeout", connectionTimeout);
        }
        if (url == null) {
            p.put("orders.db.data-dir", dataDir.toAbsolutePath().toString());
        } else {
            p.put("orders.db.url", url);
        }
        return p;
    }
}
