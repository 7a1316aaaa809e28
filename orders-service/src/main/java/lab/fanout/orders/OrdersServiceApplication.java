package lab.fanout.orders;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;

/**
 * The orders catalogue: the endpoint, the latency and the faults come from downstream-common; where the orders are
 * kept is {@code orders.store} ({@link lab.fanout.orders.store.OrdersProperties}). Boot's DataSource
 * auto-configuration is off: the default {@code memory} store has no database, and the {@code postgres} store builds
 * its own pool (lab.fanout.orders.store.PostgresStoreConfiguration).
 */
@SpringBootApplication(exclude = DataSourceAutoConfiguration.class)
@ConfigurationPropertiesScan
public class OrdersServiceApplication {

    public static void main(String[] args) {
        SpringApplication.run(OrdersServiceApplication.class, args);
    }
}
