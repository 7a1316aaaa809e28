package lab.fanout.orders.store;

import java.time.Duration;

import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.postgresql.PostgresqlConnectionConfiguration;
import io.r2dbc.postgresql.PostgresqlConnectionFactory;
import io.r2dbc.spi.Connection;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.postgresql.PostgreSQLContainer;
import reactor.core.publisher.Mono;

import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link PostgresContainerIT}'s tests on the {@code r2dbc} store: the same image, server, user and password, read
 * through r2dbc-postgresql under r2dbc-pool. The answers are the memory store's, byte for byte; a pool of two held by
 * two slow requests answers the third 503 {@code database-pool-exhausted} after the connection timeout (r2dbc-pool's
 * maximum acquire time); the server the pool reaches is the container's, and it refuses the R2DBC driver a wrong
 * password.
 */
@Testcontainers(disabledWithoutDocker = true)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "orders.store=r2dbc", "orders.db.pool-size=2", "orders.db.connection-timeout=1s"})
class R2dbcContainerIT extends PostgresContainerIT {

    private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(10);

    @Override
    String store() {
        return "r2dbc";
    }

    @Override
    String driver() {
        return "r2dbc";
    }

    @Override
    String activeGauge() {
        return "r2dbc.pool.acquired";
    }

    /** Through r2dbc-pool itself, not the JDBC DataSource that only Flyway and the health check use. */
    @Override
    void assertTheStoreReadsTheContainersServerAsTheUser(String username) {
        ConnectionPool pool = context.getBean(ConnectionPool.class);
        String seen = Mono.usingWhen(pool.create(),
                connection -> Mono.from(connection.createStatement("select version(), current_user").execute())
                        .flatMap(result -> Mono.from(result.map((row, meta) ->
                                row.get(0, String.class) + " | " + row.get(1, String.class)))),
                Connection::close).block(QUERY_TIMEOUT);
        assertThat(seen).as("version() | current_user through r2dbc-pool").contains("Debian")
                .endsWith(" | " + username);
    }

    @Override
    void assertTheDriverIsRefusedAWrongPassword() {
        PostgresqlConnectionFactory wrong = new PostgresqlConnectionFactory(PostgresqlConnectionConfiguration.builder()
                .host(database.getHost()).port(database.getMappedPort(PostgreSQLContainer.POSTGRESQL_PORT))
                .database(database.getDatabaseName()).username(database.getUsername()).password("wrong").build());
        assertThatThrownBy(() -> wrong.create().block(QUERY_TIMEOUT))
                .hasMessageContaining("password authentication failed");
    }
}
