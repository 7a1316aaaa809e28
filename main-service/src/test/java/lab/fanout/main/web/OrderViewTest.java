package lab.fanout.main.web;

import java.math.BigDecimal;
import java.util.List;

import lab.fanout.main.client.CatalogueJson.Account;
import lab.fanout.main.client.CatalogueJson.Item;
import lab.fanout.main.client.CatalogueJson.Order;
import lab.fanout.main.client.CatalogueJson.Price;
import lab.fanout.main.client.CatalogueJson.Product;
import lab.fanout.main.strategy.Fetched;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class OrderViewTest {

    private static final Account ASTER = new Account("acc-1", "Aster", "a@aster.example", "DE", "gold");
    private static final Product CHAIR = new Product("prd-1", "C-1", "Chair", new Price(new BigDecimal("189.50"), "EUR"), true);
    private static final Product DESK = new Product("prd-2", "D-2", "Desk", new Price(new BigDecimal("429.00"), "EUR"), true);

    @Test
    void joinsOrdersWithAccountAndProductsInOrderCatalogueOrderAndTotalsPriceTimesQuantity() {
        List<Order> orders = List.of(
                new Order("ord-2", "acc-1", "PLACED", "2026-10-02T00:00:00Z", List.of(new Item("prd-2", 1))),
                new Order("ord-1", "acc-1", "SHIPPED", "2026-10-01T00:00:00Z",
                        List.of(new Item("prd-1", 2), new Item("prd-2", 3))));

        List<OrderView> views = OrderView.join(new Fetched(orders, List.of(CHAIR, DESK), List.of(ASTER)));

        assertThat(views).extracting(OrderView::id).containsExactly("ord-2", "ord-1");
        OrderView second = views.get(1);
        assertThat(second.account()).isEqualTo(ASTER);
        assertThat(second.items()).containsExactly(new OrderView.Line("prd-1", CHAIR, 2), new OrderView.Line("prd-2", DESK, 3));
        assertThat(second.total()).containsOnlyKeys("EUR");
        assertThat(second.total().get("EUR")).isEqualByComparingTo("1666.00");   // 2 x 189.50 + 3 x 429.00
    }

    @Test
    void keepsAnUnresolvedReferenceVisibleAsNullAndLeavesItOutOfTheTotal() {
        List<Order> orders = List.of(new Order("ord-1", "acc-404", "PLACED", "2026-10-01T00:00:00Z",
                List.of(new Item("prd-1", 1), new Item("prd-404", 5))));

        OrderView view = OrderView.join(new Fetched(orders, List.of(CHAIR), List.of(ASTER))).getFirst();

        assertThat(view.account()).isNull();
        assertThat(view.items()).containsExactly(new OrderView.Line("prd-1", CHAIR, 1), new OrderView.Line("prd-404", null, 5));
        assertThat(view.total()).containsOnlyKeys("EUR");
        assertThat(view.total().get("EUR")).isEqualByComparingTo("189.50");
    }

    /** gh-15 item 12: a total that added euros to dollars was a number in no currency. */
    @Test
    void totalsEachCurrencyApart() {
        Product lamp = new Product("prd-3", "L-3", "Lamp", new Price(new BigDecimal("20.00"), "USD"), true);
        List<Order> orders = List.of(new Order("ord-1", "acc-1", "PLACED", "2026-10-01T00:00:00Z",
                List.of(new Item("prd-1", 1), new Item("prd-3", 2), new Item("prd-2", 1))));

        OrderView view = OrderView.join(new Fetched(orders, List.of(CHAIR, DESK, lamp), List.of(ASTER))).getFirst();

        assertThat(view.total()).containsOnlyKeys("EUR", "USD");
        assertThat(view.total().get("EUR")).isEqualByComparingTo("618.50");
        assertThat(view.total().get("USD")).isEqualByComparingTo("40.00");
    }
}
