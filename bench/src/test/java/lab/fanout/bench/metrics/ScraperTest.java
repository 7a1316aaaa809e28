package lab.fanout.bench.metrics;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link Scraper#dbPending}: the queue for a db connection, whichever driver orders-service runs. */
class ScraperTest {

    @Test
    void readsTheWaitingRequestsOfEitherDriversPool() {
        assertThat(Scraper.dbPending(Exposition.parse("""
                hikaricp_connections_pending{pool="orders-db"} 7.0
                """))).hasValue(7.0);
        assertThat(Scraper.dbPending(Exposition.parse("""
                r2dbc_pool_pending_connections{application="orders-service",name="orders-db"} 9.0
                """))).hasValue(9.0);
        assertThat(Scraper.dbPending(Exposition.parse("""
                jvm_threads_live_threads{application="orders-service"} 18.0
                """))).as("the memory store: no pool, no figure").isEmpty();
    }
}
