package lab.fanout.orders.store;

import lab.fanout.downstream.contract.DownstreamServiceContract;

import org.springframework.test.context.TestPropertySource;

/**
 * The downstream contract, unchanged, with the orders read through R2DBC (the embedded server orders-service starts
 * itself): the catalogue, its slices byte for byte, 404 and 400 problems, and the latency, spent in the query while
 * no thread waits.
 */
@TestPropertySource(properties = "orders.store=r2dbc")
class R2dbcOrdersServiceTest extends DownstreamServiceContract {

    R2dbcOrdersServiceTest() {
        super("/order/api/v1/orders");
    }
}
