package lab.fanout.main.server.servlet;

import java.time.Duration;

import lab.fanout.main.config.FanoutProperties;

import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.AsyncSupportConfigurer;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The reactive strategy answers from an async dispatch, which Tomcat ends after its own async timeout (30 s) with
 * Spring MVC's generic 503, whatever {@code fanout.deadline} says: the footprint preset (deadline 150 s) saw half of
 * reactive's requests at 10,000 clients end so. The async timeout is therefore the deadline plus {@link #MARGIN}, so
 * that the deadline's own 504 problem comes first.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
public class AsyncTimeoutConfig implements WebMvcConfigurer {

    /** How long the async timeout outlasts the deadline. */
    public static final Duration MARGIN = Duration.ofSeconds(5);

    private final Duration deadline;

    AsyncTimeoutConfig(FanoutProperties properties) {
        this.deadline = properties.deadline();
    }

    @Override
    public void configureAsyncSupport(AsyncSupportConfigurer configurer) {
        configurer.setDefaultTimeout(deadline.plus(MARGIN).toMillis());
    }
}
