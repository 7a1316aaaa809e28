package lab.fanout.main.web;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;
import lab.fanout.main.admission.Admission;
import lab.fanout.main.client.Downstream;
import lab.fanout.main.strategy.StrategyName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;

import static com.github.tomakehurst.wiremock.client.WireMock.exactly;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Admission control at a lowered limit of {@value #LIMIT} requests in flight, for every strategy: while that many
 * wait for their slow calls, every further request is answered 429 {@code overloaded} with {@code Retry-After}, before
 * the admitted ones and without a downstream call, and on a connection Tomcat keeps open (it closes one after any
 * 503, so each refusal would cost its client a reconnect: docs/overload.md, "Which status"); once they are answered, a request is admitted again. The reactive
 * strategy's requests keep their permits until their async answer is written, not only while the request thread
 * runs. The deadline is raised: on 2 cores the common pool has one worker, and {@code completableFuture}'s four
 * requests make their twelve calls one after another. The refused requests' own count of requests in flight is read
 * from their answers: this test's HTTP client completes its calls on that same common pool, so on 2 cores it sees
 * the refusals only seconds later, behind the strategy's calls.
 * <p>
 * The refusals count in {@code http.server.requests} under the endpoint's route template, status 429, outcome
 * CLIENT_ERROR, as the admitted requests do under it: Spring MVC never matches a refused request, and without the
 * filter naming the route its {@code uri} read {@code UNKNOWN}, outside every dashboard panel that selects
 * {@code /backoffice/}.
 * <p>
 * A refusal's body is compared whole, as a string: the members in problem+json order (type, title, status, detail,
 * then why), no {@code instance}, no nulls, whichever server writes it.
 */
@ActiveProfiles("virtual")
@TestPropertySource(properties = {"fanout.admission.max-in-flight=" + AdmissionIntegrationTest.LIMIT,
        "fanout.deadline=30s"})
class AdmissionIntegrationTest extends FanoutIntegrationTest {

    static final int LIMIT = 4;
    private static final int REFUSED = 6;
    private static final int CALL_MS = 1000;
    /** One per test class that runs these tests (this one, NettyAdmissionIntegrationTest): closed after each. */
    private static ExecutorService background;

    @Autowired
    Admission admission;

    @Autowired
    MeterRegistry registry;

    @BeforeAll
    static void openBackground() {
        background = Executors.newVirtualThreadPerTaskExecutor();
    }

    @AfterAll
    static void closeBackground() {
        background.close();
    }

    @ParameterizedTest
    @EnumSource(StrategyName.class)
    void pastTheLimitAnswers429OverloadedAtOnceOnAKeptConnectionWithoutCallingADownstream(StrategyName strategy) {
        serveAll(CALL_MS);
        List<CompletableFuture<Answer>> admitted = IntStream.range(0, LIMIT)
                .mapToObj(i -> CompletableFuture.supplyAsync(() -> backoffice(strategy), background)).toList();
        await().atMost(Duration.ofSeconds(5)).until(() -> admission.inFlight() == LIMIT);

        List<Answer> refused = IntStream.range(0, REFUSED)
                .mapToObj(i -> CompletableFuture.supplyAsync(() -> backoffice(strategy), background)).toList()
                .stream().map(CompletableFuture::join).toList();

        for (Answer answer : refused) {
            assertThat(answer).hasStatus(HttpStatus.TOO_MANY_REQUESTS)
                    .hasContentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON).hasHeader("Retry-After", "1");
            assertThat(answer.header(HttpHeaders.CONNECTION)).as("Connection header of a refusal")
                    .isNotEqualToIgnoringCase("close");
            assertThat(answer).bodyJson().extractingPath("$.status").isEqualTo(429);
            assertThat(answer).bodyJson().extractingPath("$.type").isEqualTo(PROBLEMS + "overloaded");
            assertThat(answer).bodyJson().extractingPath("$.limit").isEqualTo(LIMIT);
            assertThat(answer).bodyJson().extractingPath("$.inFlight").as("in flight when refused").isEqualTo(LIMIT);
            assertThat(answer.body()).as("the refusal's body, member for member in problem+json order").isEqualTo(
                    "{\"type\":\"" + PROBLEMS + "overloaded\",\"title\":\"Overloaded\",\"status\":429,"
                            + "\"detail\":\"main-service holds " + LIMIT + " requests in flight at most and is at"
                            + " that limit; retry after 1 s\",\"limit\":" + LIMIT + ",\"inFlight\":" + LIMIT + "}");
        }
        for (CompletableFuture<Answer> answer : admitted) {
            assertThat(answer.join()).hasStatusOk();
        }
        for (Downstream downstream : Downstream.values()) {
            server(downstream).verify(exactly(LIMIT), getRequestedFor(urlPathEqualTo(path(downstream))));
        }
        // recorded when the observation filter's chain returns, which may be just after the client has the answer
        var refusals = registry.find("http.server.requests").tags("status", "429", "strategy", strategy.toString());
        await().atMost(Duration.ofSeconds(5)).until(() -> refusals.timers().stream().mapToLong(Timer::count).sum(),
                count -> count == REFUSED);
        assertThat(refusals.timers()).as("http.server.requests of the refusals").singleElement()
                .satisfies(timer -> assertThat(timer.getId().getTags()).contains(Tag.of("uri", ENDPOINT),
                        Tag.of("outcome", "CLIENT_ERROR")));
        // the reactive strategy's permit goes back when its async request completes, just after the answer is sent
        await().atMost(Duration.ofSeconds(5)).until(() -> admission.inFlight() == 0);
        serveAll(0);
        assertThat(backoffice(strategy)).as("admitted again").hasStatusOk();
    }

    /**
     * The effective limit and the knobs behind it at {@code /actuator/info}, where the harness and a reader find them:
     * the sizes as Spring reads them back ({@code DataSize}'s text), not as a bean's getters ({"negative":false}).
     */
    @Test
    void publishesTheLimitAndItsKnobsAtInfo(@LocalManagementPort int managementPort) {
        RestTestClient.bindToServer().baseUrl("http://localhost:" + managementPort).build()
                .get().uri("/actuator/info").exchange().expectStatus().isOk().expectBody()
                .jsonPath("$.admission.mode").isEqualTo("fixed")
                .jsonPath("$.admission.limit").isEqualTo(LIMIT)
                .jsonPath("$.knobs['fanout.admission'].bytesPerRequest").isEqualTo("262144B")
                .jsonPath("$.knobs['fanout.admission'].bytesPerConnection").isEqualTo("24576B")
                .jsonPath("$.knobs['fanout.admission'].expireQueued").isEqualTo(true)
                .jsonPath("$.knobs['fanout.admission'].refusalStatus").isEqualTo(429);
    }
}
