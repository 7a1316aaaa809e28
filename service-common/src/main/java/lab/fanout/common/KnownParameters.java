package lab.fanout.common;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SequencedSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.beans.BeanUtils;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.MethodParameter;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Refuses a request whose query names a parameter its handler does not bind: 400 problem+json {@code bad-parameter}
 * ({@link BadParameterException}) whose detail names the unknown parameter, the known one it differs from only in
 * case, if any, and every parameter the endpoint takes, e.g. {@code latencyms: not a parameter of this endpoint (did
 * you mean latencyMs?); it takes [concurrency, latencyMs, ...]}. Without it a mistyped knob answered 200 and measured
 * the default.
 * <p>
 * The known names come from the handler method's own binding, read once per method: each {@code @RequestParam} (its
 * name, or the Java parameter's), each unannotated simple-type parameter (Spring MVC binds those as request
 * parameters too), and for a {@link Simulation} parameter the names {@link SimulationBinding} reads. A
 * handler that can bind any name (a {@code @RequestParam Map}, a {@code @ModelAttribute} or another unannotated
 * object) is not checked. Runs before the arguments are bound, so an unknown name is reported first.
 */
public final class KnownParameters implements HandlerInterceptor {

    private static final ParameterNameDiscoverer NAMES = new DefaultParameterNameDiscoverer();
    /** Types Spring MVC supplies to a handler itself (request, response, locale, principal ...), not from the query. */
    private static final Pattern SUPPLIED = Pattern.compile("(jakarta|java|org\\.springframework)\\.");

    /** Per handler method: the names it binds, in declaration order; empty when it can bind any name. */
    private static final Map<Method, Optional<SequencedSet<String>>> BY_METHOD = new ConcurrentHashMap<>();

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (handler instanceof HandlerMethod method) {
            refuseUnknown(method.getMethod(), Collections.list(request.getParameterNames()));
        }
        return true;
    }

    /**
     * The check itself, for a web layer that is not Spring MVC (main-service's WebFlux one).
     *
     * @param handler the handler method the request was mapped to
     * @param given   the request's query parameter names
     * @throws BadParameterException naming each name {@code handler} does not bind, and those it binds
     */
    public static void refuseUnknown(Method handler, Collection<String> given) {
        BY_METHOD.computeIfAbsent(handler, KnownParameters::of).ifPresent(known -> refuseUnknown(given, known));
    }

    /**
     * @param given the request's parameter names
     * @throws BadParameterException naming each name not in {@code known}, and {@code known}
     */
    static void refuseUnknown(Collection<String> given, SequencedSet<String> known) {
        List<String> unknown = new ArrayList<>();
        for (String name : given) {
            if (!known.contains(name)) {
                Optional<String> meant = known.stream().filter(name::equalsIgnoreCase).findFirst();
                unknown.add(name + ": not a parameter of this endpoint" + meant.map(m -> " (did you mean " + m + "?)")
                        .orElse(""));
            }
        }
        if (!unknown.isEmpty()) {
            throw new BadParameterException(String.join("; ", unknown) + "; it takes " + known);
        }
    }

    /** @return the query parameter names {@code method} binds, or empty if it can bind any name */
    static Optional<SequencedSet<String>> of(Method method) {
        SequencedSet<String> known = new LinkedHashSet<>();
        String[] javaNames = NAMES.getParameterNames(method);
        for (int i = 0; i < method.getParameterCount(); i++) {
            MethodParameter parameter = new MethodParameter(method, i);
            Class<?> type = parameter.getParameterType();
            RequestParam requestParam = parameter.getParameterAnnotation(RequestParam.class);
            if (parameter.hasParameterAnnotation(ModelAttribute.class)) {
                return Optional.empty();   // Spring MVC's model attribute binding runs before ours, even for Simulation
            } else if (type == Simulation.class) {
                known.addAll(SimulationBinding.parameterNames());
            } else if (requestParam != null) {
                if (Map.class.isAssignableFrom(type)) {
                    return Optional.empty();
                }
                String name = !requestParam.name().isEmpty() ? requestParam.name() : requestParam.value();
                known.add(!name.isEmpty() ? name : javaName(javaNames, method, i));
            } else if (Arrays.stream(parameter.getParameterAnnotations()).noneMatch(KnownParameters::binds)) {
                // no binding annotation: Spring MVC binds a simple type as a request parameter, an object of
                // its own (not a servlet or Spring type) as a model attribute, from any name
                if (BeanUtils.isSimpleProperty(type)) {
                    known.add(javaName(javaNames, method, i));
                } else if (!SUPPLIED.matcher(type.getName()).lookingAt()) {
                    return Optional.empty();
                }
            }
        }
        return Optional.of(Collections.unmodifiableSequencedSet(known));
    }

    /** @return whether {@code annotation} is one of Spring MVC's binding annotations (path variable, header, ...) */
    private static boolean binds(Annotation annotation) {
        return annotation.annotationType().getPackageName().equals(RequestParam.class.getPackageName());
    }

    private static String javaName(String[] names, Method method, int index) {
        if (names == null) {
            throw new IllegalStateException(method + " was compiled without -parameters: name its @RequestParams");
        }
        return names[index];
    }
}
