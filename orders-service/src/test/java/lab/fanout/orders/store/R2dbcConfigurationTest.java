package lab.fanout.orders.store;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;

import io.r2dbc.postgresql.PostgresqlConnectionConfiguration;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The r2dbc store reads {@code orders.db.url}, a JDBC URL, for its R2DBC connection: host, port and database from the
 * URL, the user from the environment or else the URL, the connection timeout as the connect timeout.
 */
class R2dbcConfigurationTest {

    @Test
    void takesHostPortAndDatabaseFromTheJdbcUrlAndTheUserFromTheEnvironment() throws IOException {
        PostgresqlConnectionConfiguration r2dbc = configuration("jdbc:postgresql://db-host:6543/lab?user=other"
                + "&loggerLevel=OFF", Map.of("ORDERS_DB_USERNAME", "lab", "ORDERS_DB_PASSWORD", "pw"));

        // its toString masks a password it has, and shows none as empty; the user is a Publisher there, unshown
        assertThat(r2dbc.toString()).contains("database='lab'", "host='db-host'", "port=6543", "connectTimeout=PT2S",
                "password='****'");
    }

    @Test
    void takesTheUrlsUserAndPostgresDefaultPortWithoutTheEnvironment() throws IOException {
        PostgresqlConnectionConfiguration r2dbc = configuration("jdbc:postgresql://127.0.0.1/postgres?user=postgres",
                Map.of());

        assertThat(r2dbc.toString()).contains("database='postgres'", "host='127.0.0.1'", "port=5432", "password=''");
    }

    private static PostgresqlConnectionConfiguration configuration(String url, Map<String, String> environment)
            throws IOException {
        try (OrdersDatabase database = OrdersDatabase.open(new OrdersProperties.Db(url, 10, Duration.ofSeconds(2),
                null), environment::get)) {
            return R2dbcStoreConfiguration.r2dbcConfiguration(database, Duration.ofSeconds(2));
        }
    }
}
