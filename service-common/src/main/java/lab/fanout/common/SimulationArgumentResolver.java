package lab.fanout.common;

import org.jspecify.annotations.Nullable;

import org.springframework.core.MethodParameter;
import org.springframework.validation.BindException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.WebDataBinder;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

/**
 * Spring MVC's binding of a handler's {@link Simulation} parameter ({@link SimulationBinding}).
 *
 * @throws MethodArgumentNotValidException (rendered as 400 problem+json by {@link ProblemAdvice}) when a value does
 *                                         not convert (a binding failure) or breaks a constraint
 * @throws RequestKnobsDisabledException   (403 problem+json) when any knob is given and {@link SimulationProperties}
 *                                         disables them
 */
final class SimulationArgumentResolver implements HandlerMethodArgumentResolver {

    private final boolean knobsEnabled;

    /** @param knobsEnabled {@link SimulationProperties#requestKnobs()} */
    SimulationArgumentResolver(boolean knobsEnabled) {
        this.knobsEnabled = knobsEnabled;
    }

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return parameter.getParameterType() == Simulation.class;
    }

    @Override
    public Simulation resolveArgument(MethodParameter parameter, @Nullable ModelAndViewContainer mavContainer,
                                      NativeWebRequest request, @Nullable WebDataBinderFactory binderFactory)
            throws Exception {
        try {
            return SimulationBinding.bind(request::getParameterValues,
                    (target, name) -> binder(binderFactory, request, target, name), knobsEnabled);
        } catch (BindException e) {
            throw new MethodArgumentNotValidException(parameter, e.getBindingResult());
        }
    }

    /** Asked for only when a knob is given: a request without any converts nothing. */
    private static WebDataBinder binder(@Nullable WebDataBinderFactory factory, NativeWebRequest request,
                                        @Nullable Object target, String name) {
        if (factory == null) {
            throw new IllegalStateException("Simulation needs a WebDataBinderFactory (Spring MVC provides one)");
        }
        try {
            return factory.createBinder(request, target, name);
        } catch (Exception e) {   // only an @InitBinder method can throw here
            throw new IllegalStateException("creating the binder of " + name + " failed", e);
        }
    }
}
