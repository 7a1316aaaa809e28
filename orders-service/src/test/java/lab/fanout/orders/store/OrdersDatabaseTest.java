package lab.fanout.orders.store;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** An external server's URL and credentials: the password comes from the environment, never from the URL. */
class OrdersDatabaseTest {

    private static final Map<String, String> ENVIRONMENT = Map.of(
            "ORDERS_DB_USERNAME", "lab", "ORDERS_DB_PASSWORD", "s3cret-from-env");

    @Test
    void takesTheUserAndPasswordOfAnExternalServerFromTheEnvironment() throws IOException {
        try (OrdersDatabase database = OrdersDatabase.open(db("jdbc:postgresql://127.0.0.1:5432/lab"),
                ENVIRONMENT::get)) {
            assertThat(database.jdbcUrl()).isEqualTo("jdbc:postgresql://127.0.0.1:5432/lab");
            assertThat(database.username()).isEqualTo("lab");
            assertThat(database.password()).isEqualTo("s3cret-from-env");
            assertThat(database.describe()).isEqualTo(Map.of("server", "external"));
        }
    }

    @Test
    void leavesTheCredentialsToTheUrlOrDriverWhenTheEnvironmentHasNone() throws IOException {
        try (OrdersDatabase database = OrdersDatabase.open(db("jdbc:postgresql://127.0.0.1:5432/lab?user=lab"),
                name -> null)) {
            assertThat(database.username()).isNull();
            assertThat(database.password()).isNull();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdbc:postgresql://127.0.0.1:5432/lab?user=lab&password=hunter2",
            "jdbc:postgresql://127.0.0.1:5432/lab?PASSWORD=hunter2", "jdbc:postgresql://lab:hunter2@127.0.0.1/lab"})
    void refusesAUrlThatCarriesAPasswordWithoutRepeatingIt(String url) {
        assertThatThrownBy(() -> OrdersDatabase.open(db(url), ENVIRONMENT::get))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("orders.db.url must not carry a password: give the user and password in the environment"
                        + " variables ORDERS_DB_USERNAME and ORDERS_DB_PASSWORD");
    }

    @Test
    void refusesAUrlOfAnotherDatabase() {
        assertThatThrownBy(() -> OrdersDatabase.open(db("jdbc:mysql://127.0.0.1/lab"), ENVIRONMENT::get))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("orders.db.url must start with jdbc:postgresql:");
    }

    private static OrdersProperties.Db db(String url) {
        return new OrdersProperties.Db(url, 10, Duration.ofSeconds(1), null);
    }
}
