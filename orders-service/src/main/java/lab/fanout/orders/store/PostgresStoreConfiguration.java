package lab.fanout.orders.store;

import java.io.IOException;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import tools.jackson.databind.ObjectMapper;

import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@code orders.store=postgres}: the database ({@link OrdersDatabase}: external, or embedded when no URL is given), a
 * HikariCP pool on it, and the {@link PostgresCatalogueStore} that replaces downstream-common's memory store. Boot's
 * own DataSource auto-configuration is excluded (OrdersServiceApplication): under the default {@code memory} store
 * there must be no DataSource at all. Boot's Flyway auto-configuration then migrates this pool's database at start-up
 * ({@code classpath:db/migration}: the schema and the catalogue), and its JDBC health and metrics pick the pool up.
 * <p>
 * Metrics, from HikariCP's own Micrometer tracker, tag {@code pool="orders-db"}:
 * {@code hikaricp_connections_active|idle|pending|max|min}, {@code hikaricp_connections_acquire_seconds} (the wait
 * for a connection), {@code hikaricp_connections_usage_seconds} (how long one was held: the query and its sleep),
 * {@code hikaricp_connections_timeout_total} (waits that ended in a 503).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "orders.store", havingValue = "postgres")
class PostgresStoreConfiguration {

    static final String POOL_NAME = "orders-db";

    private static final Log log = LogFactory.getLog(PostgresStoreConfiguration.class);

    /** @throws IOException if the embedded server does not start */
    @Bean
    OrdersDatabase ordersDatabase(OrdersProperties properties) throws IOException {
        return OrdersDatabase.open(properties.db(), System::getenv);
    }

    /** Depends on the database bean, so that the pool closes before an embedded server stops. */
    @Bean
    HikariDataSource dataSource(OrdersDatabase database, OrdersProperties properties, MeterRegistry registry) {
        OrdersProperties.Db db = properties.db();
        HikariDataSource pool = new HikariDataSource();
        pool.setPoolName(POOL_NAME);
        pool.setJdbcUrl(database.jdbcUrl());
        pool.setUsername(database.username());
        pool.setPassword(database.password());
        pool.setMaximumPoolSize(db.poolSize());
        pool.setMinimumIdle(db.poolSize());   // a fixed pool: no connection is opened while a request waits
        pool.setConnectionTimeout(db.connectionTimeout().toMillis());
        // set here rather than left to Boot's binder, which cannot once Flyway has started the pool
        pool.setMetricsTrackerFactory(new MicrometerMetricsTrackerFactory(registry));
        log.info("orders store: postgres (" + database.describe().get("server") + "), HikariCP pool " + POOL_NAME
                + " of " + db.poolSize() + " connections, connection timeout " + db.connectionTimeout().toMillis()
                + " ms");
        return pool;
    }

    @Bean
    PostgresCatalogueStore postgresCatalogueStore(HikariDataSource dataSource, ObjectMapper json,
                                                  OrdersProperties properties) {
        return new PostgresCatalogueStore(dataSource, json, properties.db().poolSize(),
                properties.db().connectionTimeout());
    }

    /**
     * {@code ordersDatabase} at {@code /actuator/info}: which server, and the pool as HikariCP runs it (the knobs
     * themselves are under {@code knobs.orders}).
     */
    @Bean
    InfoContributor ordersDatabaseInfo(OrdersDatabase database, HikariDataSource pool) {
        return builder -> {
            var details = database.describe();
            details.put("pool", POOL_NAME);
            details.put("maximumPoolSize", pool.getMaximumPoolSize());
            details.put("connectionTimeoutMs", pool.getConnectionTimeout());
            builder.withDetail("ordersDatabase", details);
        };
    }
}
