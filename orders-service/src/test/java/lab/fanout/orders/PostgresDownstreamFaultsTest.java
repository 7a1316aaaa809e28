package lab.fanout.orders;

import org.springframework.test.context.TestPropertySource;

/**
 * Every fault, and the abandoned and late counters, behave the same with the orders in PostgreSQL: an injected error
 * or close fails at once without a connection, a tail sleeps in the database, a caller's budget cuts the query's
 * sleep short, a dribble happens after the read.
 */
@TestPropertySource(properties = "orders.store=postgres")
class PostgresDownstreamFaultsTest extends DownstreamFaultsTest {
}
