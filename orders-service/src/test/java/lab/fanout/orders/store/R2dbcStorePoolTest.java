package lab.fanout.orders.store;

import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link PostgresStorePoolTest}'s tests on the {@code r2dbc} store: the latency holds one of r2dbc-pool's
 * connections, inside the query; a pool of two serves two requests at a time, the third waits for a connection and
 * is answered 503 {@code database-pool-exhausted} once the connection timeout (r2dbc-pool's maximum acquire time) has
 * passed; the pool is shown at /actuator/info, its state as r2dbc-pool's gauges and the acquire timer at
 * /actuator/prometheus.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "orders.store=r2dbc", "orders.db.pool-size=2", "orders.db.connection-timeout=1s"})
class R2dbcStorePoolTest extends PostgresStorePoolTest {

    @Override
    String store() {
        return "r2dbc";
    }

    @Override
    String activeGauge() {
        return "r2dbc.pool.acquired";
    }

    @Override
    String pendingGauge() {
        return "r2dbc.pool.pending";
    }

    @Override
    String acquireTimer() {
        return "r2dbc.pool.acquire";
    }

    @Override
    String timeoutCounter() {
        return "r2dbc.pool.timeout";
    }

    /** r2dbc-pool times the wait for a connection, not how long it was held: the waves' duration shows that. */
    @Override
    void assertConnectionsHeldAtLeast(long ms) {
    }

    @Override
    void assertDriverInfo(JsonNode knobs, JsonNode database) {
        assertThat(database.get("driver").asString()).isEqualTo("r2dbc");
    }

    @Override
    String[] scrapeLines(String tags) {
        return new String[] {"r2dbc_pool_acquired_connections" + tags, "r2dbc_pool_pending_connections" + tags,
            "r2dbc_pool_idle_connections" + tags, "r2dbc_pool_allocated_connections" + tags,
            "r2dbc_pool_max_allocated_connections" + tags + " 2.0", "r2dbc_pool_acquire_seconds_count" + tags,
            "r2dbc_pool_acquire_seconds_sum" + tags, "r2dbc_pool_acquire_seconds_max" + tags,
            "r2dbc_pool_timeout_total" + tags};
    }
}
