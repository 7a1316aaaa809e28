package lab.fanout.common;

import java.util.List;

import org.apache.catalina.Valve;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import tools.jackson.databind.ObjectMapper;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Applies to every fan-out-lab service: the {@link Simulation} knobs bind from the query
 * ({@link SimulationArgumentResolver}); bad input, an unknown query parameter too ({@link KnownParameters}), becomes
 * 400 problem+json ({@link ProblemAdvice}), and so does every error that never reaches Spring MVC
 * ({@link ProblemErrorReportValve}, {@link AcceptHeaderFilter}); the knobs show at {@code /actuator/info}
 * ({@link KnobsInfoContributor}).
 */
@AutoConfiguration
@EnableConfigurationProperties(SimulationProperties.class)
@Import({KnobsInfoContributor.class, ServiceCommonAutoConfiguration.Servlet.class})
public class ServiceCommonAutoConfiguration {

    /**
     * Spring MVC's and Tomcat's part: every service but main-service under its {@code netty} profile (Spring WebFlux,
     * whose web layer is main-service's own).
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    @Import({ProblemAdvice.class, TomcatProblems.class})
    static class Servlet {

        @Bean
        AcceptHeaderFilter acceptHeaderFilter() {
            return new AcceptHeaderFilter();
        }

        /**
         * Custom resolvers come before Spring MVC's catch-all model-attribute binding, so this one binds Simulation.
         * {@link KnownParameters} refuses a query parameter the handler does not bind, before any argument is bound.
         */
        @Bean
        WebMvcConfigurer simulationBinding(SimulationProperties properties) {
            return new WebMvcConfigurer() {
                @Override
                public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
                    resolvers.add(new SimulationArgumentResolver(properties.requestKnobs()));
                }

                @Override
                public void addInterceptors(InterceptorRegistry registry) {
                    registry.addInterceptor(new KnownParameters());
                }
            };
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(TomcatServletWebServerFactory.class)
    static class TomcatProblems {

        /**
         * Replaces the host's error report valves (Tomcat's default, and the one Boot adds) with ours. Runs after
         * Boot's own Tomcat customizer (order 0), so that Boot's valve is already in the pipeline to be removed.
         */
        @Bean
        @Order(Ordered.LOWEST_PRECEDENCE)
        WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemErrorReportValve(ObjectMapper json) {
            return factory -> factory.addContextCustomizers(context -> {
                StandardHost host = (StandardHost) context.getParent();
                for (Valve valve : host.getPipeline().getValves()) {
                    if (valve instanceof ErrorReportValve) {
                        host.getPipeline().removeValve(valve);
                    }
                }
                host.getPipeline().addValve(new ProblemErrorReportValve(json));
                // StandardHost adds a valve of this class at start unless one is present: ours is
                host.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
            });
        }
    }
}
