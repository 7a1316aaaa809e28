package lab.fanout.main.web;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import lab.fanout.main.client.Downstream;
import lab.fanout.main.config.FanoutProperties;
import lab.fanout.main.server.servlet.AsyncTimeoutConfig;
import lab.fanout.main.strategy.StrategyName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.util.ReflectionTestUtils;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What is new with the reactive strategy: its handler returns a {@code Mono}, so the request thread is released
 * while the calls run. Under the {@code platform} profile with 2 request threads, 8 concurrent requests whose calls
 * take 1 s each finish in about one latency when reactive, and need 4 rounds of it when a blocking strategy holds a
 * request thread per request (the control that shows the first test can fail). Also its metrics: WebClient has its
 * own observation convention type, and its own pool.
 */
@ActiveProfiles("platform")
@TestPropertySource(properties = {"server.tomcat.threads.max=2", "server.tomcat.threads.min-spare=2",
        "fanout.reactive.client=httpclient5"})   // the knob's other client: its async pool and I/O threads' meters
class ReactiveIntegrationTest extends FanoutIntegrationTest {

    private static final int REQUEST_THREADS = 2;
    private static final int REQUESTS = 8;
    private static final int LATENCY_MS = 1000;
    /** Fewer rounds than a thread-bound strategy needs (4): 2 s of room for a busy machine. */
    private static final int ROUNDS_ALLOWED = 3;

    private static final ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor();

    @Autowired
    MeterRegistry registry;

    @Autowired
    RequestMappingHandlerAdapter mvc;

    @Autowired
    FanoutProperties properties;

    @AfterAll
    static void closeCallers() {
        callers.close();
    }

    /**
     * Tomcat's own async timeout (30 s) ended reactive requests with a generic 503 before a longer deadline (the
     * footprint preset's 150 s): the async timeout must outlast the deadline, so that its 504 problem comes first.
     */
    @Test
    void theAsyncTimeoutOutlastsTheDeadline() {
        assertThat(ReflectionTestUtils.getField(mvc, "asyncRequestTimeout"))
                .isEqualTo(properties.deadline().plus(AsyncTimeoutConfig.MARGIN).toMillis());
    }

    @Test
    void reactiveRequestsHoldNoRequestThreadWhileTheirCallsRun() {
        serveAll(LATENCY_MS);

        Duration all = concurrently(StrategyName.REACTIVE);

        assertThat(all.toMillis()).as("%d requests on %d request threads", REQUESTS, REQUEST_THREADS)
                .isLessThan((long) ROUNDS_ALLOWED * LATENCY_MS);
    }

    @Test
    void aBlockingStrategyHoldsARequestThreadPerRequest() {
        serveAll(LATENCY_MS);

        Duration all = concurrently(StrategyName.SCOPE_FORK);

        assertThat(all.toMillis()).as("%d requests on %d request threads", REQUESTS, REQUEST_THREADS)
                .isGreaterThanOrEqualTo((long) REQUESTS / REQUEST_THREADS * LATENCY_MS);
    }

    /**
     * The same {@code client.name} ({@code client_name} in Prometheus) and path-only {@code uri} as the blocking calls', whatever knobs are forwarded.
     * Counted before and after, since the blocking calls of the warm-up record the same series.
     */
    @Test
    void reactiveCallsAreTaggedWithTheDownstreamAndThePathAlone() {
        serveAll(0);
        Map<Downstream, Long> before = clientRequests();

        assertThat(backoffice("concurrency=reactive&latencyMs=0")).hasStatusOk();

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            Map<Downstream, Long> after = clientRequests();
            for (Downstream downstream : Downstream.values()) {
                assertThat(after.get(downstream) - before.get(downstream)).as("http.client.requests of " + downstream)
                        .isEqualTo(1);
            }
        });
        assertThat(registry.find("httpcomponents.httpclient.pool.total.max").tag("httpclient", "downstream-reactive")
                .gauge()).as("the async pool's gauges").isNotNull();
    }

    /**
     * The I/O reactor's threads, which run every reactive call: one per core (IOReactorConfig's default) plus the one
     * that started them, and the CPU they used. A dashboard panel reads these two.
     */
    @Test
    void theIoReactorThreadsAreCountedAndTheirCpuTimed() {
        serveAll(0);

        assertThat(backoffice("concurrency=reactive&latencyMs=0")).hasStatusOk();

        assertThat(registry.get("fanout.reactive.io.threads").gauge().value()).as("I/O dispatch threads + the starter")
                .isEqualTo(Runtime.getRuntime().availableProcessors() + 1);
        assertThat(registry.get("fanout.reactive.io.cpu").functionCounter().count()).as("CPU seconds of those threads")
                .isPositive();
    }

    /** @return the count of http.client.requests tagged with each downstream's name and catalogue path */
    private Map<Downstream, Long> clientRequests() {
        Map<Downstream, Long> counts = new EnumMap<>(Downstream.class);
        for (Downstream downstream : Downstream.values()) {
            counts.put(downstream, registry.find("http.client.requests").tag("client.name", downstream.serviceName())
                    .tag("uri", path(downstream)).timers().stream().mapToLong(Timer::count).sum());
        }
        return counts;
    }

    /** @return how long {@value #REQUESTS} concurrent requests took until the last was answered, each checked 200 */
    private Duration concurrently(StrategyName strategy) {
        long start = System.nanoTime();
        List<CompletableFuture<Answer>> answers = IntStream.range(0, REQUESTS)
                .mapToObj(i -> CompletableFuture.supplyAsync(() -> backoffice(strategy), callers)).toList();
        answers.forEach(answer -> assertThat(answer.join()).hasStatusOk()
                .hasHeader(Backoffice.THREAD_HEADER, "platform"));
        return Duration.ofNanos(System.nanoTime() - start);
    }
}
