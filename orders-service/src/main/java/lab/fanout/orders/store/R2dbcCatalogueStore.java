package lab.fanout.orders.store;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeoutException;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.PoolMetrics;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.R2dbcException;
import io.r2dbc.spi.R2dbcNonTransientResourceException;
import io.r2dbc.spi.R2dbcTimeoutException;
import io.r2dbc.spi.R2dbcTransientResourceException;
import io.r2dbc.spi.Statement;
import lab.fanout.downstream.NonBlockingCatalogueStore;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;

/**
 * The orders in PostgreSQL through R2DBC ({@code orders.store=r2dbc}): the same database, query and answer as
 * {@link PostgresCatalogueStore}, on PostgreSQL's non-blocking driver (r2dbc-postgresql, Reactor Netty underneath)
 * and r2dbc-pool. A request waits for one of the pool's connections ({@code orders.db.pool-size}, at most
 * {@code orders.db.connection-timeout}: r2dbc-pool's maximum acquire time), then holds it through one query that
 * sleeps inside the database ({@code pg_sleep}) and reads the orders; no thread waits meanwhile, neither for the
 * connection nor for the query (the catalogue endpoint releases the request's thread: {@link NonBlockingCatalogueStore}).
 * The pool binds as HikariCP does: N connections serve N requests at a time.
 * <p>
 * Metrics beside r2dbc-pool's own gauges (R2dbcStoreConfiguration), tag {@code pool="orders-db"}:
 * {@code r2dbc_pool_acquire_seconds} (the wait for a connection, also when it failed) and
 * {@code r2dbc_pool_timeout_total} (waits that ended in a 503 because every connection stayed busy).
 *
 * @see DatabaseUnavailableException for the 503s when the pool or the database fails
 */
final class R2dbcCatalogueStore implements NonBlockingCatalogueStore {

    private static final String PART = OrderLines.numbered(OrderLines.PART);
    private static final String ITEM = OrderLines.numbered(OrderLines.ITEM);
    private static final String WAIT = OrderLines.numbered(OrderLines.WAIT);

    private final ConnectionPool pool;
    private final ObjectMapper json;
    private final int poolSize;
    private final Duration connectionTimeout;
    private final Timer acquire;
    private final Counter timeouts;

    /**
     * @param pool              the pool; its maximum acquire time must be {@code connectionTimeout}
     * @param poolSize          the pool's size, named in the pool-exhausted problem
     * @param connectionTimeout also how long past its sleep a query may take before it is given up (503)
     * @param registry          where the acquire timer and the timeout counter go
     */
    R2dbcCatalogueStore(ConnectionPool pool, ObjectMapper json, int poolSize, Duration connectionTimeout,
                        MeterRegistry registry) {
        this.pool = pool;
        this.json = json;
        this.poolSize = poolSize;
        this.connectionTimeout = connectionTimeout;
        this.acquire = Timer.builder("r2dbc.pool.acquire").tag("pool", R2dbcStoreConfiguration.POOL_NAME)
                .description("The wait for one of the R2DBC pool's connections, also when none came")
                .register(registry);
        this.timeouts = Counter.builder("r2dbc.pool.timeout").tag("pool", R2dbcStoreConfiguration.POOL_NAME)
                .description("Waits for an R2DBC connection that ended in a 503: every connection stayed busy")
                .register(registry);
    }

    /**
     * @return a stage that fails with {@link DatabaseUnavailableException} (503) when no connection comes within the
     *         timeout or the query breaks or overruns its sleep by the timeout
     */
    @Override
    public CompletionStage<Fetched> fetchLater(@Nullable Query what, Duration delay, long giveUpAt) {
        if (what == null && delay.isZero()) {
            // fails at once: nothing to wait for, nothing to read
            return CompletableFuture.completedFuture(new Fetched(true, null, Duration.ZERO));
        }
        return Mono.usingWhen(acquire(), connection -> query(connection, what, delay, giveUpAt), Connection::close,
                        (connection, error) -> connection.close(), Connection::close)
                .onErrorMap(e -> !(e instanceof DatabaseUnavailableException), R2dbcCatalogueStore::queryFailed)
                .toFuture();
    }

    private Mono<Connection> acquire() {
        return Mono.defer(() -> {
            long start = System.nanoTime();
            return Mono.from(pool.create())
                    .doOnEach(signal -> {
                        if (signal.isOnNext() || signal.isOnError()) {
                            acquire.record(Duration.ofNanos(System.nanoTime() - start));
                        }
                    })
                    .onErrorMap(this::acquireFailed);
        });
    }

    private Mono<Fetched> query(Connection connection, @Nullable Query what, Duration delay, long giveUpAt) {
        long start = System.nanoTime();
        long left = giveUpAt - start;   // the wait for the connection counts against the caller's budget
        boolean inTime = delay.toNanos() - left <= 0;
        long sleepNanos = Math.max(0, Math.min(delay.toNanos(), left));
        double sleepSeconds = sleepNanos / 1e9;
        Mono<Optional<byte[]>> body;
        if (inTime && what != null) {
            body = read(connection, what, sleepSeconds);
        } else if (sleepNanos > 0) {   // the caller's budget, or a failing request's tail
            body = Flux.from(connection.createStatement(WAIT).bind(0, sleepSeconds).execute())
                    .concatMap(result -> result.getRowsUpdated()).then(Mono.just(Optional.empty()));
        } else {
            body = Mono.just(Optional.empty());
        }
        // a server that stops answering (frozen, a dropped network) fails the query this long after the sleep
        // should have ended, instead of holding the request and the connection forever
        Duration readTimeout = Duration.ofNanos(sleepNanos).plus(connectionTimeout);
        return body.timeout(readTimeout)
                .map(read -> new Fetched(inTime, read.orElse(null), Duration.ofNanos(System.nanoTime() - start)));
    }

    private Mono<Optional<byte[]>> read(Connection connection, Query what, double sleepSeconds) {
        return switch (what) {
            case Part part -> {
                int index = part.slice().index();
                int count = part.slice().count();
                Statement statement = connection.createStatement(PART).bind(0, sleepSeconds)
                        .bind(1, index).bind(2, count).bind(3, index).bind(4, count);
                yield orders(statement).map(found -> Optional.of(json.writeValueAsBytes(found)));
            }
            case Item item -> {
                Statement statement = connection.createStatement(ITEM).bind(0, sleepSeconds).bind(1, item.id());
                yield orders(statement).map(found -> found.isEmpty() ? Optional.<byte[]>empty()
                        : Optional.of(json.writeValueAsBytes(found.get(0))));
            }
        };
    }

    /** Reads the rows, one per order line in catalogue order, and folds them as the JDBC store does. */
    private Mono<ArrayNode> orders(Statement statement) {
        return Flux.from(statement.execute())
                .concatMap(result -> result.map((row, metadata) -> new OrderLines.Line(
                        row.get("id", String.class), row.get("account_id", String.class),
                        row.get("status", String.class), row.get("placed_at", OffsetDateTime.class),
                        row.get("product_id", String.class), row.get("quantity", Integer.class))))
                .collectList()
                .map(lines -> OrderLines.fold(json, lines));
    }

    /**
     * r2dbc-pool's acquire timeout says nothing of why no connection came: the pool's own counts do. Every
     * connection handed out means a busy pool; fewer means connecting failed (the database is away).
     */
    private Throwable acquireFailed(Throwable e) {
        long timeoutMs = connectionTimeout.toMillis();
        if (e instanceof R2dbcTimeoutException) {
            PoolMetrics metrics = pool.getMetrics().orElse(null);
            if (metrics != null && metrics.acquiredSize() >= metrics.getMaxAllocatedSize()) {
                timeouts.increment();
                return DatabaseUnavailableException.poolExhausted(timeoutMs, poolSize, e);
            }
        }
        return DatabaseUnavailableException.unreachable(timeoutMs, e);
    }

    /**
     * The driver's resource exceptions (the connection closed, reset or refused), SQLSTATE class 08 and 57P (the
     * server shut down or is starting), and our read timeout are the database's failure; anything else is a defect
     * of ours and a 500.
     */
    private static Throwable queryFailed(Throwable e) {
        if (e instanceof TimeoutException || e instanceof R2dbcNonTransientResourceException
                || e instanceof R2dbcTransientResourceException) {
            return DatabaseUnavailableException.broken(e);
        }
        if (e instanceof R2dbcException r2dbc) {
            String state = r2dbc.getSqlState();
            if (state != null && (state.startsWith("08") || state.startsWith("57P"))) {
                return DatabaseUnavailableException.broken(e);
            }
        }
        return new IllegalStateException("the orders query failed", e);
    }
}
