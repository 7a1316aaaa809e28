package lab.fanout.main.strategy;

import java.util.List;
import java.util.Set;

import lab.fanout.main.client.CatalogueJson.Account;
import lab.fanout.main.client.CatalogueJson.Order;
import lab.fanout.main.client.CatalogueJson.Product;
import lab.fanout.main.client.Downstream;

/**
 * What the downstream calls of one request returned.
 *
 * @param missing the downstreams with a call that had not answered by the deadline ({@link OnDeadline#PARTIAL}; their
 *                catalogues hold only the slices that came, none at width 1); empty for a whole answer
 */
public record Fetched(List<Order> orders, List<Product> products, List<Account> accounts, Set<Downstream> missing) {

    /** A whole answer: nothing missing. */
    public Fetched(List<Order> orders, List<Product> products, List<Account> accounts) {
        this(orders, products, accounts, Set.of());
    }
}
