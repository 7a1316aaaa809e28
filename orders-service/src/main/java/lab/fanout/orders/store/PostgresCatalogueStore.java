package lab.fanout.orders.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import lab.fanout.downstream.CatalogueStore;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;

/**
 * The orders in PostgreSQL ({@code orders.store=postgres}), with the simulated I/O where a real service spends it:
 * the request thread waits for a pooled connection (HikariCP, {@code orders.db.pool-size}, at most
 * {@code orders.db.connection-timeout}), then in one query that sleeps inside the database ({@code pg_sleep}) and
 * reads the orders, holding the connection throughout. So {@code latencyMs}, {@code jitterMs} and {@code tailMs}
 * hold a connection each, and a pool of N connections serves at most N requests at a time: the rest queue for it.
 * <p>
 * The JSON is built with the service's {@link ObjectMapper} in the shape of {@code catalogue.json}
 * ({@code id, accountId, status, placedAt, items: [{productId, quantity}]}), so it is byte for byte what the memory
 * store answers. A request drawn to fail (an injected error or close with a tail) sleeps in the database too,
 * reading nothing; one that fails at once touches no connection, as with the memory store.
 *
 * @see DatabaseUnavailableException for the 503s when the pool or the database fails
 */
final class PostgresCatalogueStore implements CatalogueStore {

    private static final String PART = OrderLines.PART;
    private static final String ITEM = OrderLines.ITEM;
    private static final String WAIT = OrderLines.WAIT;

    private final DataSource dataSource;
    private final ObjectMapper json;
    private final int poolSize;
    private final long connectionTimeoutMs;

    /**
     * @param dataSource the pool; its connection timeout must be {@code connectionTimeout}
     * @param poolSize   the pool's size, named in the pool-exhausted problem
     */
    PostgresCatalogueStore(DataSource dataSource, ObjectMapper json, int poolSize, Duration connectionTimeout) {
        this.dataSource = dataSource;
        this.json = json;
        this.poolSize = poolSize;
        this.connectionTimeoutMs = connectionTimeout.toMillis();
    }

    /** @throws DatabaseUnavailableException (503) when no connection comes within the timeout or the query breaks */
    @Override
    public Fetched fetch(@Nullable Query what, Duration delay, long giveUpAt) {
        if (what == null && delay.isZero()) {
            return new Fetched(true, null, Duration.ZERO);   // fails at once: nothing to wait for, nothing to read
        }
        Connection connection;
        try {
            connection = dataSource.getConnection();
        } catch (SQLException e) {
            throw acquireFailed(e);
        }
        try (connection) {
            long start = System.nanoTime();
            long left = giveUpAt - start;   // the wait for the connection counts against the caller's budget
            boolean inTime = delay.toNanos() - left <= 0;
            long sleepNanos = Math.max(0, Math.min(delay.toNanos(), left));
            // a server that stops answering (frozen, a dropped network) fails the read this long after the sleep
            // should have ended, instead of holding the request and the connection forever
            long readTimeoutMs = TimeUnit.NANOSECONDS.toMillis(sleepNanos) + connectionTimeoutMs;
            connection.setNetworkTimeout(Runnable::run, (int) Math.min(Integer.MAX_VALUE, readTimeoutMs));
            double sleepSeconds = sleepNanos / 1e9;
            byte[] body = inTime && what != null ? read(connection, what, sleepSeconds) : null;
            if ((!inTime || what == null) && sleepNanos > 0) {
                sleepOnly(connection, sleepSeconds);   // the caller's budget, or a failing request's tail
            }
            return new Fetched(inTime, body, Duration.ofNanos(System.nanoTime() - start));
        } catch (SQLException e) {
            throw queryFailed(e);
        }
    }

    private byte @Nullable [] read(Connection connection, Query what, double sleepSeconds) throws SQLException {
        return switch (what) {
            case Part part -> {
                try (PreparedStatement statement = connection.prepareStatement(PART)) {
                    statement.setDouble(1, sleepSeconds);
                    statement.setInt(2, part.slice().index());
                    statement.setInt(3, part.slice().count());
                    statement.setInt(4, part.slice().index());
                    statement.setInt(5, part.slice().count());
                    yield json.writeValueAsBytes(orders(statement));
                }
            }
            case Item item -> {
                try (PreparedStatement statement = connection.prepareStatement(ITEM)) {
                    statement.setDouble(1, sleepSeconds);
                    statement.setString(2, item.id());
                    ArrayNode found = orders(statement);
                    yield found.isEmpty() ? null : json.writeValueAsBytes(found.get(0));
                }
            }
        };
    }

    private static void sleepOnly(Connection connection, double sleepSeconds) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(WAIT)) {
            statement.setDouble(1, sleepSeconds);
            statement.execute();
        }
    }

    /** Folds the rows, one per order line in catalogue order, into orders shaped as catalogue.json's. */
    private ArrayNode orders(PreparedStatement statement) throws SQLException {
        List<OrderLines.Line> lines = new ArrayList<>();
        try (ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                String productId = rows.getString("product_id");
                lines.add(new OrderLines.Line(rows.getString("id"), rows.getString("account_id"),
                        rows.getString("status"), rows.getObject("placed_at", OffsetDateTime.class), productId,
                        productId == null ? null : rows.getInt("quantity")));
            }
        }
        return OrderLines.fold(json, lines);
    }

    /**
     * HikariCP's timeout names the last failure to connect as its cause while connecting fails; without one, every
     * connection was busy.
     */
    private RuntimeException acquireFailed(SQLException e) {
        if (e instanceof SQLTransientConnectionException && e.getCause() == null) {
            return DatabaseUnavailableException.poolExhausted(connectionTimeoutMs, poolSize, e);
        }
        return DatabaseUnavailableException.unreachable(connectionTimeoutMs, e);
    }

    /**
     * SQLSTATE class 08 (connection exception: reset, refused, our read timeout) and 57P (the server shut down or
     * is starting) are the database's failure; anything else is a defect of ours and a 500.
     */
    private static RuntimeException queryFailed(SQLException e) {
        String state = e.getSQLState();
        if (state != null && (state.startsWith("08") || state.startsWith("57P"))) {
            return DatabaseUnavailableException.broken(e);
        }
        return new IllegalStateException("the orders query failed", e);
    }
}
