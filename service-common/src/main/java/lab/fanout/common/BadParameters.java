package lab.fanout.common;

import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.TypeMismatchException;
import org.springframework.context.MessageSourceResolvable;
import org.springframework.context.support.DefaultMessageSourceResolvable;
import org.springframework.util.ReflectionUtils;
import org.springframework.validation.FieldError;
import org.springframework.validation.method.ParameterErrors;
import org.springframework.validation.method.ParameterValidationResult;

/**
 * The details of 400 {@code bad-parameter} problems: what is wrong and what is valid, e.g. {@code concurrency: 'fast'
 * is not one of [sequential, completableFuture, ...]}, where Spring's own texts ("Failed to convert value of type
 * 'java.lang.String' to required type ...", "Type mismatch.") name Java types, not the fix. One wording for every
 * server: Spring MVC's {@link ProblemAdvice} and main-service's WebFlux advice both render through these.
 */
public final class BadParameters {

    private BadParameters() {
    }

    /**
     * @param name the query parameter's name
     * @return e.g. {@code latencyMs: 'x' is not a whole number}, or the converter's own words
     *         ({@link InvalidValueException}) with the value given
     */
    public static String typeMismatch(String name, TypeMismatchException ex) {
        for (Throwable cause = ex.getCause(); cause != null; cause = cause.getCause()) {
            if (cause instanceof InvalidValueException invalid) {   // the converter knows what is valid
                return name + ": " + invalid.getMessage() + " (got '" + ex.getValue() + "')";
            }
        }
        return name + ": " + describe(ex.getValue(), ex.getRequiredType());
    }

    /** @param target the bound type, e.g. the Simulation record, whose field type names what a value must be */
    public static String fieldErrors(List<FieldError> errors, Class<?> target) {
        return errors.stream().map(error -> describe(error, target)).collect(Collectors.joining("; "));
    }

    /**
     * A constraint on a handler's own parameter, e.g. {@code cpuMs: must be between 0 and 1000 (got '1001')}, or on a
     * field of a {@code @Valid} one (WebFlux validates the Simulation knobs so), named by the field.
     */
    public static String methodValidation(List<ParameterValidationResult> results) {
        return results.stream().flatMap(result -> result instanceof ParameterErrors errors
                        ? errors.getFieldErrors().stream()
                                .map(error -> describe(error, result.getMethodParameter().getParameterType()))
                        : result.getResolvableErrors().stream()
                                .map(error -> result.getMethodParameter().getParameterName() + ": " + message(error)
                                        + " (got '" + result.getArgument() + "')"))
                .collect(Collectors.joining("; "));
    }

    /** @param type the parameter's type: an enum's values are named */
    public static String missing(String name, @Nullable Class<?> type) {
        return name + ": is required" + (type != null && type.isEnum() ? "; one of " + enumValues(type) : "");
    }

    private static String describe(FieldError error, Class<?> target) {
        if (error.isBindingFailure()) {
            Field field = ReflectionUtils.findField(target, error.getField().replaceAll("\\[.*", ""));
            return error.getField() + ": " + describe(error.getRejectedValue(), field == null ? null : field.getType());
        }
        return error.getField() + ": " + message(error) + " (got '" + error.getRejectedValue() + "')";
    }

    private static String describe(@Nullable Object value, @Nullable Class<?> type) {
        if (type != null && type.isEnum()) {
            return "'" + value + "' is not one of " + enumValues(type);
        }
        String kind = type == null ? "a valid value" : switch (type.getSimpleName()) {
            case "Integer", "int", "Long", "long" -> "a whole number";
            case "Double", "double" -> "a number";
            case "Duration" -> "a duration such as 250ms or 2s";
            default -> "a valid " + type.getSimpleName();
        };
        return "'" + value + "' is not " + kind;
    }

    /** @return the values a client may send: each constant's {@code toString()}, which our enums make the API name */
    private static String enumValues(Class<?> type) {
        return Arrays.stream(type.getEnumConstants()).map(Object::toString).collect(Collectors.joining(", ", "[", "]"));
    }

    private static String message(MessageSourceResolvable error) {
        String message = error.getDefaultMessage();
        return message != null ? message : new DefaultMessageSourceResolvable(error.getCodes(), "is invalid").getDefaultMessage();
    }
}
