package lab.fanout.orders.store;

import lab.fanout.downstream.contract.DownstreamServiceContract;

import org.springframework.test.context.TestPropertySource;

/**
 * The downstream contract, unchanged, with the orders in PostgreSQL (the embedded server orders-service starts
 * itself): the catalogue, its slices byte for byte, 404 and 400 problems, and the latency, now spent in the query.
 */
@TestPropertySource(properties = "orders.store=postgres")
class PostgresOrdersServiceTest extends DownstreamServiceContract {

    PostgresOrdersServiceTest() {
        super("/order/api/v1/orders");
    }
}
