package lab.fanout.bench.system;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A local Prometheus (Debian package {@code prometheus}) on 127.0.0.1:9090, scraping {@code ./lab up}'s services. */
public final class Prometheus {

    public static final int PORT = 9090;
    public static final URI URL = URI.create("http://127.0.0.1:" + PORT);
    static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    /**
     * Keeps the exemplars on the services' histogram buckets (a sampled request's trace id, with {@code ./lab up
     * --with-zipkin}), as the cluster's Prometheus does: {@code /api/v1/query_exemplars}, Grafana's links to traces.
     */
    static final String EXEMPLARS = "--enable-feature=exemplar-storage";
    private static final Pattern VERSION = Pattern.compile("version (\\d+)\\.(\\d+)");

    private Prometheus() {
    }

    /**
     * Micrometer puts a sampled request's exemplar on a timer's {@code _count} line too, and a Prometheus before 2.43
     * drops the whole scrape for it ("metric name ..._count does not support exemplars", prometheus#11984); Debian 12
     * ships 2.42. With such a one the services must write no exemplars, or it scrapes nothing while they sample.
     *
     * @return the services' Spring properties for the prometheus on PATH: exemplars off before 2.43, else none
     */
    public static Map<String, String> exemplarProperties(Path workDir) {
        boolean old = Processes.output(workDir, Duration.ofSeconds(10), "prometheus", "--version")
                .map(Prometheus::before243).orElse(false);
        return old ? Map.of("management.tracing.exemplars.include", "none") : Map.of();
    }

    /** @param versionOutput {@code prometheus --version}'s, e.g. {@code prometheus, version 2.42.0+ds (branch: ...} */
    static boolean before243(String versionOutput) {
        Matcher m = VERSION.matcher(versionOutput);
        return m.find() && (Integer.parseInt(m.group(1)) < 2
                || Integer.parseInt(m.group(1)) == 2 && Integer.parseInt(m.group(2)) < 43);
    }

    /**
     * Starts it detached and waits for {@code /-/ready}.
     *
     * @throws IllegalStateException prometheus not on PATH (message: the install line), port 9090 busy, or not ready
     *                               within 60 s (message: the last lines of its log)
     */
    public static Process start(Path config, Path dataDir, Path log, Path workDir) {
        if (!Processes.onPath("prometheus")) {
            throw new IllegalStateException("prometheus is not installed: apt-get install -y prometheus");
        }
        Ports.requireFree(Map.of("prometheus", PORT));
        if (!Files.isRegularFile(config)) {
            throw new IllegalStateException(config + " is missing");
        }
        Process p = Processes.spawn(CpuGroups.onLoadSide(List.of("prometheus", "--config.file=" + config,
                "--storage.tsdb.path=" + dataDir, "--web.listen-address=127.0.0.1:" + PORT, EXEMPLARS)), workDir, log,
                true, false);
        boolean answered = Poll.reached(READY_TIMEOUT, Duration.ofMillis(250),
                () -> !p.isAlive() || Http.get(URL.resolve("/-/ready"), Duration.ofSeconds(2)).isPresent());
        if (!answered || !p.isAlive()) {
            p.destroy();
            throw new IllegalStateException("prometheus did not get ready; last lines of " + log + ":\n"
                    + Logs.tail(log, 15));
        }
        return p;
    }
}
