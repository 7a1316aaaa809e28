package lab.fanout.common;

import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Reports spans to Zipkin only where {@code management.tracing.export.zipkin.endpoint} is set. Boot exports whenever
 * Zipkin's reporter is on the classpath, to {@code http://localhost:9411/api/v2/spans} by default, and a service that
 * samples with no Zipkin running then logs a failed report every second. Without an endpoint this turns the export
 * off ({@code management.tracing.export.zipkin.enabled=false}, at the lowest precedence, so that an explicit setting
 * still wins); propagation and the spans' MDC fields stay on.
 */
public class ZipkinExportSwitch implements EnvironmentPostProcessor {

    static final String ENDPOINT = "management.tracing.export.zipkin.endpoint";
    static final String ENABLED = "management.tracing.export.zipkin.enabled";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (!environment.containsProperty(ENDPOINT)) {
            environment.getPropertySources()
                    .addLast(new MapPropertySource("zipkinExportSwitch", Map.of(ENABLED, false)));
        }
    }
}
