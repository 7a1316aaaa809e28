package lab.fanout.main.web;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;

import io.micrometer.core.instrument.MeterRegistry;
import lab.fanout.main.client.Downstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;

import static com.github.tomakehurst.wiremock.client.WireMock.exactly;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The bounded pool at 2 threads and a queue of 1 (issue 37 item 5): one request's three calls fill it, two running and
 * one queued, so while they wait for their slow downstreams each further request is answered 503 {@code bulkhead-full}
 * at once, naming the pool, with {@code Retry-After}, and without a downstream call. The first request is answered
 * 200, after its queued call waited for a thread, and a request after the burst is served. The strategy is named as
 * a caller names it, so that this test compiles, and fails, against main-service without the strategy (no pool's
 * meters; its requests would be answered 400).
 */
@TestPropertySource(properties = {"fanout.bounded-pool.threads=2", "fanout.bounded-pool.queue=1",
        "fanout.bounded-pool.retry-after=2s"})
class BoundedPoolIntegrationTest extends FanoutIntegrationTest {

    private static final String STRATEGY = "completableFutureWithBoundedPool";
    /** Long enough for the burst to be answered while the first request's first two calls run. */
    private static final int CALL_MS = 2000;
    private static final int BURST = 6;
    /** Per class, not per JVM: {@link NettyBoundedPoolIntegrationTest} runs these tests again. */
    private static ExecutorService background;

    @Autowired
    MeterRegistry meters;

    @BeforeAll
    static void openBackground() {
        background = Executors.newVirtualThreadPerTaskExecutor();
    }

    @AfterAll
    static void closeBackground() {
        background.close();
    }

    @Test
    void pastItsThreadsAndQueueAnswers503BulkheadFullNamingThePoolAndKeepsServing() {
        serveAll(CALL_MS);
        CompletableFuture<Answer> first = CompletableFuture.supplyAsync(this::boundedPool, background);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> gauge("executor.active") == 2 && gauge("executor.queued") == 1);

        List<Answer> refused = IntStream.range(0, BURST)
                .mapToObj(i -> CompletableFuture.supplyAsync(this::boundedPool, background)).toList()
                .stream().map(CompletableFuture::join).toList();

        for (Answer answer : refused) {
            assertThat(answer).hasStatus(HttpStatus.SERVICE_UNAVAILABLE)
                    .hasContentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON).hasHeader("Retry-After", "2")
                    .hasHeader(Backoffice.STRATEGY_HEADER, STRATEGY);
            assertThat(answer).bodyJson().extractingPath("$.type").isEqualTo(PROBLEMS + "bulkhead-full");
            assertThat(answer).bodyJson().extractingPath("$.strategy").isEqualTo(STRATEGY);
            assertThat(answer).bodyJson().extractingPath("$.downstream").isEqualTo("orders-service");
            assertThat(answer).bodyJson().extractingPath("$.pool.name").isEqualTo(STRATEGY);
            assertThat(answer).bodyJson().extractingPath("$.pool.threads").isEqualTo(2);
            assertThat(answer).bodyJson().extractingPath("$.pool.queueCapacity").isEqualTo(1);
            assertThat(answer).bodyJson().extractingPath("$.pool.queued").isEqualTo(1);
            assertThat(answer.millis()).as("answered at once, not after a call").isLessThan(CALL_MS / 2);
        }
        Answer admitted = first.join();
        assertThat(admitted).hasStatusOk();
        assertThat(admitted.millis()).as("its third call waited for one of the two threads").isGreaterThanOrEqualTo(
                2L * CALL_MS);
        for (Downstream downstream : Downstream.values()) {
            server(downstream).verify(exactly(1), getRequestedFor(urlPathEqualTo(path(downstream))));
        }
        assertThat(meters.get("fanout.bounded.pool.rejected").tag("name", STRATEGY).functionCounter().count())
                .isEqualTo(BURST);
        serveAll(0);
        assertThat(boundedPool()).as("served after the burst").hasStatusOk();
    }

    /** The pool's size where the harness reads its bound, and the metrics the dashboard's "Bounded pool" panel reads. */
    @Test
    void publishesItsSizeAtInfoAndItsGaugesAndRefusalsAtPrometheus(@LocalManagementPort int managementPort) {
        RestTestClient management = RestTestClient.bindToServer().baseUrl("http://localhost:" + managementPort).build();
        management.get().uri("/actuator/info").exchange().expectStatus().isOk().expectBody()
                .jsonPath("$.knobs['fanout.bounded-pool'].threads").isEqualTo(2)
                .jsonPath("$.knobs['fanout.bounded-pool'].queue").isEqualTo(1);
        String scrape = management.get().uri("/actuator/prometheus").exchange().expectStatus().isOk()
                .returnResult(String.class).getResponseBody();
        for (String metric : List.of("executor_active_threads", "executor_queued_tasks", "executor_pool_max_threads",
                "fanout_bounded_pool_rejected_total")) {
            assertThat(scrape).as(metric).containsPattern("(?m)^" + metric + "\\{[^}]*name=\"" + STRATEGY + "\"");
        }
    }

    private Answer boundedPool() {
        return backoffice("concurrency=" + STRATEGY);
    }

    private double gauge(String name) {
        return meters.get(name).tag("name", STRATEGY).gauge().value();
    }
}
