package lab.fanout.orders.store;

import java.util.stream.Stream;

import lab.fanout.orders.OrdersServiceApplication;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Bad store configuration stops the start-up with a message that says what is valid, and repeats no password. */
@ExtendWith(OutputCaptureExtension.class)
class OrdersStoreStartupTest {

    @Test
    void anUnknownStoreStopsTheStartNamingTheValidStores(CapturedOutput output) {
        assertThatThrownBy(() -> start("--orders.store=mongo")).isNotNull();

        assertThat(output.getOut()).contains("Property: orders.store", "Value: \"mongo\"",
                "The following values are valid:", "    memory", "    postgres", "    r2dbc");
    }

    @Test
    void aPoolSizeOutOfRangeStopsTheStartNamingTheRange(CapturedOutput output) {
        assertThatThrownBy(() -> start("--orders.store=postgres", "--orders.db.pool-size=0")).isNotNull();

        assertThat(output.getOut()).contains("Property: orders.db.poolSize", "must be greater than or equal to 1");
    }

    @Test
    void aPasswordInTheUrlStopsTheStartWithoutBeingRepeated(CapturedOutput output) {
        assertThatThrownBy(() -> start("--orders.store=postgres",
                "--orders.db.url=jdbc:postgresql://127.0.0.1:9/lab?password=hunter2"))
                .hasRootCauseMessage("orders.db.url must not carry a password: give the user and password in the"
                        + " environment variables ORDERS_DB_USERNAME and ORDERS_DB_PASSWORD");

        assertThat(output.getAll()).contains("orders.db.url must not carry a password").doesNotContain("hunter2");
    }

    private static void start(String... args) {
        new SpringApplicationBuilder(OrdersServiceApplication.class)
                .run(Stream.concat(Stream.of("--server.port=0", "--management.server.port=0"), Stream.of(args))
                        .toArray(String[]::new))
                .close();
    }
}
