package lab.fanout.orders.store;

import java.net.URI;

import lab.fanout.common.Problems;

import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/**
 * 503 problem+json: the {@code postgres} store could not read. Two types, so that a benchmark can tell a saturated
 * pool from a broken database: {@link #POOL_EXHAUSTED} (every connection stayed busy for the connection timeout)
 * and {@link #UNAVAILABLE} (the database could not be reached, or the connection broke during the query).
 */
final class DatabaseUnavailableException extends ErrorResponseException {

    static final URI POOL_EXHAUSTED = Problems.type("database-pool-exhausted");
    static final URI UNAVAILABLE = Problems.type("database-unavailable");

    private DatabaseUnavailableException(URI type, String title, String detail, Throwable cause) {
        super(HttpStatus.SERVICE_UNAVAILABLE, Problems.of(HttpStatus.SERVICE_UNAVAILABLE, type, title, detail), cause);
    }

    /** @param timeoutMs the pool's connection timeout, ms; @param poolSize its connections */
    static DatabaseUnavailableException poolExhausted(long timeoutMs, int poolSize, Throwable cause) {
        return new DatabaseUnavailableException(POOL_EXHAUSTED, "Database pool exhausted", "All " + poolSize
                + " database connections stayed busy for " + timeoutMs + " ms (orders.db.pool-size,"
                + " orders.db.connection-timeout).", cause);
    }

    /** @param timeoutMs the pool's connection timeout, ms */
    static DatabaseUnavailableException unreachable(long timeoutMs, Throwable cause) {
        return new DatabaseUnavailableException(UNAVAILABLE, "Database unavailable",
                "The orders database could not be reached within " + timeoutMs + " ms.", cause);
    }

    static DatabaseUnavailableException broken(Throwable cause) {
        return new DatabaseUnavailableException(UNAVAILABLE, "Database unavailable",
                "The connection to the orders database broke during the query.", cause);
    }
}
