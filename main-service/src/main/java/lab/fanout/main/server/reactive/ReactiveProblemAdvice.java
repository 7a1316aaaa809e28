package lab.fanout.main.server.reactive;

import lab.fanout.common.BadParameters;
import lab.fanout.common.KnownParameters;
import lab.fanout.common.Problems;
import lab.fanout.main.client.FanoutException;
import lab.fanout.main.server.FanoutProblems;
import reactor.core.publisher.Mono;

import org.springframework.beans.TypeMismatchException;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.bind.support.WebExchangeBindException;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.reactive.result.method.annotation.ResponseEntityExceptionHandler;
import org.springframework.web.server.MissingRequestValueException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.ServerWebInputException;

/**
 * WebFlux's bad input as Spring MVC's ({@code lab.fanout.common.ProblemAdvice}): 400 problem+json
 * {@code bad-parameter} in the same words ({@link BadParameters}), and an unknown query parameter refused
 * ({@link KnownParameters}). The fan-out's 502, 503 and 504 render through {@link FanoutProblems}, as on Spring MVC;
 * exceptions that are {@link org.springframework.web.ErrorResponse}s (a {@code BadParameterException}) render through
 * the base class with their headers.
 */
@RestControllerAdvice
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
class ReactiveProblemAdvice extends ResponseEntityExceptionHandler {

    /**
     * Runs before the handler's arguments are bound (WebFlux's {@code @ModelAttribute} methods do), as Spring MVC's
     * interceptor does, so that an unknown name is reported first.
     *
     * @throws lab.fanout.common.BadParameterException naming the unknown parameter and the known ones
     */
    @ModelAttribute
    void refuseUnknownParameters(ServerWebExchange exchange) {
        if (exchange.getAttribute(HandlerMapping.BEST_MATCHING_HANDLER_ATTRIBUTE) instanceof HandlerMethod handler) {
            KnownParameters.refuseUnknown(handler.getMethod(), exchange.getRequest().getQueryParams().keySet());
        }
    }

    @ExceptionHandler(FanoutException.class)
    ResponseEntity<ProblemDetail> fanoutFailed(FanoutException failure) {
        return FanoutProblems.answer(failure);
    }

    /** A value of a {@code @Valid} object's field (the Simulation knobs) did not convert or broke a constraint. */
    @Override
    protected Mono<ResponseEntity<Object>> handleWebExchangeBindException(
            WebExchangeBindException ex, HttpHeaders headers, HttpStatusCode status, ServerWebExchange exchange) {
        return badParameter(BadParameters.fieldErrors(ex.getFieldErrors(), ex.getMethodParameter().getParameterType()),
                exchange);
    }

    @Override
    protected Mono<ResponseEntity<Object>> handleHandlerMethodValidationException(
            HandlerMethodValidationException ex, HttpHeaders headers, HttpStatusCode status,
            ServerWebExchange exchange) {
        return badParameter(BadParameters.methodValidation(ex.getParameterValidationResults()), exchange);
    }

    @Override
    protected Mono<ResponseEntity<Object>> handleMissingRequestValueException(
            MissingRequestValueException ex, HttpHeaders headers, HttpStatusCode status, ServerWebExchange exchange) {
        return badParameter(BadParameters.missing(ex.getName(), ex.getType()), exchange);
    }

    /** A {@code @RequestParam} that did not convert: WebFlux says only "Type mismatch.", with the cause. */
    @Override
    protected Mono<ResponseEntity<Object>> handleServerWebInputException(
            ServerWebInputException ex, HttpHeaders headers, HttpStatusCode status, ServerWebExchange exchange) {
        if (ex.getCause() instanceof TypeMismatchException mismatch && ex.getMethodParameter() != null) {
            return badParameter(BadParameters.typeMismatch(requestParamName(ex.getMethodParameter()), mismatch),
                    exchange);
        }
        return super.handleServerWebInputException(ex, headers, status, exchange);
    }

    /** @return the query parameter's name: the {@code @RequestParam}'s, or the Java parameter's */
    private static String requestParamName(MethodParameter parameter) {
        RequestParam annotation = parameter.getParameterAnnotation(RequestParam.class);
        String name = annotation == null ? "" : annotation.name();
        return !name.isEmpty() ? name : String.valueOf(parameter.getParameterName());
    }

    private Mono<ResponseEntity<Object>> badParameter(String detail, ServerWebExchange exchange) {
        return handleExceptionInternal(new IllegalArgumentException(detail), Problems.of(HttpStatus.BAD_REQUEST,
                Problems.BAD_PARAMETER, "Bad parameter", detail), new HttpHeaders(), HttpStatus.BAD_REQUEST, exchange);
    }
}
