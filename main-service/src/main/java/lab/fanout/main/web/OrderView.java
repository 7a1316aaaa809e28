package lab.fanout.main.web;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import lab.fanout.main.client.CatalogueJson.Account;
import lab.fanout.main.client.CatalogueJson.Order;
import lab.fanout.main.client.CatalogueJson.Price;
import lab.fanout.main.client.CatalogueJson.Product;
import lab.fanout.main.strategy.Fetched;

import org.jspecify.annotations.Nullable;

/**
 * One order joined with its account and products: the backoffice's answer. A reference the catalogues cannot
 * resolve stays visible as a null account or product, never dropped. So does a catalogue missing at the deadline under
 * {@code onDeadline=partial} ({@link Backoffice#MISSING_HEADER} names it).
 *
 * @param total sum of price x quantity over the items whose product is known, per currency (ISO 4217 code to
 *              amount, in the order the currencies first appear): prices in different currencies are never added
 */
public record OrderView(String id, String status, String placedAt, @Nullable Account account, List<Line> items,
                        Map<String, BigDecimal> total) {

    public record Line(String productId, @Nullable Product product, int quantity) {
    }

    /** @return every order, in the orders catalogue's order, joined by id with the other two catalogues */
    static List<OrderView> join(Fetched fetched) {
        Map<String, Product> products = byId(fetched.products(), Product::id);
        Map<String, Account> accounts = byId(fetched.accounts(), Account::id);
        return fetched.orders().stream().map(order -> view(order, products, accounts)).toList();
    }

    private static OrderView view(Order order, Map<String, Product> products, Map<String, Account> accounts) {
        List<Line> lines = order.items().stream()
                .map(item -> new Line(item.productId(), products.get(item.productId()), item.quantity()))
                .toList();
        Map<String, BigDecimal> total = new LinkedHashMap<>();
        for (Line line : lines) {
            if (line.product() != null) {
                Price price = line.product().price();
                total.merge(price.currency(), price.amount().multiply(BigDecimal.valueOf(line.quantity())),
                        BigDecimal::add);
            }
        }
        return new OrderView(order.id(), order.status(), order.placedAt(), accounts.get(order.accountId()), lines, total);
    }

    private static <T> Map<String, T> byId(List<T> items, Function<T, String> id) {
        return items.stream().collect(Collectors.toMap(id, Function.identity(), (first, second) -> first));
    }
}
