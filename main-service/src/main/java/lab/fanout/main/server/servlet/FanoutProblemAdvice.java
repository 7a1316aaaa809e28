package lab.fanout.main.server.servlet;

import lab.fanout.main.client.FanoutException;
import lab.fanout.main.server.FanoutProblems;

import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/** Spring MVC's answer to a failed fan-out: {@link FanoutProblems#answer}, as WebFlux's {@code ReactiveProblemAdvice}. */
@RestControllerAdvice
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
class FanoutProblemAdvice {

    @ExceptionHandler(FanoutException.class)
    ResponseEntity<ProblemDetail> fanoutFailed(FanoutException failure) {
        return FanoutProblems.answer(failure);
    }
}
