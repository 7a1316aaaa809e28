package lab.fanout.common;

import org.junit.jupiter.api.Test;

import org.springframework.core.MethodParameter;
import org.springframework.format.support.DefaultFormattingConversionService;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.support.ConfigurableWebBindingInitializer;
import org.springframework.web.bind.support.DefaultDataBinderFactory;
import org.springframework.web.context.request.ServletWebRequest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The resolver outside MVC: the no-knob fast path, conversion, and a constraint still enforced beside it. */
class SimulationArgumentResolverTest {

    private final SimulationArgumentResolver resolver = new SimulationArgumentResolver(true);

    @Test
    void noKnobGivenIsNoneWithoutBinding() throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/order/api/v1/orders");
        request.addParameter("unrelated", "x");
        // a null binder factory would throw on the binding path: NONE must come before it
        assertThat(resolver.resolveArgument(parameter(), null, new ServletWebRequest(request), null))
                .isSameAs(Simulation.NONE);
    }

    @Test
    void givenKnobsConvert() throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/order/api/v1/orders");
        request.addParameter("latencyMs", "15");
        request.addParameter("faultTarget", "orders,products");
        Simulation simulation = resolver.resolveArgument(parameter(), null, new ServletWebRequest(request),
                binders());
        assertThat(simulation.latencyMs()).isEqualTo(15);
        assertThat(simulation.faultTarget()).containsExactly("orders", "products");
    }

    @Test
    void unconvertibleKnobFails() {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/order/api/v1/orders");
        request.addParameter("latencyMs", "soon");
        assertThatThrownBy(() -> resolver.resolveArgument(parameter(), null, new ServletWebRequest(request),
                binders()))
                .isInstanceOf(MethodArgumentNotValidException.class).hasMessageContaining("latencyMs");
    }

    /** Profile 'shared': a knob is refused with the names of those given, not silently ignored. */
    @Test
    void knobsAreRefusedWhereDisabled() {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/order/api/v1/orders");
        request.addParameter("latencyMs", "60000");
        request.addParameter("errorRate", "1");
        assertThatThrownBy(() -> new SimulationArgumentResolver(false).resolveArgument(parameter(), null,
                new ServletWebRequest(request), binders()))
                .isInstanceOfSatisfying(RequestKnobsDisabledException.class, e -> {
                    assertThat(e.getStatusCode().value()).isEqualTo(403);
                    assertThat(e.getBody().getDetail()).startsWith("[latencyMs, errorRate]: ")
                            .contains("simulation.request-knobs=true");
                });
    }

    /** MVC's conversion service, which splits "orders,products" into a list. */
    private static DefaultDataBinderFactory binders() {
        ConfigurableWebBindingInitializer initializer = new ConfigurableWebBindingInitializer();
        initializer.setConversionService(new DefaultFormattingConversionService());
        return new DefaultDataBinderFactory(initializer);
    }

    private static MethodParameter parameter() throws NoSuchMethodException {
        return new MethodParameter(SimulationArgumentResolverTest.class.getDeclaredMethod("handler", Simulation.class), 0);
    }

    @SuppressWarnings("unused")
    private static void handler(Simulation simulation) {
        // only its parameter is used
    }
}
