package lab.fanout.main.server.reactive;

import lab.fanout.common.RequestKnobsDisabledException;
import lab.fanout.common.Simulation;
import org.junit.jupiter.api.Test;

import org.springframework.core.MethodParameter;
import org.springframework.format.support.DefaultFormattingConversionService;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.validation.beanvalidation.LocalValidatorFactoryBean;
import org.springframework.web.bind.support.ConfigurableWebBindingInitializer;
import org.springframework.web.bind.support.WebExchangeBindException;
import org.springframework.web.reactive.BindingContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The netty profile's Simulation binding: the same answers as Spring MVC's (service-common's resolver test). */
class ReactiveSimulationArgumentResolverTest {

    private final ReactiveSimulationArgumentResolver resolver = new ReactiveSimulationArgumentResolver(true);

    @Test
    void noKnobGivenIsNoneWithoutBinding() {
        assertThat(resolve(resolver, "/orders?concurrency=scopeFork")).isSameAs(Simulation.NONE);
    }

    @Test
    void bindsAndConvertsTheKnobs() {
        Simulation simulation = (Simulation) resolve(resolver, "/orders?latencyMs=7&faultTarget=orders,products");

        assertThat(simulation.latencyMs()).isEqualTo(7);
        assertThat(simulation.faultTarget()).containsExactly("orders", "products");
    }

    @Test
    void aValueOutOfRangeIsABindErrorNamingTheField() {
        assertThatThrownBy(() -> resolve(resolver, "/orders?latencyMs=60001"))
                .isInstanceOfSatisfying(WebExchangeBindException.class, e -> assertThat(e.getFieldErrors())
                        .singleElement().satisfies(error -> assertThat(error.getField()).isEqualTo("latencyMs")));
    }

    @Test
    void knobsDisabledRefusesAnyKnobGiven() {
        assertThatThrownBy(() -> resolve(new ReactiveSimulationArgumentResolver(false), "/orders?latencyMs=7"))
                .isInstanceOf(RequestKnobsDisabledException.class);
    }

    private static Object resolve(ReactiveSimulationArgumentResolver resolver, String uri) {
        var validator = new LocalValidatorFactoryBean();
        validator.afterPropertiesSet();
        var initializer = new ConfigurableWebBindingInitializer();
        initializer.setValidator(validator);
        initializer.setConversionService(new DefaultFormattingConversionService());   // WebFlux's splits "a,b" too
        return resolver.resolveArgument(parameter(), new BindingContext(initializer),
                MockServerWebExchange.from(MockServerHttpRequest.get(uri))).block();
    }

    private static MethodParameter parameter() {
        try {
            return new MethodParameter(ReactiveSimulationArgumentResolverTest.class
                    .getDeclaredMethod("handler", Simulation.class), 0);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }

    @SuppressWarnings("unused")
    private static void handler(Simulation simulation) {
    }

}
