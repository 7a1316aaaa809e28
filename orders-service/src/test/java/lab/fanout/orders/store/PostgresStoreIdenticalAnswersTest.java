package lab.fanout.orders.store;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

import lab.fanout.common.Slice;
import lab.fanout.orders.OrdersServiceApplication;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.ClassPathResource;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The three stores answer the same bytes to the same request, so that main-service's join, and every figure measured
 * with the memory store, mean the same with the database stores: this test's context runs the postgres store (JDBC,
 * its embedded server), and starts two more orders-services beside it, one with the default memory store and one
 * with the r2dbc store (an embedded server of its own); every request shape (the whole catalogue, every slice of
 * every width main-service uses, every id, an unknown id) goes to all three.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestPropertySource(properties = "orders.store=postgres")   // as PostgresOrdersServiceTest: one context for both
class PostgresStoreIdenticalAnswersTest {

    private static final String PATH = "/order/api/v1/orders";
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private static ConfigurableApplicationContext memoryStore;
    private static ConfigurableApplicationContext r2dbcStore;

    @LocalServerPort
    int postgresPort;

    @BeforeAll
    static void startTheMemoryStore() {
        memoryStore = new SpringApplicationBuilder(OrdersServiceApplication.class)
                .run("--server.port=0", "--management.server.port=0");
        r2dbcStore = new SpringApplicationBuilder(OrdersServiceApplication.class)
                .run("--server.port=0", "--management.server.port=0", "--orders.store=r2dbc");
    }

    @AfterAll
    static void stopTheMemoryStore() {
        memoryStore.close();
        r2dbcStore.close();
    }

    @Test
    void theMemoryAndR2dbcStoresAreWhatTheySayTheyAre() {
        assertThat(memoryStore.getEnvironment().getProperty("orders.store")).isNull();   // the default: memory
        assertThat(memoryStore.getBeanNamesForType(javax.sql.DataSource.class)).isEmpty();
        assertThat(r2dbcStore.getBean(lab.fanout.downstream.CatalogueStore.class))
                .isInstanceOf(R2dbcCatalogueStore.class);
    }

    @Test
    void answerTheWholeCatalogueAndEverySliceWithTheSameBytes() throws Exception {
        List<String> queries = new ArrayList<>();
        queries.add("");
        for (int count = 1; count <= Slice.MAX_COUNT; count++) {
            for (int index = 0; index < count; index++) {
                queries.add("&slice=" + index + "&slices=" + count);
            }
        }
        for (String query : queries) {
            assertSameAnswer(PATH + "?latencyMs=0" + query);
        }
    }

    @Test
    void answerEveryOrderAndAnUnknownIdWithTheSameBytes() throws Exception {
        JsonNode catalogue;
        try (var in = new ClassPathResource("catalogue.json").getInputStream()) {
            catalogue = JsonMapper.builder().build().readTree(in);
        }
        assertThat(catalogue.size()).isEqualTo(12);
        for (JsonNode order : catalogue) {
            assertSameAnswer(PATH + "/" + order.get("id").asString() + "?latencyMs=0");
        }
        assertSameAnswer(PATH + "/no-such-order?latencyMs=0");
    }

    private void assertSameAnswer(String pathAndQuery) throws IOException, InterruptedException {
        HttpResponse<byte[]> memory = get(memoryStore.getEnvironment().getRequiredProperty("local.server.port",
                Integer.class), pathAndQuery);
        HttpResponse<byte[]> postgres = get(postgresPort, pathAndQuery);
        HttpResponse<byte[]> r2dbc = get(r2dbcStore.getEnvironment().getRequiredProperty("local.server.port",
                Integer.class), pathAndQuery);

        assertThat(postgres.statusCode()).as(pathAndQuery).isEqualTo(memory.statusCode());
        assertThat(postgres.headers().firstValue("Content-Type")).as(pathAndQuery)
                .isEqualTo(memory.headers().firstValue("Content-Type"));
        assertThat(new String(postgres.body())).as(pathAndQuery).isEqualTo(new String(memory.body()));
        assertThat(postgres.body()).as(pathAndQuery).isEqualTo(memory.body());

        assertThat(r2dbc.statusCode()).as("r2dbc " + pathAndQuery).isEqualTo(memory.statusCode());
        assertThat(r2dbc.headers().firstValue("Content-Type")).as("r2dbc " + pathAndQuery)
                .isEqualTo(memory.headers().firstValue("Content-Type"));
        assertThat(new String(r2dbc.body())).as("r2dbc " + pathAndQuery).isEqualTo(new String(memory.body()));
        assertThat(r2dbc.body()).as("r2dbc " + pathAndQuery).isEqualTo(memory.body());
    }

    private static HttpResponse<byte[]> get(int port, String pathAndQuery) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + pathAndQuery)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }
}
