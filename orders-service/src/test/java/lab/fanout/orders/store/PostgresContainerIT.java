package lab.fanout.orders.store;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import lab.fanout.common.Slice;
import lab.fanout.orders.OrdersServiceApplication;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.postgresql.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.ClassPathResource;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The postgres store on a real PostgreSQL server in a container: the image the project builds from Debian's
 * {@code postgresql} package on its offline base image (docker/postgres, {@code fanout-lab/postgres:15}, built here by
 * {@code scripts/build-images.sh --postgres --no-services}), run by Testcontainers' PostgreSQL module as a substitute
 * for the official {@code postgres} image. orders-service reaches it as an external server: {@code orders.db.url}
 * from the container, the user and password from the environment variables {@code ORDERS_DB_USERNAME} and
 * {@code ORDERS_DB_PASSWORD} (the pom's failsafe configuration sets them, as k8s/components/postgres does from its
 * Secret), and the server refuses a client without the password.
 * <p>
 * The answers are the memory store's, byte for byte; a pool of two held by two slow requests answers the third 503
 * {@code database-pool-exhausted} after the connection timeout. Needs a Docker engine: skipped without one
 * ({@code disabledWithoutDocker}); {@link DockerOnCiIT} makes that skip a failure under CI=true.
 * <p>
 * This class runs the JDBC store ({@code postgres}, HikariCP); {@link R2dbcContainerIT} runs the same tests on the
 * {@code r2dbc} store, each with a container of its own, through the driver's hooks at the end. The context is
 * closed with its class, before the next class's container starts: no pool outlives its server.
 */
@Testcontainers(disabledWithoutDocker = true)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "orders.store=postgres", "orders.db.pool-size=2", "orders.db.connection-timeout=1s"})
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class PostgresContainerIT {

    static final String POOL = "orders-db";
    static final DockerImageName IMAGE = DockerImageName.parse("fanout-lab/postgres:15")
            .asCompatibleSubstituteFor("postgres");
    private static final String PATH = "/order/api/v1/orders";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    static PostgreSQLContainer database;
    private static ConfigurableApplicationContext memoryStore;

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Autowired
    ApplicationContext context;

    @Autowired
    MeterRegistry registry;

    /** Builds the image (seconds when Docker's layer cache has it), starts it, and gives its URL to orders-service. */
    @DynamicPropertySource
    static void database(DynamicPropertyRegistry properties) {
        String username = requiredVariable(OrdersDatabase.USERNAME_VARIABLE);
        String password = requiredVariable(OrdersDatabase.PASSWORD_VARIABLE);
        buildTheImage();
        database = new PostgreSQLContainer(IMAGE).withImagePullPolicy(image -> false)
                .withDatabaseName("orders").withUsername(username).withPassword(password);
        database.start();
        properties.add("orders.db.url", database::getJdbcUrl);
    }

    /** The reference: an orders-service with the default memory store, beside the one under test. */
    @BeforeAll
    static void startTheMemoryStore() {
        memoryStore = new SpringApplicationBuilder(OrdersServiceApplication.class)
                .run("--server.port=0", "--management.server.port=0");
    }

    @AfterAll
    static void stop() {
        if (memoryStore != null) {
            memoryStore.close();
        }
        if (database != null) {
            database.stop();
        }
    }

    @Test
    void theServerIsDebiansPostgresqlInTheContainerAndWantsThePassword() throws Exception {
        assertTheStoreReadsTheContainersServerAsTheUser(System.getenv(OrdersDatabase.USERNAME_VARIABLE));
        assertTheDriverIsRefusedAWrongPassword();
    }

    @Test
    void answersTheMemoryStoresBytesForTheCatalogueEverySliceAndEveryOrder() throws Exception {
        List<String> queries = new ArrayList<>();
        queries.add(PATH + "?latencyMs=0");
        for (int count = 1; count <= Slice.MAX_COUNT; count++) {
            for (int index = 0; index < count; index++) {
                queries.add(PATH + "?latencyMs=0&slice=" + index + "&slices=" + count);
            }
        }
        JsonNode catalogue;
        try (var in = new ClassPathResource("catalogue.json").getInputStream()) {
            catalogue = JSON.readTree(in);
        }
        catalogue.forEach(order -> queries.add(PATH + "/" + order.get("id").asString() + "?latencyMs=0"));
        queries.add(PATH + "/no-such-order?latencyMs=0");

        int memoryPort = memoryStore.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
        for (String query : queries) {
            HttpResponse<byte[]> memory = get(memoryPort, query);
            HttpResponse<byte[]> postgres = get(port, query);
            assertThat(postgres.statusCode()).as(query).isEqualTo(memory.statusCode());
            assertThat(postgres.headers().firstValue("Content-Type")).as(query)
                    .isEqualTo(memory.headers().firstValue("Content-Type"));
            assertThat(postgres.body()).as(query).isEqualTo(memory.body());
        }
        assertThat(queries).hasSizeGreaterThan(500);
    }

    @Test
    void aRequestThatGetsNoConnectionWithinTheTimeoutIs503PoolExhausted() throws Exception {
        PoolExhaustion.assertThirdRequestIs503(port,
                () -> (int) registry.get(activeGauge()).tag("pool", POOL).gauge().value());
    }

    @Test
    void showsAnExternalServerAtActuatorInfo() throws Exception {
        JsonNode info = JSON.readTree(get(managementPort, "/actuator/info").body());
        assertThat(info.get("knobs").get("orders").get("store").asString()).isEqualTo(store());
        assertThat(info.get("ordersDatabase").get("server").asString()).isEqualTo("external");
        assertThat(info.get("ordersDatabase").get("maximumPoolSize").asInt()).isEqualTo(2);
        assertThat(info.get("ordersDatabase").path("driver").asString("jdbc")).isEqualTo(driver());
        assertThat(info.toString()).doesNotContain(database.getPassword());
    }

    // The driver's hooks: the JDBC store's (HikariCP) here, the r2dbc store's in R2dbcContainerIT.

    /** @return {@code orders.store} as /actuator/info shows it */
    String store() {
        return "postgres";
    }

    /** @return {@code ordersDatabase.driver} at /actuator/info ("jdbc" where it says none, as the JDBC store) */
    String driver() {
        return "jdbc";
    }

    /** @return the Micrometer gauge of the connections in use, tagged {@code pool="orders-db"} */
    String activeGauge() {
        return "hikaricp.connections.active";
    }

    /** The store's own pool reaches the container's server (Debian's build) with the URL and user given. */
    void assertTheStoreReadsTheContainersServerAsTheUser(String username) throws SQLException {
        HikariDataSource pool = context.getBean(HikariDataSource.class);
        try (Connection connection = pool.getConnection()) {
            assertThat(connection.getMetaData().getDatabaseProductVersion()).as("server version").contains("Debian");
            assertThat(connection.getMetaData().getURL()).isEqualTo(database.getJdbcUrl());
            assertThat(connection.getMetaData().getUserName()).isEqualTo(username);
        }
        assertThat(pool.getUsername()).isEqualTo(username);
    }

    /** The driver the store runs (here pgjdbc), given the right user and a wrong password, gets no connection. */
    void assertTheDriverIsRefusedAWrongPassword() {
        assertThatThrownBy(() -> DriverManager.getConnection(database.getJdbcUrl(), database.getUsername(), "wrong"))
                .hasMessageContaining("password authentication failed");
    }

    private static String requiredVariable(String name) {
        String value = System.getenv(name);
        assertThat(value).as("environment variable %s (orders-service's pom sets it for failsafe)", name)
                .isNotBlank();
        return value;
    }

    private static void buildTheImage() {
        Path root = Path.of(System.getProperty("fanout.root", "..")).toAbsolutePath().normalize();
        ProcessBuilder build = new ProcessBuilder("bash", "scripts/build-images.sh", "--postgres", "--no-services")
                .directory(root.toFile()).redirectErrorStream(true);
        try {
            Process process = build.start();
            process.getOutputStream().close();
            String output = new String(process.getInputStream().readAllBytes());
            if (!process.waitFor(10, TimeUnit.MINUTES) || process.exitValue() != 0) {
                throw new AssertionError("scripts/build-images.sh --postgres --no-services failed:\n" + output);
            }
        } catch (IOException e) {
            throw new AssertionError("bash is needed to build " + IMAGE, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static HttpRequest request(int port, String pathAndQuery) {
        return HttpRequest.newBuilder(URI.create("http://localhost:" + port + pathAndQuery))
                .timeout(Duration.ofSeconds(30)).build();
    }

    private static HttpResponse<byte[]> get(int port, String pathAndQuery) throws IOException, InterruptedException {
        return HTTP.send(request(port, pathAndQuery), HttpResponse.BodyHandlers.ofByteArray());
    }
}
