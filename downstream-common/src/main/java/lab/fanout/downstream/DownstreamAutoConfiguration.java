package lab.fanout.downstream;

import java.io.IOException;

import io.micrometer.core.instrument.MeterRegistry;
import tools.jackson.databind.ObjectMapper;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/** Turns a Boot application with a {@code catalogue.json} and a {@code downstream.resource} into a downstream service. */
@AutoConfiguration
@EnableConfigurationProperties(DownstreamProperties.class)
@Import({CatalogueController.class, DownstreamMetrics.class})
public class DownstreamAutoConfiguration {

    @Bean
    SerializedCatalogue catalogue(ObjectMapper json) throws IOException {
        return new SerializedCatalogue(json);
    }

    /** The catalogue in memory, unless the service declares a store of its own. */
    @Bean
    @ConditionalOnMissingBean
    CatalogueStore catalogueStore(SerializedCatalogue catalogue) {
        return new MemoryCatalogueStore(catalogue);
    }

    @Bean
    AbandonedAndLateMeters callerMeters(MeterRegistry registry) {
        return new AbandonedAndLateMeters(registry);
    }

    /** Lets the catalogue see whether its caller is still there, and close a connection without answering. */
    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> connectionControlValve() {
        return factory -> factory.addContextValves(new ConnectionControlValve());
    }
}
