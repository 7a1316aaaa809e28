package lab.fanout.main.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.http.Fault;
import lab.fanout.main.LiveThreads;
import lab.fanout.main.client.Downstream;
import lab.fanout.main.client.FanoutCallMeters;
import lab.fanout.main.strategy.StrategyName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.TestPropertySource;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Thousands of requests over every strategy with a mix of faults (errors, closed connections, response timeouts,
 * bodies dribbled past the deadline, a pool too small for the load) and hedged calls (whose losers are cancelled), then nothing may be left behind: no leased or
 * awaited pooled connection, no call in flight, no fan-out thread (virtual ones included), and no platform thread
 * that was not there before (bounded waits, polled on the test's own thread). Under the virtual profile (request threads are virtual), so every platform thread above the
 * baseline would be one the strategies made: the thread-per-task executor's {@code fanout-platform-N}.
 */
@TestPropertySource(properties = {"fanout.deadline=600ms", "fanout.response-timeout=250ms",
        "fanout.pool.max-total=48", "fanout.pool.max-per-route=48", "fanout.pool.acquire-timeout=50ms"})
class FanoutNoLeakTest extends FanoutIntegrationTest {

    private static final int REQUESTS = 2000;
    private static final int CONCURRENCY = 48;
    private static final Duration SETTLE = Duration.ofSeconds(15);
    /** The bounded pool's threads' names: the pool keeps them between calls, by design. */
    private static final String BOUNDED_POOL_THREADS = "fanout-pool-";

    /** What each request asks of its target; plain requests weigh four times as much as each fault. */
    private static final List<String> MIX = List.of("", "", "", "",
            "errorRate=1",          // 500 problem -> 502
            "closeRate=1",          // no response -> 502
            "tailMs=100",           // slow but in time -> 200
            "tailMs=400",           // beyond the 250 ms response timeout -> 504
            "dribbleMs=2000");      // chunks within the response timeout, body past the deadline -> 504 (watchdog)

    /** Hedging for the strategies that can: none half the time, else a second copy after 20 or 50 ms (issue 27). */
    private static final List<String> HEDGES = List.of("", "", "&hedgeAfterMs=20", "&hedgeAfterMs=50");

    /** HTTP/1.1, its work on virtual threads: no platform thread of the caller's own joins the thread counts. */
    private static HttpClient caller;   // per class: NettyFanoutNoLeakTest runs the test again

    @LocalServerPort
    int port;

    @Autowired
    FanoutCallMeters calls;

    @BeforeAll
    static void openCaller() {
        caller = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .executor(Executors.newVirtualThreadPerTaskExecutor()).build();
    }

    @AfterAll
    static void closeCaller() {
        caller.close();
    }

    @BeforeEach
    void fakes() {
        for (Downstream downstream : Downstream.values()) {
            fake(downstream);
        }
    }

    @Test
    void thousandsOfFaultyRequestsLeaveNoConnectionCallOrThreadBehind() {
        run(200, new Random(1));   // warm-up: thread pools (WireMock's, carriers, common pool) reach their size
        settled();
        List<String> baseline = platformThreads();

        Map<Integer, AtomicInteger> statuses = run(REQUESTS, new Random(42));

        assertThat(statuses).containsKeys(200, 502, 504).as("only 200, 502, 503 and 504")
                .satisfies(s -> assertThat(s.keySet()).isSubsetOf(200, 502, 503, 504));
        assertThat(statuses.values().stream().mapToInt(AtomicInteger::get).sum()).isEqualTo(REQUESTS);
        settled();
        await().atMost(SETTLE).pollInterval(Duration.ofMillis(200)).pollInSameThread().untilAsserted(() ->
                assertThat(platformThreads()).as("platform threads not there before").isSubsetOf(baseline));
    }

    /** @return how many requests ended with each status; each problem is checked to be problem+json */
    private Map<Integer, AtomicInteger> run(int requests, Random random) {
        Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
        Semaphore concurrent = new Semaphore(CONCURRENCY);
        StrategyName[] strategies = StrategyName.values();
        Downstream[] targets = Downstream.values();
        List<Future<?>> answers = new ArrayList<>();
        try (ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < requests; i++) {
                StrategyName strategy = strategies[random.nextInt(strategies.length)];
                String query = "concurrency=" + strategy
                        + "&faultTarget=" + targets[random.nextInt(targets.length)].timingName()
                        + "&" + MIX.get(random.nextInt(MIX.size()))
                        + (strategy == StrategyName.SEQUENTIAL ? "" : HEDGES.get(random.nextInt(HEDGES.size())));
                concurrent.acquireUninterruptibly();
                answers.add(callers.submit(() -> {
                    try {
                        HttpResponse<String> response = call(query);
                        if (response.statusCode() != 200) {
                            assertThat(response.headers().firstValue("Content-Type")).as(query)
                                    .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
                        }
                        statuses.computeIfAbsent(response.statusCode(), s -> new AtomicInteger()).incrementAndGet();
                    } finally {
                        concurrent.release();
                    }
                }));
            }
        }
        // gh-15 item 8: an assertion that failed inside a caller fails the test with its own message
        answers.stream().filter(answer -> answer.state() == Future.State.FAILED).findFirst().ifPresent(answer -> {
            throw new AssertionError(answer.exceptionNow().getMessage(), answer.exceptionNow());
        });
        return statuses;
    }

    /** Waits, bounded, until no connection is leased or awaited, no call runs and no fan-out thread lives. */
    private void settled() {
        await().atMost(SETTLE).pollInterval(Duration.ofMillis(100)).pollInSameThread().untilAsserted(() -> {
            assertPoolIdle();   // both pools, the reactive strategy's included
            assertThat(calls.inFlight()).as("calls in flight").isZero();
            assertThat(LiveThreads.matching("fanout-platform-", "fanout-virtual-", "fanout"))
                    .as("fan-out threads and scopes")
                    .allMatch(t -> t.contains("fanout-deadline-alarm") || t.contains(BOUNDED_POOL_THREADS));
        });
    }

    /**
     * @return names of live platform threads, without those that are not main-service's to manage: the fake
     * downstreams' Jetty threads ({@code qtp...}), the JDK's self-sizing ForkJoinPools (virtual-thread carriers and
     * the common pool add a worker to compensate for a blocked one and retire it after 30-60 s idle), the bounded
     * pool's threads (started as its calls arrive and kept, at most fanout.bounded-pool.threads; a call left running
     * on one counts in calls in flight) and the JVM's attach listener (started when a tool such as jcmd attaches)
     */
    private static List<String> platformThreads() {
        return Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                .filter(name -> !name.startsWith("qtp") && !name.startsWith("ForkJoinPool")
                        && !name.startsWith(BOUNDED_POOL_THREADS) && !name.equals("Attach Listener"))
                .sorted().toList();
    }

    /** Each knob of {@link #MIX} answered as the real downstreams do; a request without knobs gets the catalogue. */
    private static void fake(Downstream downstream) {
        serve(downstream, 0);
        stub(downstream, "errorRate", "1.0", aResponse().withStatus(500)
                .withHeader("Content-Type", "application/problem+json").withBody("{\"status\":500}"));
        stub(downstream, "closeRate", "1.0", aResponse().withFault(Fault.EMPTY_RESPONSE));
        stub(downstream, "tailMs", "100", okJson(catalogue(downstream)).withFixedDelay(100));
        stub(downstream, "tailMs", "400", okJson(catalogue(downstream)).withFixedDelay(400));
        stub(downstream, "dribbleMs", "2000", okJson(catalogue(downstream)).withChunkedDribbleDelay(20, 2000));
    }

    private static void stub(Downstream downstream, String knob, String value, ResponseDefinitionBuilder response) {
        server(downstream).stubFor(get(urlPathEqualTo(path(downstream))).atPriority(1)
                .withQueryParam(knob, equalTo(value)).willReturn(response));
    }

    private HttpResponse<String> call(String query) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + ENDPOINT + "?" + query))
                .timeout(Duration.ofSeconds(30)).build();
        try {
            return caller.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
