package lab.fanout.reliability;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.system.LocalSystem;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The thread ceiling on a real limit (gh-23 item 3): the packaged main-service is moved into a cgroup v1 pids group
 * whose {@code pids.max} leaves room for {@link #MARGIN} more threads, fewer than a wide thread-per-task request needs.
 * That request gets 503 {@code thread-limit} (the JVM's {@code OutOfMemoryError: unable to create native thread}),
 * nothing stays leased, and scopeFork, on virtual threads, still answers 200 under the same limit. The process goes
 * back to its own group and the test's group is removed afterwards, whatever happened.
 * <p>
 * Root ignores {@code ulimit -u}, so the limit is a pids cgroup. Skipped, saying why, where
 * {@code /sys/fs/cgroup/pids} is missing or not writable (not Linux, not root, cgroup v2 only).
 */
class ThreadCeilingIT {

    private static final Path PIDS = Path.of("/sys/fs/cgroup/pids");
    /** Threads main-service may start beyond those it has: well below the 3 x 32 calls of a width-32 request. */
    private static final int MARGIN = 20;
    private static final String ENDPOINT = "/backoffice/api/v1/backoffice/orders?concurrency=";

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void aWideThreadPerTaskRequestGets503AndTheOtherStrategiesAnswer() throws Exception {
        assumeTrue(Files.isWritable(PIDS.resolve("cgroup.procs")), PIDS + " (cgroup v1 pids controller) is missing or"
                + " not writable: this test needs root on a cgroup v1 host to limit main-service's threads");
        LocalSystem system = RunningServices.get();
        long pid = system.pids().get(ServiceDefaults.MAIN);
        URI management = system.managementUrl(ServiceDefaults.MAIN);
        // warm: the first requests load classes, and the JIT may start compiler threads
        assertThat(get(system, "completableFutureWithThreadTaskExecutor&latencyMs=0").statusCode()).isEqualTo(200);
        assertThat(get(system, "scopeFork&latencyMs=0").statusCode()).isEqualTo(200);

        Path group = PIDS.resolve("fanout-lab-thread-ceiling-" + pid);
        Path home = PIDS.resolve(ownGroup(pid));
        Files.createDirectory(group);
        try {
            Files.writeString(group.resolve("pids.max"), String.valueOf(threads(pid) + MARGIN));
            Files.writeString(group.resolve("cgroup.procs"), String.valueOf(pid));   // all its threads move

            HttpResponse<String> refused = get(system, "completableFutureWithThreadTaskExecutor&width=32"
                    + "&latencyMs=1000");
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
            assertThat(refused.body()).contains("https://fanout-lab.dev/problems/thread-limit",
                    "unable to create native thread");
            assertThat(Long.parseLong(Files.readString(group.resolve("pids.events")).strip().split(" ")[1]))
                    .as("threads the limit refused (pids.events)").isPositive();
            assertThat(Metrics.sum(management, "httpcomponents_httpclient_pool_total_connections",
                    "state=\"leased\"")).as("pooled connections leased once answered").isZero();

            HttpResponse<String> served = get(system, "scopeFork&width=32&latencyMs=0");
            assertThat(served.statusCode()).as("scopeFork under the same limit: " + served.body()).isEqualTo(200);
        } finally {
            Files.writeString(home.resolve("cgroup.procs"), String.valueOf(pid));
            Files.delete(group);
        }
        assertThat(get(system, "completableFutureWithThreadTaskExecutor&width=8&latencyMs=0").statusCode())
                .as("back in its own group").isEqualTo(200);
    }

    private HttpResponse<String> get(LocalSystem system, String query) throws Exception {
        return http.send(HttpRequest.newBuilder(system.mainBaseUrl().resolve(ENDPOINT + query)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** @return the process's threads now */
    private static long threads(long pid) throws IOException {
        try (Stream<Path> tasks = Files.list(Path.of("/proc", String.valueOf(pid), "task"))) {
            return tasks.count();
        }
    }

    /** @return the process's pids group relative to the controller's root, e.g. {@code ""} for the root itself */
    private static String ownGroup(long pid) throws IOException {
        return Files.readAllLines(Path.of("/proc", String.valueOf(pid), "cgroup")).stream()
                .map(line -> line.split(":", 3)).filter(f -> f[1].equals("pids")).map(f -> f[2].substring(1))
                .findFirst().orElse("");
    }
}
