package lab.fanout.main.client;

import java.math.BigDecimal;
import java.util.List;

/** The downstream services' JSON, as main-service reads it. Unknown fields are ignored (Jackson's Boot default). */
public final class CatalogueJson {

    private CatalogueJson() {
    }

    public record Order(String id, String accountId, String status, String placedAt, List<Item> items) {
    }

    public record Item(String productId, int quantity) {
    }

    public record Product(String id, String sku, String name, Price price, boolean inStock) {
    }

    public record Price(BigDecimal amount, String currency) {
    }

    public record Account(String id, String name, String email, String country, String tier) {
    }
}
