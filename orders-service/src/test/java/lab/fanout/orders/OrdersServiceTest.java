package lab.fanout.orders;

import lab.fanout.downstream.contract.DownstreamServiceContract;

/** orders-service keeps the downstream contract at the seed demo's path. */
class OrdersServiceTest extends DownstreamServiceContract {

    OrdersServiceTest() {
        super("/order/api/v1/orders");
    }
}
