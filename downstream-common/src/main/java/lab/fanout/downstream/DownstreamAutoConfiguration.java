package lab.fanout.downstream;

import java.io.IOException;

import tools.jackson.databind.ObjectMapper;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/** Turns a Boot application with a {@code catalogue.json} and a {@code downstream.resource} into a downstream service. */
@AutoConfiguration
@EnableConfigurationProperties(DownstreamProperties.class)
@Import({CatalogueController.class, DownstreamMetrics.class})
public class DownstreamAutoConfiguration {

    @Bean
    Catalogue catalogue(ObjectMapper json) throws IOException {
        return new Catalogue(json);
    }
}
