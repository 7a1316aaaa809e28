package lab.fanout.orders.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * A PostgreSQL that a test can stop and start again under a running orders-service (given to it as the external
 * server, {@code orders.db.url}): zonky's embedded server on a fixed free port, with a data directory that survives a
 * stop, so that a restart finds the migrated catalogue in place. Shared by orders-service's
 * {@code PostgresStoreFailureTest} and reliability-tests' {@code OrdersPostgresStoreIT} through orders-service's
 * test jar. {@link #close()} stops it and deletes the data directory.
 */
public final class RestartablePostgres implements AutoCloseable {

    private final Path dataDir;
    private final int port;
    private EmbeddedPostgres server;

    private RestartablePostgres(Path dataDir, int port) {
        this.dataDir = dataDir;
        this.port = port;
    }

    /**
     * Runs {@code initdb} in a new temporary directory and starts the server.
     *
     * @param prefix the temporary directory's name prefix
     */
    public static RestartablePostgres start(String prefix) throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        RestartablePostgres database = new RestartablePostgres(Files.createTempDirectory(prefix), port);
        database.startAgain();
        return database;
    }

    /** @return the URL for {@code orders.db.url}: database and user {@code postgres}, trusted, no password */
    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres";
    }

    public Path dataDir() {
        return dataDir;
    }

    public boolean running() {
        return server != null;
    }

    /** Starts the stopped server on its data (the same port); does nothing while it runs. */
    public void startAgain() throws IOException {
        if (server == null) {
            server = EmbeddedPostgres.builder().setPort(port).setDataDirectory(dataDir).setCleanDataDirectory(false)
                    .setRegisterShutdownHook(false).setPGStartupWait(Duration.ofSeconds(60)).start();
        }
    }

    /** Stops the server (a fast shutdown: its clients' connections break); the data stays. */
    public void stop() throws IOException {
        if (server != null) {
            server.close();
            server = null;
        }
    }

    /** @return the postmaster (first line of its pid file) and its children: one backend per connection */
    public List<Long> serverProcesses() throws IOException {
        long postmaster = Long.parseLong(Files.readAllLines(dataDir.resolve("postmaster.pid")).getFirst().trim());
        ProcessHandle handle = ProcessHandle.of(postmaster).orElseThrow();
        return Stream.concat(Stream.of(handle), handle.descendants()).map(ProcessHandle::pid).toList();
    }

    @Override
    public void close() throws IOException {
        stop();
        try (Stream<Path> files = Files.walk(dataDir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }
}
