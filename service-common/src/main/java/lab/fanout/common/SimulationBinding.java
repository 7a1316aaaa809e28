package lab.fanout.common;

import java.beans.PropertyChangeEvent;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.stream.IntStream;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanUtils;
import org.springframework.beans.TypeMismatchException;
import org.springframework.core.MethodParameter;
import org.springframework.core.convert.TypeDescriptor;
import org.springframework.validation.BindException;
import org.springframework.validation.BindingResult;
import org.springframework.web.bind.WebDataBinder;

/**
 * Binds a {@link Simulation} from the query parameters named like its components, then validates it: what
 * {@code @Valid Simulation} gets from Spring's constructor binding, at a fraction of the cost. Spring MVC's
 * {@link SimulationArgumentResolver} and main-service's WebFlux one both bind through it.
 * <p>
 * Why: Spring Framework 7's {@code DataBinder.createObject} asks the JDK for the record constructor's parameter and
 * type annotations on every request ({@code BindParamNameResolver}, {@code MethodParameter.isOptional} via
 * {@code Nullness}), and the JDK parses them afresh on each call. JFR showed that at 58 % of a downstream service's
 * CPU samples under load, which made the downstreams, not the fan-out, the bottleneck of every benchmark. Here the
 * record's shape is read once; values convert through the request's {@link WebDataBinder} (the web layer's conversion
 * service) and are validated by its validator, so the errors are the same {@code FieldError}s as Spring's.
 */
public final class SimulationBinding {

    private static final RecordComponent[] COMPONENTS = Simulation.class.getRecordComponents();
    private static final Constructor<Simulation> CANONICAL = canonical();
    /** Each component's generic type with its annotations, read once (e.g. {@code List<@Pattern String>}). */
    private static final TypeDescriptor[] TYPES = IntStream.range(0, COMPONENTS.length)
            .mapToObj(i -> new TypeDescriptor(new MethodParameter(CANONICAL, i))).toArray(TypeDescriptor[]::new);
    private static final String NAME = "simulation";

    /** The web layer's binder for a target object (null: for conversion only) under an object name. */
    @FunctionalInterface
    public interface Binders {
        WebDataBinder create(@Nullable Object target, String name);
    }

    private SimulationBinding() {
    }

    /** @return the query parameters this binds, in the record's order: its components' names (for KnownParameters) */
    public static List<String> parameterNames() {
        return Arrays.stream(COMPONENTS).map(RecordComponent::getName).toList();
    }

    /**
     * @param values       a query parameter's values by name, null when not given
     * @param knobsEnabled {@link SimulationProperties#requestKnobs()}
     * @return {@link Simulation#NONE} when no knob is given (a benchmark's request: nothing converted or validated)
     * @throws BindException                 when a value does not convert (a binding failure) or breaks a constraint;
     *                                       the web layer rethrows its own kind, rendered as 400 problem+json
     * @throws RequestKnobsDisabledException (403 problem+json) when any knob is given and they are disabled
     */
    public static Simulation bind(Function<String, String @Nullable []> values, Binders binders, boolean knobsEnabled)
            throws BindException {
        if (Arrays.stream(COMPONENTS).noneMatch(c -> values.apply(c.getName()) != null)) {
            return Simulation.NONE;
        }
        if (!knobsEnabled) {
            throw new RequestKnobsDisabledException(Arrays.stream(COMPONENTS).map(RecordComponent::getName)
                    .filter(name -> values.apply(name) != null).toList());
        }
        WebDataBinder converter = binders.create(null, NAME);
        Object[] converted = new Object[COMPONENTS.length];
        TypeMismatchException[] failures = new TypeMismatchException[COMPONENTS.length];
        for (int i = 0; i < COMPONENTS.length; i++) {
            String[] given = values.apply(COMPONENTS[i].getName());
            if (given != null) {
                // one value stays a String, so "orders,products" splits into a List as Spring's binder does
                Object raw = given.length == 1 ? given[0] : given;
                try {
                    converted[i] = converter.convertIfNecessary(raw, COMPONENTS[i].getType(), TYPES[i]);
                } catch (TypeMismatchException e) {
                    failures[i] = new TypeMismatchException(
                            new PropertyChangeEvent(Simulation.class, COMPONENTS[i].getName(), null, raw),
                            COMPONENTS[i].getType(), e.getCause());
                }
            }
        }
        Simulation simulation = BeanUtils.instantiateClass(CANONICAL, converted);
        WebDataBinder binder = binders.create(simulation, NAME);
        BindingResult result = binder.getBindingResult();
        Arrays.stream(failures).filter(f -> f != null)
                .forEach(f -> binder.getBindingErrorProcessor().processPropertyAccessException(f, result));
        binder.validate();
        if (result.hasErrors()) {
            throw new BindException(result);
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
