package lab.fanout.main.server.reactive;

import java.util.List;

import lab.fanout.common.Simulation;
import lab.fanout.common.SimulationBinding;
import reactor.core.publisher.Mono;

import org.springframework.core.MethodParameter;
import org.springframework.validation.BindException;
import org.springframework.web.bind.support.WebExchangeBindException;
import org.springframework.web.reactive.BindingContext;
import org.springframework.web.reactive.result.method.HandlerMethodArgumentResolver;
import org.springframework.web.server.ServerWebExchange;

/**
 * WebFlux's binding of a handler's {@link Simulation} parameter, the same as Spring MVC's ({@link SimulationBinding}):
 * without it WebFlux's own constructor binding would run on every request and cost the netty profile the CPU that
 * SimulationBinding's comment measures.
 *
 * @throws WebExchangeBindException (400 problem+json, {@link ReactiveProblemAdvice}) when a value does not convert or
 *                                  breaks a constraint; {@code RequestKnobsDisabledException} (403) when knobs are off
 */
final class ReactiveSimulationArgumentResolver implements HandlerMethodArgumentResolver {

    private final boolean knobsEnabled;

    /** @param knobsEnabled {@code SimulationProperties#requestKnobs()} */
    ReactiveSimulationArgumentResolver(boolean knobsEnabled) {
        this.knobsEnabled = knobsEnabled;
    }

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return parameter.getParameterType() == Simulation.class;
    }

    @Override
    public Mono<Object> resolveArgument(MethodParameter parameter, BindingContext context, ServerWebExchange exchange) {
        var query = exchange.getRequest().getQueryParams();
        try {
            return Mono.just(SimulationBinding.bind(name -> {
                List<String> values = query.get(name);
                return values == null ? null : values.toArray(String[]::new);
            }, (target, name) -> context.createDataBinder(exchange, target, name), knobsEnabled));
        } catch (BindException e) {
            return Mono.error(new WebExchangeBindException(parameter, e.getBindingResult()));
        } catch (RuntimeException e) {
            return Mono.error(e);
        }
    }
}
