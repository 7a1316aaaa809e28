package lab.fanout.main.server;

import lab.fanout.common.Problems;
import lab.fanout.main.client.FanoutException;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/**
 * The one mapping of the core's {@link FanoutException} to HTTP, used by both servers' advice, so that Spring MVC and
 * WebFlux answer the same status, headers and problem+json body (the cross-server contract suite compares them).
 */
public final class FanoutProblems {

    private FanoutProblems() {
    }

    /**
     * @return the failure's kind's status (502, 503 or 504) with its headers ({@code Retry-After}, Server-Timing, the
     *         strategy's) and a problem: type, title, status, detail, then its members in the order they were added
     *         ({@code downstream}, {@code strategy}, ...); the server adds {@code instance}, the request's path
     */
    public static ResponseEntity<ProblemDetail> answer(FanoutException failure) {
        FanoutException.Kind kind = failure.kind();
        ProblemDetail problem = Problems.of(HttpStatus.valueOf(kind.status()), kind.type(), kind.title(),
                failure.detail());
        failure.properties().forEach(problem::setProperty);
        ResponseEntity.BodyBuilder answer = ResponseEntity.status(kind.status());
        failure.headers().forEach((name, value) -> answer.header(name, value));
        return answer.body(problem);
    }
}
