package lab.fanout.main.web;

import java.util.List;

import lab.fanout.main.client.Downstream;
import lab.fanout.main.strategy.StrategyName;
import org.junit.jupiter.api.Test;

import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;

import static com.github.tomakehurst.wiremock.client.WireMock.exactly;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link QueuedPastDeadlineIntegrationTest}'s six requests with admission {@code off}, the lab's baseline: nothing is
 * shed, so the two that waited past the deadline for a thread are still started and answered 200.
 */
@ActiveProfiles("platform")
@TestPropertySource(properties = {"server.tomcat.threads.max=" + QueuedPastDeadlineIntegrationTest.THREADS,
        "fanout.deadline=" + QueuedPastDeadlineIntegrationTest.DEADLINE_MS + "ms", "fanout.admission.mode=off"})
class QueuedWithAdmissionOffIntegrationTest extends FanoutIntegrationTest {

    private static final int CALL_MS = 1000;

    @Test
    void aRequestThatWaitedPastItsDeadlineIsStillServed() {
        serveAll(CALL_MS);
        int requests = 3 * QueuedPastDeadlineIntegrationTest.THREADS;

        List<Answer> answers = backofficeAtOnce(requests, StrategyName.SCOPE_FORK);

        assertThat(answers).allSatisfy(answer -> assertThat(answer).hasStatusOk());
        for (Downstream downstream : Downstream.values()) {
            server(downstream).verify(exactly(requests), getRequestedFor(urlPathEqualTo(path(downstream))));
        }
    }
}
