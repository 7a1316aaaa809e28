package lab.fanout.orders.store;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The embedded server in a data directory of the lab's choosing ({@code orders.db.data-dir}, {@code .lab/} under
 * {@code ./lab up}): created there, deleted at stop, and a server that a killed orders-service (SIGKILL: no shutdown
 * hook ran) left running there is stopped by the next start, never leaked. The killed service is a child JVM, so
 * that the server outlives its parent as it would.
 */
class EmbeddedPostgresServerTest {

    @TempDir
    Path temp;

    @Test
    void runsInTheGivenDataDirectoryAndDeletesItAtStop() throws Exception {
        Path dataDir = temp.resolve("orders-db");
        long pid;
        try (EmbeddedPostgresServer server = EmbeddedPostgresServer.start(dataDir, 20)) {
            pid = server.pid().orElseThrow();
            assertThat(server.dataDir()).isEqualTo(dataDir.toAbsolutePath());
            assertThat(dataDir.resolve("postmaster.pid")).exists();
            assertThat(selectOne(server.jdbcUrl())).isEqualTo(1);
        }
        assertThat(dataDir).doesNotExist();
        await().atMost(Duration.ofSeconds(10)).until(() -> ProcessHandle.of(pid).isEmpty());
    }

    @Test
    void refusesADirectoryInUseAndStopsTheServerAKilledServiceLeftThere() throws Exception {
        Path dataDir = temp.resolve("orders-db");
        Process service = new ProcessBuilder(List.of(ProcessHandle.current().info().command().orElseThrow(),
                "--enable-preview", "-cp", System.getProperty("java.class.path"), ServerHolder.class.getName(),
                dataDir.toString())).redirectErrorStream(true).start();
        long orphan;
        try {
            orphan = awaitPid(service);

            assertThatThrownBy(() -> EmbeddedPostgresServer.start(dataDir, 20).close())
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("is in use by another running");

            service.destroyForcibly().waitFor(30, TimeUnit.SECONDS);   // SIGKILL: its server keeps running
            assertThat(ProcessHandle.of(orphan)).as("the server of the killed service").isPresent();
        } finally {
            service.destroyForcibly();
        }

        try (EmbeddedPostgresServer server = EmbeddedPostgresServer.start(dataDir, 20)) {
            assertThat(ProcessHandle.of(orphan)).as("the left-over server").isEmpty();
            assertThat(server.pid()).isPresent().get().isNotEqualTo(orphan);
            assertThat(selectOne(server.jdbcUrl())).isEqualTo(1);
        }
    }

    @Test
    void refusesToEmptyADirectoryThatIsNotPostgresql() throws IOException {
        Path notOurs = Files.createDirectories(temp.resolve("home"));
        Files.writeString(notOurs.resolve("notes.txt"), "keep me");

        assertThatThrownBy(() -> EmbeddedPostgresServer.start(notOurs, 20).close())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is neither empty nor a PostgreSQL data directory: refusing to empty it");
        assertThat(notOurs.resolve("notes.txt")).hasContent("keep me");
    }

    /** @return the server pid the child prints once its server runs */
    private static long awaitPid(Process service) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(service.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<Long> pid = CompletableFuture.supplyAsync(() -> {
            try {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    if (line.startsWith(ServerHolder.PID_PREFIX)) {
                        return Long.parseLong(line.substring(ServerHolder.PID_PREFIX.length()));
                    }
                }
                throw new IllegalStateException("the child exited without starting its server");
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        long found = pid.get(120, TimeUnit.SECONDS);
        // keep draining its output, so that its logging never blocks on a full pipe
        Thread.ofVirtual().start(() -> out.lines().forEach(line -> { }));
        return found;
    }

    private static int selectOne(String url) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url);
             ResultSet rows = connection.createStatement().executeQuery("SELECT 1")) {
            rows.next();
            return rows.getInt(1);
        }
    }

    /** The killed orders-service: starts a server in the directory it is given, says its pid, and waits. */
    static final class ServerHolder {

        static final String PID_PREFIX = "server-pid=";

        public static void main(String[] args) throws Exception {
            EmbeddedPostgresServer server = EmbeddedPostgresServer.start(Path.of(args[0]), 20);
            System.out.println(PID_PREFIX + server.pid().orElseThrow());
            System.out.flush();
            Thread.sleep(Duration.ofMinutes(10));
        }
    }
}
