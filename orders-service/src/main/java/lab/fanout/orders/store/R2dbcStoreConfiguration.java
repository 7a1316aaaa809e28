package lab.fanout.orders.store;

import java.io.IOException;
import java.time.Duration;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.ConnectionPoolConfiguration;
import io.r2dbc.pool.PoolMetrics;
import io.r2dbc.postgresql.PostgresqlConnectionConfiguration;
import io.r2dbc.postgresql.PostgresqlConnectionFactory;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.postgresql.Driver;
import org.postgresql.PGProperty;
import reactor.core.publisher.Mono;
import tools.jackson.databind.ObjectMapper;

import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

/**
 * {@code orders.store=r2dbc}: the same database as the {@code postgres} store ({@link OrdersDatabase}: external, or
 * embedded when no URL is given), served through R2DBC: PostgreSQL's driver, r2dbc-postgresql, under r2dbc-pool, and
 * the {@link R2dbcCatalogueStore} that replaces downstream-common's memory store.
 * <p>
 * Flyway still owns the schema, and Flyway is JDBC: a plain JDBC DataSource (no pool: a connection opened and closed
 * per use) is the one DataSource bean, so that Boot's Flyway auto-configuration migrates the database at start-up
 * ({@code classpath:db/migration}, as for {@code postgres}) and Boot's {@code db} health indicator checks it. No
 * request goes through it. The R2DBC connection comes from the same {@code orders.db.url}: its host, port and
 * database ({@link #r2dbcConfiguration}).
 * <p>
 * Metrics on the management port, tag {@code pool="orders-db"}, read from r2dbc-pool's own counts (the names Spring
 * Boot's R2DBC pool metrics use): {@code r2dbc_pool_acquired_connections} (handed out, in use),
 * {@code r2dbc_pool_allocated_connections}, {@code r2dbc_pool_idle_connections}, {@code r2dbc_pool_pending_connections}
 * (requests waiting for one), {@code r2dbc_pool_max_allocated_connections} (the pool's size),
 * {@code r2dbc_pool_max_pending_connections}; the store's own {@code r2dbc_pool_acquire_seconds} and
 * {@code r2dbc_pool_timeout_total}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "orders.store", havingValue = "r2dbc")
class R2dbcStoreConfiguration {

    static final String POOL_NAME = PostgresStoreConfiguration.POOL_NAME;

    private static final Log log = LogFactory.getLog(R2dbcStoreConfiguration.class);

    /** @throws IOException if the embedded server does not start */
    @Bean
    OrdersDatabase ordersDatabase(OrdersProperties properties) throws IOException {
        return OrdersDatabase.open(properties.db(), System::getenv);
    }

    /** Flyway's and the health check's: JDBC, unpooled, never a request's. */
    @Bean
    SimpleDriverDataSource dataSource(OrdersDatabase database) {
        return new SimpleDriverDataSource(new Driver(), database.jdbcUrl(), database.username(), database.password());
    }

    /**
     * A fixed pool of {@code orders.db.pool-size} connections, opened at start, whose maximum acquire time is
     * {@code orders.db.connection-timeout}. Depends on the database bean, so that it closes before an embedded
     * server stops.
     */
    @Bean(destroyMethod = "dispose")
    ConnectionPool connectionPool(OrdersDatabase database, OrdersProperties properties, MeterRegistry registry) {
        OrdersProperties.Db db = properties.db();
        ConnectionPool pool = new ConnectionPool(ConnectionPoolConfiguration.builder()
                .connectionFactory(new PostgresqlConnectionFactory(r2dbcConfiguration(database, db.connectionTimeout())))
                .name(POOL_NAME)
                .initialSize(db.poolSize())
                .minIdle(db.poolSize())   // a fixed pool: no connection is opened while a request waits
                .maxSize(db.poolSize())
                .maxAcquireTime(db.connectionTimeout())
                // r2dbc-pool's default, one retry, restarts the acquire timeout: a request would wait twice as long
                // (R2dbcStoreFailureTest's frozen database saw 2 s for a 1 s timeout)
                .acquireRetry(0)
                .maxCreateConnectionTime(db.connectionTimeout())
                .maxValidationTime(db.connectionTimeout())
                .build());
        registerGauges(pool, registry);
        // opened now rather than by the first requests; a database away at start is Flyway's failure to report
        int opened = pool.warmup().onErrorResume(e -> {
            log.warn("orders store r2dbc: the pool's connections could not be opened at start: " + e.getMessage());
            return Mono.just(0);
        }).blockOptional(db.connectionTimeout().multipliedBy(db.poolSize() + 1L)).orElse(0);
        log.debug("orders store r2dbc: " + opened + " connections opened at start");
        log.info("orders store: r2dbc (" + database.describe().get("server") + "), r2dbc-pool " + POOL_NAME + " of "
                + db.poolSize() + " connections, acquire timeout " + db.connectionTimeout().toMillis() + " ms");
        return pool;
    }

    @Bean
    R2dbcCatalogueStore r2dbcCatalogueStore(ConnectionPool pool, ObjectMapper json, OrdersProperties properties,
                                            MeterRegistry registry) {
        return new R2dbcCatalogueStore(pool, json, properties.db().poolSize(), properties.db().connectionTimeout(),
                registry);
    }

    /** {@code ordersDatabase} at {@code /actuator/info}: which server, and the pool as r2dbc-pool runs it. */
    @Bean
    InfoContributor ordersDatabaseInfo(OrdersDatabase database, ConnectionPool pool, OrdersProperties properties) {
        return builder -> {
            var details = database.describe();
            details.put("pool", POOL_NAME);
            details.put("driver", "r2dbc");
            pool.getMetrics().ifPresent(metrics -> details.put("maximumPoolSize", metrics.getMaxAllocatedSize()));
            details.put("connectionTimeoutMs", properties.db().connectionTimeout().toMillis());
            builder.withDetail("ordersDatabase", details);
        };
    }

    /**
     * The R2DBC connection for {@code orders.db.url}'s server (pgjdbc's own parser reads the URL): its host, port and
     * database, the user from the environment or else the URL's {@code user}, the password from the environment. Other
     * URL parameters have no R2DBC meaning here and are ignored (their names logged once).
     *
     * @param connectTimeout bounds opening one connection (a frozen or unreachable server)
     * @throws IllegalArgumentException if pgjdbc cannot parse the URL
     */
    static PostgresqlConnectionConfiguration r2dbcConfiguration(OrdersDatabase database, Duration connectTimeout) {
        Properties url = Driver.parseURL(database.jdbcUrl(), new Properties());
        if (url == null) {
            throw new IllegalArgumentException("orders.db.url is not a PostgreSQL JDBC URL");
        }
        String user = database.username() != null ? database.username() : url.getProperty(PGProperty.USER.getName(),
                System.getProperty("user.name"));
        PostgresqlConnectionConfiguration.Builder builder = PostgresqlConnectionConfiguration.builder()
                .host(hostOf(url))
                .port(Integer.parseInt(firstOf(url.getProperty(PGProperty.PG_PORT.getName(), "5432"))))
                .database(url.getProperty(PGProperty.PG_DBNAME.getName()))
                .username(user)
                .connectTimeout(connectTimeout);
        if (database.password() != null) {
            builder.password(database.password());
        }
        Set<String> ignored = new TreeSet<>(url.stringPropertyNames());
        ignored.removeAll(Set.of(PGProperty.PG_HOST.getName(), PGProperty.PG_PORT.getName(),
                PGProperty.PG_DBNAME.getName(), PGProperty.USER.getName()));
        if (!ignored.isEmpty()) {
            log.info("orders store r2dbc: orders.db.url parameters without an R2DBC meaning, ignored: " + ignored);
        }
        return builder.build();
    }

    private static String hostOf(Properties url) {
        return firstOf(url.getProperty(PGProperty.PG_HOST.getName(), "localhost"));
    }

    /** pgjdbc lists several hosts (fail-over) comma-separated: R2DBC takes the first. */
    private static String firstOf(String list) {
        int comma = list.indexOf(',');
        return comma < 0 ? list : list.substring(0, comma);
    }

    private static void registerGauges(ConnectionPool pool, MeterRegistry registry) {
        gauge(registry, pool, "r2dbc.pool.acquired", "Connections handed out, in use", PoolMetrics::acquiredSize);
        gauge(registry, pool, "r2dbc.pool.allocated", "Connections open, in use or idle", PoolMetrics::allocatedSize);
        gauge(registry, pool, "r2dbc.pool.idle", "Connections open and idle", PoolMetrics::idleSize);
        gauge(registry, pool, "r2dbc.pool.pending", "Requests waiting for a connection",
                PoolMetrics::pendingAcquireSize);
        gauge(registry, pool, "r2dbc.pool.max.allocated", "The pool's size", PoolMetrics::getMaxAllocatedSize);
        gauge(registry, pool, "r2dbc.pool.max.pending", "The most requests that may wait",
                PoolMetrics::getMaxPendingAcquireSize);
    }

    private static void gauge(MeterRegistry registry, ConnectionPool pool, String name, String description,
                              ToDoubleFunction<PoolMetrics> value) {
        Gauge.builder(name, pool, p -> p.getMetrics().map(value::applyAsDouble).orElse(Double.NaN))
                .tag("pool", POOL_NAME).baseUnit("connections").description(description).register(registry);
    }
}
