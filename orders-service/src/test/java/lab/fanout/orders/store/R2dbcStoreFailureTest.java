package lab.fanout.orders.store;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

/**
 * {@link PostgresStoreFailureTest}'s tests on the {@code r2dbc} store: a stopped database is 503
 * {@code database-unavailable} within the connection timeout (r2dbc-pool's acquire time, the driver's connect
 * timeout), a frozen one once the query overruns its sleep by it (a Reactor timeout on the query), every connection
 * back in r2dbc-pool, and 200 again without a restart once the database is back.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "orders.store=r2dbc", "orders.db.pool-size=2", "orders.db.connection-timeout=1s"})
@DirtiesContext
class R2dbcStoreFailureTest extends PostgresStoreFailureTest {

    @Override
    String activeGauge() {
        return "r2dbc.pool.acquired";
    }

    @Override
    String pendingGauge() {
        return "r2dbc.pool.pending";
    }
}
