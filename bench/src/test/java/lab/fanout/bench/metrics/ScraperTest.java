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

    /** On netty reactive leases from Reactor Netty's pool: its connections count beside HttpClient 5's classic pool. */
    @Test
    void countsTheLeasedAndPendingConnectionsOfEitherClientsPools() {
        Exposition netty = Exposition.parse("""
                httpcomponents_httpclient_pool_total_connections{httpclient="downstream",state="leased"} 2.0
                httpcomponents_httpclient_pool_total_connections{httpclient="downstream",state="available"} 9.0
                httpcomponents_httpclient_pool_total_pending{httpclient="downstream"} 1.0
                reactor_netty_connection_provider_active_connections{name="downstream-reactive",id="1"} 5.0
                reactor_netty_connection_provider_active_connections{name="downstream-reactive",id="2"} 3.0
                reactor_netty_connection_provider_pending_connections{name="downstream-reactive",id="1"} 4.0
                """);
        assertThat(Scraper.leased(netty)).hasValue(10.0);
        assertThat(Scraper.pending(netty)).hasValue(5.0);
        assertThat(Scraper.leased(Exposition.parse("jvm_threads_live_threads 18.0\n"))).isEmpty();
    }
}
