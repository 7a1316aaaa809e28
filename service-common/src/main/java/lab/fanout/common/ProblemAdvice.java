package lab.fanout.common;

import org.apache.tomcat.util.http.InvalidParameterException;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Turns Spring MVC's bad-input exceptions into 400 problem+json {@code bad-parameter} whose detail says what is wrong
 * and what is valid ({@link BadParameters}). Exceptions that are already {@link org.springframework.web.ErrorResponse}s
 * (a {@link BadParameterException}) render through the base class unchanged.
 */
@RestControllerAdvice
public class ProblemAdvice extends ResponseEntityExceptionHandler {

    @Override
    protected @Nullable ResponseEntity<Object> handleTypeMismatch(
            org.springframework.beans.TypeMismatchException ex, HttpHeaders headers, HttpStatusCode status,
            WebRequest request) {
        String name = ex instanceof MethodArgumentTypeMismatchException m ? m.getName() : ex.getPropertyName();
        return badParameter(BadParameters.typeMismatch(name, ex), request);
    }

    @Override
    protected @Nullable ResponseEntity<Object> handleMethodArgumentNotValid(
            MethodArgumentNotValidException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        return badParameter(BadParameters.fieldErrors(ex.getFieldErrors(), ex.getParameter().getParameterType()),
                request);
    }

    @Override
    protected @Nullable ResponseEntity<Object> handleHandlerMethodValidationException(
            HandlerMethodValidationException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        return badParameter(BadParameters.methodValidation(ex.getParameterValidationResults()), request);
    }

    @Override
    protected @Nullable ResponseEntity<Object> handleMissingServletRequestParameter(
            MissingServletRequestParameterException ex, HttpHeaders headers, HttpStatusCode status,
            WebRequest request) {
        Class<?> type = ex.getMethodParameter() == null ? null : ex.getMethodParameter().getParameterType();
        return badParameter(BadParameters.missing(ex.getParameterName(), type), request);
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
}
