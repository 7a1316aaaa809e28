package lab.fanout.main.web;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A fake downstream in a process of its own ({@code src/test/resources/downstream-process/CatalogueServer.java}),
 * which a test can really freeze ({@code kill -STOP}: the kernel still accepts connections into its backlog, nothing
 * answers) and let go on ({@code kill -CONT}). Linux (or any system with {@code kill}).
 */
final class DownstreamProcess implements AutoCloseable {

    private static final Path SERVER = Path.of("src", "test", "resources", "downstream-process", "CatalogueServer.java");

    private final Process process;
    private final int port;

    /** Starts it and waits until it listens (a few seconds: the JDK compiles the source first). */
    DownstreamProcess(Path catalogue) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        process = new ProcessBuilder(java, SERVER.toString(), catalogue.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (line == null) {
            throw new IOException("the downstream process ended before it listened: exit " + process.exitValue());
        }
        port = Integer.parseInt(line.strip());
    }

    String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** SIGSTOP: the process stops where it is; connections it has not accepted queue in the kernel. */
    void freeze() throws IOException, InterruptedException {
        signal("STOP");
        // kill(2) returns before every thread has stopped: wait until /proc shows each one stopped ('T')
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!stopped()) {
            if (System.nanoTime() > until) {
                throw new IOException("kill -STOP " + process.pid() + ": its threads still run after 5 s");
            }
            Thread.sleep(5);
        }
    }

    private boolean stopped() throws IOException {
        try (var tasks = java.nio.file.Files.list(Path.of("/proc", String.valueOf(process.pid()), "task"))) {
            for (Path task : tasks.toList()) {
                String stat = java.nio.file.Files.readString(task.resolve("stat"));
                char state = stat.charAt(stat.lastIndexOf(')') + 2);   // the field after "(comm)"
                if (state != 'T' && state != 't') {
                    return false;
                }
            }
            return true;
        } catch (java.nio.file.NoSuchFileException e) {
            return true;   // a thread that ended meanwhile runs no more
        }
    }

    /** SIGCONT: it goes on, and answers what queued meanwhile. */
    void resume() throws IOException, InterruptedException {
        signal("CONT");
    }

    @Override
    public void close() throws Exception {
        signal("CONT");   // a stopped process would not act on SIGKILL's aftermath (its reaping) until continued
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    private void signal(String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, String.valueOf(process.pid())).inheritIO().start();
        if (!kill.waitFor(5, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IOException("kill -" + name + " " + process.pid() + " failed");
        }
    }
}
