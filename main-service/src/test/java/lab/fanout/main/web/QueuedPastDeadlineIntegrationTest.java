package lab.fanout.main.web;

import java.util.List;

import com.jayway.jsonpath.JsonPath;
import lab.fanout.main.client.Downstream;
import lab.fanout.main.strategy.StrategyName;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;

import static com.github.tomakehurst.wiremock.client.WireMock.exactly;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Platform request threads (with {@code fanout.admission.expire-queued} as by default), {@value #THREADS} of them, each request's
 * calls taking {@value #CALL_MS} ms, and a deadline
 * of {@value #DEADLINE_MS} ms: of six requests sent at once, two run at once, two wait about one call's time for a
 * thread (below the deadline: they run), and two wait about two calls' time, past the deadline: those are answered
 * {@code overloaded} without starting, and no downstream sees them. Margins: half a call's time (500 ms) on either
 * side of the deadline.
 * <p>
 * With {@code fanout.admission.refusal-status=503}, the knob's other value: those answers are 503, and Tomcat closes
 * their connections ({@code Connection: close}), the cost that made 429 the default (docs/overload.md, "Which status").
 */
@ActiveProfiles("platform")
@TestPropertySource(properties = {"server.tomcat.threads.max=" + QueuedPastDeadlineIntegrationTest.THREADS,
        "fanout.deadline=" + QueuedPastDeadlineIntegrationTest.DEADLINE_MS + "ms",
        "fanout.admission.refusal-status=503"})
class QueuedPastDeadlineIntegrationTest extends FanoutIntegrationTest {

    static final int THREADS = 2;
    static final int DEADLINE_MS = 1500;
    private static final int CALL_MS = 1000;

    @Test
    void aRequestThatWaitedForAThreadPastItsDeadlineIsAnsweredWithoutStarting() {
        serveAll(CALL_MS);

        List<Answer> answers = backofficeAtOnce(3 * THREADS, StrategyName.SCOPE_FORK);

        List<Answer> expired = answers.stream().filter(a -> a.status() == 503).toList();
        assertThat(answers.stream().filter(a -> a.status() == 200)).hasSize(2 * THREADS);
        assertThat(expired).hasSize(THREADS);
        for (Answer answer : expired) {
            assertThat(answer).hasStatus(HttpStatus.SERVICE_UNAVAILABLE)
                    .hasContentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON).hasHeader("Retry-After", "1")
                    .hasHeader(HttpHeaders.CONNECTION, "close");
            assertThat(answer).bodyJson().extractingPath("$.status").isEqualTo(503);
            assertThat(answer).bodyJson().extractingPath("$.type").isEqualTo(PROBLEMS + "overloaded");
            assertThat(answer).bodyJson().extractingPath("$.queuedMs").asNumber().satisfies(
                    queued -> assertThat(queued.longValue()).isGreaterThan(DEADLINE_MS));
            long queuedMs = JsonPath.parse(answer.body()).read("$.queuedMs", Long.class);
            assertThat(answer.body()).as("the refusal's body, member for member in problem+json order").isEqualTo(
                    "{\"type\":\"" + PROBLEMS + "overloaded\",\"title\":\"Overloaded\",\"status\":503,"
                            + "\"detail\":\"The request waited " + queuedMs + " ms to run (for a request thread or a"
                            + " carrier), past its deadline of " + DEADLINE_MS + " ms, and was not started\","
                            + "\"queuedMs\":" + queuedMs + ",\"deadlineMs\":" + DEADLINE_MS + "}");
        }
        for (Downstream downstream : Downstream.values()) {
            server(downstream).verify(exactly(2 * THREADS), getRequestedFor(urlPathEqualTo(path(downstream))));
        }
    }
}
