package lab.fanout.reliability;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import lab.fanout.bench.driver.HeyDriver;
import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.system.LocalSystem;
import lab.fanout.bench.system.LocalSystem.LaunchSpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A burst past what the heap holds (docs/overload.md): main-service with a {@value #HEAP} heap, 2 s downstream
 * latency and a pool of 30,000, and {@value #CLIENTS} hey clients sending {@value #REQUESTS} scopeFork requests.
 * With adaptive admission control (Gradient2, under the heap's ceiling of {@value #HEAP} × 0.4 ÷ 256 KiB = 409 in
 * flight) every request is answered 200 or 429 overloaded, the 429s at once, the admitted within their deadline (at
 * most {@value #MAX_DEADLINE_ANSWERS} answered 504 at it), no more than the limit ever in flight, no
 * OutOfMemoryError, and a normal answer right after. Adaptive, not the default fixed limit: a fixed limit at the
 * ceiling holds the heap but not the deadline when the cores, not the heap, run out first (hey's clients retry each
 * refusal at once, on the same two cores): in a run with it, 400 of 6,000 requests were 504 and 113 got no answer in
 * 20 s (docs/overload.md). With
 * admission off the same burst ends in an OutOfMemoryError, and {@code -XX:+ExitOnOutOfMemoryError} ends the JVM
 * instead of leaving one that holds its port and answers nothing. Needs {@code hey} (apt-get install -y hey).
 */
class OverloadIT {

    private static final String HEAP = "256m";
    /** Below the heap's connection ceiling (256 MiB x 0.3 / 24 KiB = 3,276): past it clients wait to connect. */
    private static final int CLIENTS = 1500;
    private static final int REQUESTS = 4 * CLIENTS;
    private static final String QUERY = "/backoffice/api/v1/backoffice/orders?concurrency=scopeFork";
    /** main-service's deadline (10 s): an admitted request answers within it or gets 504. */
    private static final Duration DEADLINE = Duration.ofSeconds(10);
    /**
     * 504s allowed, 1 % of the requests: an admitted request whose downstream calls came back past the deadline,
     * answered with main-service's deadline problem, not lost. The three downstream JVMs share the two cores with
     * hey's clients and main-service's refusals, which no limit at main-service's door bounds (docs/overload.md): a
     * fresh-clone CI run of 9ab4eaa saw one (85 × 200, 5,914 × 429, 1 × 504). A fixed limit at the heap's ceiling,
     * which does not hold the deadline, gave 400 (and 113 without an answer).
     */
    private static final int MAX_DEADLINE_ANSWERS = REQUESTS / 100;
    /**
     * The mean time main-service spent on a 429 overloaded, ms ({@code http_server_requests_seconds} of status 429):
     * a refusal calls nothing and never reaches Spring MVC. What hey sees on top is the machine's queueing: its 1,500
     * clients retry each refusal at once, and with four JVMs on two cores the median refusal reached hey after
     * 1.7 s in a run with a 128 MiB heap (printed with the result, not asserted: it measures the load generator too).
     */
    private static final double REJECTION_MEAN_MS = 50;

    private static LocalSystem system;

    @BeforeAll
    static void start() {
        requireHey();
        system = LocalSystem.start(LaunchSpec.custom(RunningServices.REPO).freePorts(true)
                .logDir(RunningServices.REPO.resolve("reliability-tests/target/overload-logs")).poolSize(30_000)
                .latencyMs(2000).mainJvmArgs(heap()).build());
    }

    @AfterAll
    static void stop() {
        if (system != null) {
            system.close();
        }
    }

    @Test
    void withAdmissionABurstPastTheHeapIsShedAndMainServiceKeepsServing() throws Exception {
        List<String> adaptive = new ArrayList<>(heap());
        adaptive.add("-Dfanout.admission.mode=adaptive");
        system.apply(system.spec().toBuilder().mainJvmArgs(adaptive).build());
        URI management = system.mainManagementUrl();
        int limit = 409;   // the ceiling of the heap: the adaptive limit's top
        AtomicInteger peak = new AtomicInteger();
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
        sampler.scheduleAtFixedRate(() -> peak.accumulateAndGet(
                (int) Metrics.sum(management, "fanout_admission_in_flight", ""), Math::max), 0, 100, TimeUnit.MILLISECONDS);
        Hey.Result burst;   // printed below: the figures behind the assertions, for the build log
        try {
            burst = Hey.run(system.mainBaseUrl().resolve(QUERY), CLIENTS, REQUESTS);
        } finally {
            sampler.shutdownNow();
        }
        System.out.println("OverloadIT: " + burst + ", peak in flight " + peak.get() + " (limit's top " + limit + ")");

        assertThat(burst.byStatus().keySet()).as("statuses; " + burst).isSubsetOf(200, 429, 504);
        assertThat(burst.byStatus().getOrDefault(429, 0)).as("refused at the door; " + burst).isPositive();
        assertThat(burst.byStatus().getOrDefault(504, 0)).as("admitted past the deadline; " + burst)
                .isLessThanOrEqualTo(MAX_DEADLINE_ANSWERS);
        assertThat(burst.unanswered()).as("requests without an answer (timeouts, refused connections); " + burst)
                .isZero();
        assertThat(peak.get()).as("requests in flight, sampled every 100 ms").isPositive().isLessThanOrEqualTo(limit);
        double rejectionMeanMs = 1000 * Metrics.sum(management, "http_server_requests_seconds_sum", "status=\"429\"")
                / Metrics.sum(management, "http_server_requests_seconds_count", "status=\"429\"");
        assertThat(rejectionMeanMs).as("main-service's mean time per 429, ms; " + burst).isLessThan(REJECTION_MEAN_MS);
        // main-service's own clock: what hey sees on top is the wait before main-service starts the request (the
        // hand-over to a request thread on two busy cores, docs/overload.md), which no deadline of its own can cover;
        // a fan-out past the deadline would have been a 504, which the statuses above exclude. (A CI run of
        // 66bdbab: hey's slowest 200 took 10.9 s.)
        double slowest200 = 1000 * Metrics.sum(management, "http_server_requests_seconds_max",
                "status=\"200\",strategy=\"scopeFork\"");
        assertThat(slowest200).as("main-service's slowest 200, ms (a 2-minute window); hey saw %.0f ms",
                burst.maxMillis(200)).isPositive().isLessThan(DEADLINE.toMillis());
        assertThat(system.pids()).containsKey(ServiceDefaults.MAIN);
        assertThat(ProcessHandle.of(system.pids().get(ServiceDefaults.MAIN)).map(ProcessHandle::isAlive))
                .as("main-service alive").contains(true);
        assertThat(log()).doesNotContain("java.lang.OutOfMemoryError");   // the knobs line names -XX:+ExitOn...
        HttpResponse<String> after = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                system.mainBaseUrl().resolve(QUERY)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(after.statusCode()).as("a normal request right after the burst").isEqualTo(200);
    }

    @Test
    void withoutAdmissionTheSameBurstEndsTheJvmWithAnOutOfMemoryError() throws Exception {
        List<String> off = new ArrayList<>(heap());
        off.add("-Dfanout.admission.mode=off");
        system.apply(system.spec().toBuilder().mainJvmArgs(off).build());
        long pid = system.pids().get(ServiceDefaults.MAIN);

        Hey.run(system.mainBaseUrl().resolve(QUERY), CLIENTS, REQUESTS);

        await().atMost(Duration.ofSeconds(30)).until(() -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
        assertThat(log()).contains("Terminating due to java.lang.OutOfMemoryError");
    }

    /** Skips without hey and says so where the build output shows it; fails instead under CI=true (as RequiredTool). */
    private static void requireHey() {
        try {
            new HeyDriver().requireInstalled();
        } catch (IllegalStateException e) {
            assertThat("true".equalsIgnoreCase(System.getenv("CI"))).as(e.getMessage() + " (CI=true)").isFalse();
            System.out.println("SKIPPED OverloadIT: " + e.getMessage() + " (the check did not run; under CI=true this"
                    + " fails)");
            Assumptions.abort(e.getMessage());
        }
    }

    private static List<String> heap() {
        return List.of("-Xms" + HEAP, "-Xmx" + HEAP);
    }

    private static String log() throws IOException {
        return Files.readString(system.spec().logDir().resolve(ServiceDefaults.MAIN + ".log"));
    }

    /** hey -o csv: one row per answered request (response time in s, status); the others are missing from it. */
    static final class Hey {

        record Result(int requested, Map<Integer, List<Double>> millisByStatus) {

            Map<Integer, Integer> byStatus() {
                Map<Integer, Integer> counts = new TreeMap<>();
                millisByStatus.forEach((status, millis) -> counts.put(status, millis.size()));
                return counts;
            }

            int unanswered() {
                return requested - millisByStatus.values().stream().mapToInt(List::size).sum();
            }

            double p50Millis(int status) {
                List<Double> sorted = millisByStatus.getOrDefault(status, List.of()).stream().sorted().toList();
                return sorted.isEmpty() ? Double.NaN : sorted.get(sorted.size() / 2);
            }

            double maxMillis(int status) {
                return millisByStatus.getOrDefault(status, List.of()).stream().mapToDouble(d -> d).max().orElse(0);
            }

            @Override
            public String toString() {
                return "hey: " + requested + " requested, by status " + byStatus() + ", unanswered " + unanswered()
                        + ", median 429 " + p50Millis(429) + " ms, median 200 " + p50Millis(200) + " ms";
            }
        }

        static Result run(URI url, int clients, int requests) throws IOException, InterruptedException {
            Path csv = Files.createTempFile("overload", ".csv");
            try {
                Process hey = new ProcessBuilder("hey", "-c", Integer.toString(clients), "-n",
                        Integer.toString(requests), "-t", "20", "-o", "csv", url.toString())
                        .redirectOutput(csv.toFile()).redirectErrorStream(false).start();
                if (!hey.waitFor(5, TimeUnit.MINUTES)) {   // bounded: n requests of at most 20 s each per client
                    hey.destroyForcibly();
                    throw new IllegalStateException("hey ran past 5 minutes");
                }
                Map<Integer, List<Double>> byStatus = new TreeMap<>();
                for (String line : Files.readAllLines(csv)) {
                    String[] f = line.split(",");
                    if (f.length >= 7 && f[6].matches("\\d{3}")) {   // response-time,...,status-code,offset
                        byStatus.computeIfAbsent(Integer.valueOf(f[6]), s -> new ArrayList<>())
                                .add(Double.parseDouble(f[0]) * 1000);
                    }
                }
                return new Result(requests, byStatus);
            } finally {
                Files.deleteIfExists(csv);
            }
        }
    }
}
