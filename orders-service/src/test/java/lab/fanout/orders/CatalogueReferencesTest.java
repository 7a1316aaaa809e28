package lab.fanout.orders;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The three catalogues are one data set: every order references an account and products that accounts- and
 * products-service serve, so the backoffice join never shows a null for lack of data. The sibling catalogues are
 * read from their modules (tests run in orders-service/).
 */
class CatalogueReferencesTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final JsonNode orders = ordersCatalogue();
    private final JsonNode products = sibling("products-service");
    private final JsonNode accounts = sibling("accounts-service");

    @Test
    void everyOrderReferencesAnExistingAccount() {
        Set<String> accountIds = ids(accounts);

        assertThat(orders).allSatisfy(order ->
                assertThat(accountIds).as("account of " + order.get("id")).contains(order.get("accountId").asString()));
    }

    @Test
    void everyOrderLineReferencesAnExistingProductWithAPositiveQuantity() {
        Set<String> productIds = ids(products);

        assertThat(orders).allSatisfy(order -> {
            assertThat(order.get("items")).as("lines of " + order.get("id")).isNotEmpty();
            assertThat(order.get("items")).allSatisfy(item -> {
                assertThat(productIds).as("product in " + order.get("id")).contains(item.get("productId").asString());
                assertThat(item.get("quantity").asInt()).as("quantity in " + order.get("id")).isPositive();
            });
        });
    }

    @Test
    void idsAreUniqueInEveryCatalogue() {
        for (JsonNode catalogue : List.of(orders, products, accounts)) {
            List<String> ids = new ArrayList<>();
            catalogue.forEach(item -> ids.add(item.get("id").asString()));
            assertThat(ids).doesNotHaveDuplicates();
        }
    }

    private static Set<String> ids(JsonNode catalogue) {
        return catalogue.valueStream().map(item -> item.get("id").asString()).collect(Collectors.toSet());
    }

    private static JsonNode ordersCatalogue() {
        try (InputStream in = new ClassPathResource("catalogue.json").getInputStream()) {
            return JSON.readTree(in);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode sibling(String module) {
        return JSON.readTree(Path.of("..", module, "src", "main", "resources", "catalogue.json").toFile());
    }
}
