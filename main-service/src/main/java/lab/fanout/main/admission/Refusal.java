package lab.fanout.main.admission;

import java.util.LinkedHashMap;
import java.util.Map;

import lab.fanout.common.Problems;

/**
 * The overloaded answer's problem+json body, the same on every server: type {@value #TYPE_NAME}, title, status, detail
 * and the properties that say why (the limit and the count in flight, or how long the request queued).
 */
public final class Refusal {

    /** The problem type's name, {@code .../problems/overloaded}. */
    public static final String TYPE_NAME = "overloaded";

    private Refusal() {
    }

    /**
     * @param status     the answer's HTTP status, 429 or 503 ({@code fanout.admission.refusal-status})
     * @param properties extension members written after {@code detail}, in their map's order
     * @return the body's members in problem+json order
     */
    public static Map<String, Object> problem(int status, String detail, Map<String, Object> properties) {
        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("type", Problems.type(TYPE_NAME).toString());
        problem.put("title", "Overloaded");
        problem.put("status", status);
        problem.put("detail", detail);
        problem.putAll(properties);
        return problem;
    }

    /** @return the detail of a request refused at the limit */
    public static String atLimit(int limit, long retryAfterSeconds) {
        return "main-service holds " + limit + " requests in flight at most and is at that limit; retry after "
                + retryAfterSeconds + " s";
    }
}
