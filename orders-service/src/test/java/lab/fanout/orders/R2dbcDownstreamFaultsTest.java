package lab.fanout.orders;

import org.springframework.test.context.TestPropertySource;

/**
 * Every fault, and the abandoned and late counters, behave the same with the orders read through R2DBC, whose
 * answers are written after the request's thread was released: an injected error or close fails at once without a
 * connection, a tail sleeps in the database, a caller's budget cuts the query's sleep short, a dribble happens after
 * the read, a caller that left is seen and counted.
 */
@TestPropertySource(properties = "orders.store=r2dbc")
class R2dbcDownstreamFaultsTest extends DownstreamFaultsTest {
}
