package lab.fanout.main;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The backoffice aggregator: {@code GET /backoffice/api/v1/backoffice/orders?concurrency=<strategy>}. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class MainServiceApplication {

    public static void main(String[] args) {
        SpringApplication.run(MainServiceApplication.class, args);
    }
}
