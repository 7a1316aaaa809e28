package lab.fanout.common;

import java.net.URI;

import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;

/**
 * The problem types (RFC 9457) every fan-out-lab service answers with. Documented in docs/knobs.md, section "Errors".
 */
public final class Problems {

    private static final String BASE = "https://fanout-lab.dev/problems/";

    /** 400: a query parameter is unknown, malformed or out of range; the detail names the valid values. */
    public static final URI BAD_PARAMETER = URI.create(BASE + "bad-parameter");

    private Problems() {
    }

    /**
     * @param type  one of this class's URIs, or one a service documents next to it
     * @return a problem with that type, a title and a detail; add properties with {@link ProblemDetail#setProperty}
     */
    public static ProblemDetail of(HttpStatusCode status, URI type, String title, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setType(type);
        problem.setTitle(title);
        return problem;
    }

    public static URI type(String name) {
        return URI.create(BASE + name);
    }
}
