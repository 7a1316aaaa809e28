package lab.fanout.main.admission;

import java.util.LinkedHashMap;

import io.micrometer.core.instrument.MeterRegistry;
import lab.fanout.main.config.AdmissionProperties;

import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Admission control on the fan-out API ({@code /backoffice/api/*}), and open connections capped by the heap; the
 * probes ({@code /livez}, {@code /readyz}) and the management port are never limited, so that an overloaded
 * main-service still reports itself alive. The limit ({@link Admission}) and its refusal ({@link Refusal}) are here,
 * server-free; each server's adapter applies them: {@code server.servlet.ServletAdmissionConfig} on Spring MVC and
 * Tomcat, {@code server.reactive.ReactiveAdmissionConfig} on WebFlux and Reactor Netty.
 */
@Configuration(proxyBeanMethods = false)
class AdmissionConfig {

    @Bean
    Admission admission(AdmissionProperties properties, MeterRegistry meters) {
        return new Admission(properties, Runtime.getRuntime().maxMemory(), meters, System::nanoTime);
    }

    @Bean
    InfoContributor admissionInfo(Admission admission, AdmissionProperties properties) {
        return builder -> {
            var info = new LinkedHashMap<>(admission.info());
            info.put("connectionCeiling", properties.connectionCeiling(Runtime.getRuntime().maxMemory()));
            builder.withDetail("admission", info);
        };
    }
}
