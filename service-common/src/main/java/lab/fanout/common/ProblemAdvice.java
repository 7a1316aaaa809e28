package lab.fanout.common;

import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.stream.Collectors;

import org.apache.tomcat.util.http.InvalidParameterException;
import org.jspecify.annotations.Nullable;

import org.springframework.context.MessageSourceResolvable;
import org.springframework.context.support.DefaultMessageSourceResolvable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.util.ReflectionUtils;
import org.springframework.validation.FieldError;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Turns bad input into 400 problem+json whose detail says what is wrong and what is valid, e.g.
 * {@code concurrency: 'fast' is not one of [sequential, completableFuture, ...]}. Spring MVC's own texts
 * ("Failed to convert value of type 'java.lang.String' to required type ...") name Java types, not the fix.
 * Exceptions that are already {@link org.springframework.web.ErrorResponse}s (502, 503, 504 in main-service)
 * render through the base class unchanged.
 */
@RestControllerAdvice
public class ProblemAdvice extends ResponseEntityExceptionHandler {

    @Override
    protected @Nullable ResponseEntity<Object> handleTypeMismatch(
            org.springframework.beans.TypeMismatchException ex, HttpHeaders headers, HttpStatusCode status,
            WebRequest request) {
        String name = ex instanceof MethodArgumentTypeMismatchException m ? m.getName() : ex.getPropertyName();
        for (Throwable cause = ex.getCause(); cause != null; cause = cause.getCause()) {
            if (cause instanceof InvalidValueException invalid) {   // the converter knows what is valid
                return badParameter(name + ": " + invalid.getMessage() + " (got '" + ex.getValue() + "')", request);
            }
        }
        return badParameter(name + ": " + describe(ex.getValue(), ex.getRequiredType()), request);
    }

    @Override
    protected @Nullable ResponseEntity<Object> handleMethodArgumentNotValid(
            MethodArgumentNotValidException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        Class<?> target = ex.getParameter().getParameterType();
        String detail = ex.getFieldErrors().stream().map(error -> describe(error, target))
                .collect(Collectors.joining("; "));
        return badParameter(detail, request);
    }

    @Override
    protected @Nullable ResponseEntity<Object> handleHandlerMethodValidationException(
            HandlerMethodValidationException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        String detail = ex.getParameterValidationResults().stream()
                .flatMap(result -> result.getResolvableErrors().stream()
                        .map(error -> result.getMethodParameter().getParameterName() + ": " + message(error)
                                + " (got '" + result.getArgument() + "')"))
                .collect(Collectors.joining("; "));
        return badParameter(detail, request);
    }

    @Override
    protected @Nullable ResponseEntity<Object> handleMissingServletRequestParameter(
            MissingServletRequestParameterException ex, HttpHeaders headers, HttpStatusCode status,
            WebRequest request) {
        Class<?> type = ex.getMethodParameter() == null ? null : ex.getMethodParameter().getParameterType();
        String valid = type != null && type.isEnum() ? "; one of " + enumValues(type) : "";
        return badParameter(ex.getParameterName() + ": is required" + valid, request);
    }

    /**
     * Tomcat could not percent-decode the query string (e.g. {@code ?latencyMs=%zz}) and throws when Spring MVC reads
     * the parameters; left alone it escapes Spring MVC as an error logged with its stack trace.
     */
    @ExceptionHandler(InvalidParameterException.class)
    ResponseEntity<Object> undecodableParameter(InvalidParameterException ex, WebRequest request) {
        return badParameter("the query string is not valid percent-encoding: '%' must be followed by two hex digits,"
                + " and the decoded bytes must be UTF-8", request);
    }

    private ResponseEntity<Object> badParameter(String detail, WebRequest request) {
        ProblemDetail problem = Problems.of(HttpStatus.BAD_REQUEST, Problems.BAD_PARAMETER, "Bad parameter", detail);
        return handleExceptionInternal(new IllegalArgumentException(detail), problem, new HttpHeaders(),
                HttpStatus.BAD_REQUEST, request);
    }

    /** @param target the bound type, e.g. the Simulation record, whose field type names what a value must be */
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
