package lab.fanout.main.server;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SequencedMap;

import lab.fanout.common.Problems;
import lab.fanout.main.admission.Refusal;
import lab.fanout.main.client.FanoutException;

import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/**
 * The one mapping of the core's failures to HTTP, so that Spring MVC and WebFlux answer the same status, headers and
 * problem+json body (the cross-server contract suite compares them): a {@link FanoutException}, for both servers'
 * advice, and an admission {@link Refusal}, for both servers' admission filters.
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

    /**
     * @return the refusal as a problem: type {@value Refusal#TYPE_NAME}, title, the refusal's status and detail, then
     *         its members in order; no {@code instance}
     */
    public static ProblemDetail refusal(Refusal refusal) {
        ProblemDetail problem = Problems.of(HttpStatusCode.valueOf(refusal.status()),
                Problems.type(Refusal.TYPE_NAME), Refusal.TITLE, refusal.detail());
        refusal.members().forEach(problem::setProperty);
        return problem;
    }

    /**
     * A problem's members for an answer written outside Spring's message converters, as the admission filters write
     * theirs: the application's mapper writes a {@code ProblemDetail} with its members sorted by name (Jackson 3's
     * default), this map in problem+json order.
     *
     * @return type, title, status, detail, instance, then the properties in their order; no null member
     */
    public static SequencedMap<String, Object> members(ProblemDetail problem) {
        SequencedMap<String, Object> members = new LinkedHashMap<>();
        putUnlessNull(members, "type", problem.getType());
        putUnlessNull(members, "title", problem.getTitle());
        members.put("status", problem.getStatus());
        putUnlessNull(members, "detail", problem.getDetail());
        putUnlessNull(members, "instance", problem.getInstance());
        Map<String, Object> properties = problem.getProperties();
        if (properties != null) {
            properties.forEach((name, value) -> putUnlessNull(members, name, value));
        }
        return members;
    }

    private static void putUnlessNull(Map<String, Object> members, String name, Object value) {
        if (value != null) {
            members.put(name, value);
        }
    }
}
