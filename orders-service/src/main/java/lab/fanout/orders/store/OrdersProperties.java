package lab.fanout.orders.store;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonValue;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import lab.fanout.common.Knobs;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.jspecify.annotations.Nullable;

import tools.jackson.databind.annotation.JsonSerialize;
import tools.jackson.databind.ser.std.ToStringSerializer;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Where orders-service keeps its orders ({@code orders.*}), shown at {@code /actuator/info} under {@code knobs.orders}.
 * Credentials of an external database are not here: they come from the environment only ({@link OrdersDatabase}).
 *
 * @param store {@code memory} (default: {@code classpath:catalogue.json}, the latency slept on the request's thread, as
 *              in every benchmark so far) or {@code postgres} (the same catalogue in PostgreSQL, migrated by Flyway,
 *              the latency spent inside the query, {@code pg_sleep}, holding a pooled connection: JDBC, HikariCP)
 *              or {@code r2dbc} (the same database and query through R2DBC's non-blocking driver and r2dbc-pool,
 *              no thread held while a request waits). Anything else stops the start-up, naming the valid values.
 * @param db    the database stores' database and pool; the {@code memory} store ignores it
 */
@Validated
@ConfigurationProperties("orders")
public record OrdersProperties(@NotNull @DefaultValue("memory") Store store, @Valid @DefaultValue Db db)
        implements Knobs {

    /** The three stores; the names are the property's values. */
    public enum Store {
        MEMORY, POSTGRES, R2DBC;

        @JsonValue
        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * @param url               JDBC URL of an existing PostgreSQL, e.g. {@code jdbc:postgresql://127.0.0.1:5432/lab};
     *                          never with a password in it (start-up fails, without repeating the URL): the user and
     *                          password come from the environment variables {@code ORDERS_DB_USERNAME} and
     *                          {@code ORDERS_DB_PASSWORD}. Unset
     *                          (default): orders-service starts an embedded PostgreSQL 18 of its own, on a free
     *                          loopback port, and stops it when it stops. The {@code r2dbc} store takes the same
     *                          JDBC URL and derives its own from its host, port and database
     *                          (R2dbcStoreConfiguration).
     * @param poolSize          the pool's connections (HikariCP's, or r2dbc-pool's with {@code r2dbc}), 1..1000 (a
     *                          fixed pool: as many kept idle), default 10. With
     *                          the store's latency L every request holds one for L, so the pool serves at most
     *                          poolSize / L requests per second; the rest wait for a connection.
     * @param connectionTimeout the longest a request waits for a pooled connection (r2dbc-pool: its maximum acquire
     *                          time), 250ms (HikariCP's floor) .. 60s,
     *                          default 1s; past it the request is answered 503 problem+json. It also bounds a query
     *                          that hangs: the socket read gives up this long after the query's sleep should have
     *                          ended.
     * @param dataDir           the embedded server's data directory; emptied at start (stopping a server a killed
     *                          orders-service left behind there) and deleted at stop. Default: a new temporary
     *                          directory. Ignored with {@code url}.
     */
    public record Db(@Nullable String url,
                     @Min(1) @Max(1000) @DefaultValue("10") int poolSize,
                     @NotNull @DurationMin(millis = 250) @DurationMax(seconds = 60) @DefaultValue("1s")
                     Duration connectionTimeout,
                     // shown as the path itself, not Jackson's file: URI
                     @Nullable @JsonSerialize(using = ToStringSerializer.class) Path dataDir) {
    }
}
