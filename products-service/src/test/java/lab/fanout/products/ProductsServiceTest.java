package lab.fanout.products;

import lab.fanout.downstream.contract.DownstreamServiceContract;

/** products-service keeps the downstream contract at the seed demo's path. */
class ProductsServiceTest extends DownstreamServiceContract {

    ProductsServiceTest() {
        super("/product/api/v1/products");
    }
}
