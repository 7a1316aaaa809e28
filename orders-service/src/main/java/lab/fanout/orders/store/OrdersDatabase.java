package lab.fanout.orders.store;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;

/**
 * The PostgreSQL server the {@code postgres} and {@code r2dbc} stores read: the one {@code orders.db.url} names, with the user and
 * password of the environment variables {@value #USERNAME_VARIABLE} and {@value #PASSWORD_VARIABLE} (never a Spring
 * property, so never on a command line, in {@code /actuator/info} or in a log), or, without a URL, an
 * {@link EmbeddedPostgresServer} of orders-service's own, stopped by {@link #close()}.
 */
final class OrdersDatabase implements AutoCloseable {

    static final String USERNAME_VARIABLE = "ORDERS_DB_USERNAME";
    static final String PASSWORD_VARIABLE = "ORDERS_DB_PASSWORD";
    private static final String URL_PREFIX = "jdbc:postgresql:";
    /** Connections the embedded server allows beyond the pool: Flyway's own, a psql to look around. */
    private static final int SPARE_CONNECTIONS = 10;

    private final String jdbcUrl;
    private final @Nullable String username;
    private final @Nullable String password;
    private final @Nullable EmbeddedPostgresServer embedded;

    private OrdersDatabase(String jdbcUrl, @Nullable String username, @Nullable String password,
                           @Nullable EmbeddedPostgresServer embedded) {
        this.jdbcUrl = jdbcUrl;
        this.username = username;
        this.password = password;
        this.embedded = embedded;
    }

    /**
     * Checks an external server's URL (the checks here, not bean validation, so that a refused URL is never repeated
     * in the start-up failure, password and all), or starts the embedded server; connects to neither.
     *
     * @param environment the process environment ({@code System::getenv}), read for the credentials
     * @throws IllegalArgumentException if the URL is not PostgreSQL's or carries a password
     * @throws IOException              if the embedded server does not start
     */
    static OrdersDatabase open(OrdersProperties.Db db, UnaryOperator<String> environment) throws IOException {
        String url = db.url();
        if (url != null) {
            if (!url.regionMatches(true, 0, URL_PREFIX, 0, URL_PREFIX.length())) {
                throw new IllegalArgumentException("orders.db.url must start with " + URL_PREFIX);
            }
            // pgjdbc's password= parameter, or credentials before the host (user:password@host)
            if (url.toLowerCase(Locale.ROOT).contains("password=") || url.contains("@")) {
                throw new IllegalArgumentException("orders.db.url must not carry a password: give the user and"
                        + " password in the environment variables " + USERNAME_VARIABLE + " and "
                        + PASSWORD_VARIABLE);
            }
            return new OrdersDatabase(url, environment.apply(USERNAME_VARIABLE), environment.apply(PASSWORD_VARIABLE),
                    null);
        }
        EmbeddedPostgresServer server = EmbeddedPostgresServer.start(db.dataDir(), db.poolSize() + SPARE_CONNECTIONS);
        return new OrdersDatabase(server.jdbcUrl(), null, null, server);
    }

    String jdbcUrl() {
        return jdbcUrl;
    }

    /** @return the user from the environment, or null to take the URL's (or the driver's default) */
    @Nullable String username() {
        return username;
    }

    @Nullable String password() {
        return password;
    }

    /**
     * @return for {@code /actuator/info}: {@code embedded} or {@code external}, and for the embedded server its data
     *         directory and server pid (what {@code ./lab down} needs if orders-service dies without stopping it)
     */
    Map<String, Object> describe() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("server", embedded == null ? "external" : "embedded");
        if (embedded != null) {
            details.put("dataDir", embedded.dataDir().toString());
            embedded.pid().ifPresent(pid -> details.put("serverPid", pid));
        }
        return details;
    }

    /** Stops the embedded server, if this is one; an external server is left alone. */
    @Override
    public void close() throws IOException {
        if (embedded != null) {
            embedded.close();
        }
    }
}
