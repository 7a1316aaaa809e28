package lab.fanout.common;

import java.beans.PropertyChangeEvent;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanUtils;
import org.springframework.beans.TypeMismatchException;
import org.springframework.core.MethodParameter;
import org.springframework.core.convert.TypeDescriptor;
import org.springframework.validation.BindingResult;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.WebDataBinder;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

/**
 * Binds a handler's {@link Simulation} parameter from the query parameters named like its components, then
 * validates it: what {@code @Valid Simulation} got from Spring MVC's constructor binding, at a fraction of the cost.
 * <p>
 * Why: Spring Framework 7's {@code DataBinder.createObject} asks the JDK for the record constructor's parameter and
 * type annotations on every request ({@code BindParamNameResolver}, {@code MethodParameter.isOptional} via
 * {@code Nullness}), and the JDK parses them afresh on each call. JFR showed that at 58 % of a downstream service's
 * CPU samples under load, which made the downstreams, not the fan-out, the bottleneck of every benchmark. Here the
 * record's shape is read once; values convert through the request's {@link WebDataBinder} (the MVC conversion
 * service) and are validated by its validator, so the errors are the same {@code FieldError}s as before.
 *
 * @throws MethodArgumentNotValidException (rendered as 400 problem+json by {@link ProblemAdvice}) when a value does
 *                                         not convert (a binding failure) or breaks a constraint
 * @throws RequestKnobsDisabledException   (403 problem+json) when any knob is given and {@link SimulationProperties}
 *                                         disables them
 */
final class SimulationArgumentResolver implements HandlerMethodArgumentResolver {

    private static final RecordComponent[] COMPONENTS = Simulation.class.getRecordComponents();
    private static final Constructor<Simulation> CANONICAL = canonical();
    /** Each component's generic type with its annotations, read once (e.g. {@code List<@Pattern String>}). */
    private static final TypeDescriptor[] TYPES = IntStream.range(0, COMPONENTS.length)
            .mapToObj(i -> new TypeDescriptor(new MethodParameter(CANONICAL, i))).toArray(TypeDescriptor[]::new);

    private final boolean knobsEnabled;

    /** @param knobsEnabled {@link SimulationProperties#requestKnobs()} */
    SimulationArgumentResolver(boolean knobsEnabled) {
        this.knobsEnabled = knobsEnabled;
    }

    /** @return the query parameters this binds, in the record's order: its components' names (for KnownParameters) */
    static List<String> parameterNames() {
        return Arrays.stream(COMPONENTS).map(RecordComponent::getName).toList();
    }

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return parameter.getParameterType() == Simulation.class;
    }

    @Override
    public Simulation resolveArgument(MethodParameter parameter, @Nullable ModelAndViewContainer mavContainer,
                                      NativeWebRequest request, @Nullable WebDataBinderFactory binderFactory)
            throws Exception {
        if (Arrays.stream(COMPONENTS).noneMatch(c -> request.getParameter(c.getName()) != null)) {
            return Simulation.NONE;   // the common case, a benchmark's: no knob given, nothing to convert or validate
        }
        if (!knobsEnabled) {
            throw new RequestKnobsDisabledException(Arrays.stream(COMPONENTS).map(RecordComponent::getName)
                    .filter(name -> request.getParameter(name) != null).toList());
        }
        if (binderFactory == null) {
            throw new IllegalStateException("Simulation needs a WebDataBinderFactory (Spring MVC provides one)");
        }
        String name = "simulation";
        WebDataBinder converter = binderFactory.createBinder(request, null, name);
        Object[] values = new Object[COMPONENTS.length];
        TypeMismatchException[] failures = new TypeMismatchException[COMPONENTS.length];
        for (int i = 0; i < COMPONENTS.length; i++) {
            String[] given = request.getParameterValues(COMPONENTS[i].getName());
            if (given != null) {
                // one value stays a String, so "orders,products" splits into a List as Spring's binder does
                Object raw = given.length == 1 ? given[0] : given;
                try {
                    values[i] = converter.convertIfNecessary(raw, COMPONENTS[i].getType(), TYPES[i]);
                } catch (TypeMismatchException e) {
                    failures[i] = new TypeMismatchException(
                            new PropertyChangeEvent(Simulation.class, COMPONENTS[i].getName(), null, raw),
                            COMPONENTS[i].getType(), e.getCause());
                }
            }
        }
        Simulation simulation = BeanUtils.instantiateClass(CANONICAL, values);
        WebDataBinder binder = binderFactory.createBinder(request, simulation, name);
        BindingResult result = binder.getBindingResult();
        Arrays.stream(failures).filter(f -> f != null)
                .forEach(f -> binder.getBindingErrorProcessor().processPropertyAccessException(f, result));
        binder.validate();
        if (result.hasErrors()) {
            throw new MethodArgumentNotValidException(parameter, result);
        }
        return simulation;
    }

    private static Constructor<Simulation> canonical() {
        Class<?>[] types = Arrays.stream(COMPONENTS).map(RecordComponent::getType).toArray(Class<?>[]::new);
        try {
            return Simulation.class.getDeclaredConstructor(types);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("a record always has its canonical constructor", e);
        }
    }
}
