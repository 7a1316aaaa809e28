package lab.fanout.main.strategy;

import java.util.List;

import lab.fanout.main.client.CatalogueJson.Account;
import lab.fanout.main.client.CatalogueJson.Order;
import lab.fanout.main.client.CatalogueJson.Product;

/** What the three downstream calls of one request returned. */
public record Fetched(List<Order> orders, List<Product> products, List<Account> accounts) {
}
