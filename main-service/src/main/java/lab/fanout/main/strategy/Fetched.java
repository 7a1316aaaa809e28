package lab.fanout.main.strategy;

import java.util.List;

import lab.fanout.main.client.Catalogue.Account;
import lab.fanout.main.client.Catalogue.Order;
import lab.fanout.main.client.Catalogue.Product;

/** What the three downstream calls of one request returned. */
public record Fetched(List<Order> orders, List<Product> products, List<Account> accounts) {
}
