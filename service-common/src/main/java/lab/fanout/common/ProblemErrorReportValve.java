package lab.fanout.common;

import java.io.IOException;
import java.io.Writer;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import tools.jackson.databind.ObjectMapper;

import org.springframework.core.NestedExceptionUtils;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

/**
 * Tomcat's error report as problem+json (RFC 9457) instead of its HTML page. Renders every error that never reaches
 * Spring MVC's handlers: requests Tomcat rejects while parsing (bad request line, method or percent-encoding, header
 * too large, bad Host), {@code sendError} from Tomcat or a filter, and exceptions that escape the servlet. Boot's
 * {@code /error} controller is switched off (service-defaults.yml), so there is no second, legacy JSON shape
 * (spring-boot#48392).
 * <p>
 * The detail of a 4xx is Tomcat's own reason (it names the bad part of the request); a 5xx never shows an
 * exception's message, which may name internals.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

    private static final int MAX_DETAIL = 300;

    private final ObjectMapper json;

    public ProblemErrorReportValve(ObjectMapper json) {
        this.json = json;
        setShowReport(false);
        setShowServerInfo(false);
    }

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        HttpStatus known = HttpStatus.resolve(status);
        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("title", known != null ? known.getReasonPhrase() : "Error " + status);
        problem.put("status", status);
        problem.put("detail", detail(status, response.getMessage(), throwable));
        try {
            response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            response.setCharacterEncoding("UTF-8");
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write(json.writeValueAsString(problem));
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // the client is gone or the response is committed: nothing left to tell it
        }
    }

    private static String detail(int status, String message, Throwable throwable) {
        if (status >= 500) {
            return "The server could not answer this request.";
        }
        // Tomcat's parse errors carry their reason as the exception's message; wrappers add class names to theirs
        String cause = throwable == null ? null : NestedExceptionUtils.getMostSpecificCause(throwable).getMessage();
        String reason = message != null && !message.isBlank() ? message
                : cause != null ? cause
                : "The request is malformed and was rejected before it reached the application.";
        return reason.length() > MAX_DETAIL ? reason.substring(0, MAX_DETAIL) + "..." : reason;
    }
}
