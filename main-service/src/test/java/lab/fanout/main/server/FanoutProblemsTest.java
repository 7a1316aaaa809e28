package lab.fanout.main.server;

import java.net.URI;

import lab.fanout.main.admission.Refusal;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The admission refusal's problem, written as the admission filters write it: members in problem+json order, whatever
 * the mapper's property order (AdmissionIntegrationTest checks the body on both servers with the application's).
 */
class FanoutProblemsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void aRefusalAtTheLimitIsAnOverloadedProblemInProblemJsonOrder() {
        ProblemDetail problem = FanoutProblems.refusal(Refusal.atLimit(429, 4, 3, 2));

        assertThat(JSON.writeValueAsString(FanoutProblems.members(problem))).isEqualTo("{\"type\":"
                + "\"https://fanout-lab.dev/problems/overloaded\",\"title\":\"Overloaded\",\"status\":429,\"detail\":"
                + "\"main-service holds 4 requests in flight at most and is at that limit; retry after 2 s\","
                + "\"limit\":4,\"inFlight\":3}");
    }

    @Test
    void aRefusalQueuedPastItsDeadlineNamesBothTimes() {
        ProblemDetail problem = FanoutProblems.refusal(Refusal.queuedPastDeadline(503, 1700, 1500));

        assertThat(problem.getStatus()).isEqualTo(503);
        assertThat(JSON.writeValueAsString(FanoutProblems.members(problem))).endsWith("\"detail\":\"The request"
                + " waited 1700 ms to run (for a request thread or a carrier), past its deadline of 1500 ms, and was"
                + " not started\",\"queuedMs\":1700,\"deadlineMs\":1500}");
    }

    @Test
    void membersKeepAnInstanceAndLeaveOutNullsAnUnsetTypeAmongThem() {
        ProblemDetail problem = ProblemDetail.forStatus(HttpStatus.BAD_GATEWAY);
        problem.setInstance(URI.create("/backoffice/api/v1/backoffice/orders"));
        problem.setProperty("downstream", null);

        assertThat(JSON.writeValueAsString(FanoutProblems.members(problem))).isEqualTo("{\"title\":\"Bad Gateway\","
                + "\"status\":502,\"instance\":\"/backoffice/api/v1/backoffice/orders\"}");
    }
}
