package lab.fanout.main;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.HotSpotDiagnosticMXBean.ThreadDumpFormat;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The threads alive in this JVM, virtual ones included, by the JDK's JSON thread dump (JDK 21+): it lists every
 * thread container (executors, structured task scopes) with its threads, which {@link Thread#getAllStackTraces()}
 * cannot do for virtual threads.
 */
public final class LiveThreads {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private LiveThreads() {
    }

    /** @return the names of live threads whose name starts with one of {@code prefixes}, or that run in a
     *          thread container whose name starts with one of them (a {@code StructuredTaskScope} names its
     *          container, its forked threads are unnamed) */
    public static List<String> matching(String... prefixes) {
        List<String> found = new ArrayList<>();
        for (JsonNode container : dump().path("threadDump").path("threadContainers")) {
            String containerName = container.path("container").asString();
            for (JsonNode thread : container.path("threads")) {
                String name = thread.path("name").asString();
                for (String prefix : prefixes) {
                    if (name.startsWith(prefix) || containerName.startsWith(prefix)) {
                        found.add(containerName + ": '" + name + "'");
                        break;
                    }
                }
            }
        }
        return found;
    }

    /**
     * Writes the JSON thread dump of this JVM to {@code target/thread-dumps/}, for a test that gives up waiting: what
     * every thread (virtual ones in their containers) was doing at that moment.
     *
     * @param reason a file-name-safe word for the dump's name
     * @return the dump's path
     */
    public static Path dumpToTarget(String reason) {
        try {
            Path dir = Files.createDirectories(Path.of("target", "thread-dumps"));
            Path file = dir.resolve(reason + "-" + System.currentTimeMillis() + ".json").toAbsolutePath();
            ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                    .dumpThreads(file.toString(), ThreadDumpFormat.JSON);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode dump() {
        try {
            Path dir = Files.createTempDirectory("threads");
            Path file = dir.resolve("dump.json");   // dumpThreads refuses an existing file
            try {
                ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                        .dumpThreads(file.toString(), ThreadDumpFormat.JSON);
                return JSON.readTree(file.toFile());
            } finally {
                Files.deleteIfExists(file);
                Files.delete(dir);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
