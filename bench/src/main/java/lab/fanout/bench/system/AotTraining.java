package lab.fanout.bench.system;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.model.Strategy;
import lab.fanout.bench.system.LocalSystem.LaunchSpec;

/**
 * The training run of the AOT caches ({@link AotCache}): the four services from their extracted jars with
 * {@code -XX:AOTCacheOutput}, on free ports, a short bounded load through main-service that goes round every
 * strategy (so each one's classes and method profiles are in the cache), then a graceful stop, during which each JVM
 * writes its cache. Runs once per set of jars; about a minute on 2 busy cores.
 */
final class AotTraining {

    /** How long the training load runs, s (system property {@code lab.aotTrainingSeconds}, default 20). */
    static final int LOAD_SECONDS = Integer.parseInt(System.getProperty("lab.aotTrainingSeconds", "20"));
    /** Concurrent requests of the training load: enough to run the strategies' parallel paths, not a benchmark. */
    static final int CLIENTS = 8;
    /** Downstream latency while training, ms: short, so that the JVMs see many requests (the code paths are the same). */
    static final int LATENCY_MS = 5;
    /** Each JVM assembles its cache at exit (JEP 514 forks a second JVM for it): 5-10 s each here, more when busy. */
    static final Duration STOP_TIMEOUT = Duration.ofSeconds(180);
    static final String ORDERS_PATH = "/backoffice/api/v1/backoffice/orders";

    private AotTraining() {
    }

    /**
     * @param spec the knobs of the run that will use the caches (its profile and pool are trained; ports are free
     *             ones, the latency {@value #LATENCY_MS} ms, logs in {@code <logDir>/aot-training})
     * @throws IllegalStateException when a cache was not written (message: where to look)
     */
    static void run(LaunchSpec spec, PrintStream progress) {
        LaunchSpec training = spec.withKnobs(spec.profile(), spec.tomcatThreads(), spec.poolSize(), LATENCY_MS)
                .withFreePorts(true, spec.logDir().resolve("aot-training")).withAot(AotCache.Mode.TRAIN);
        progress.println("AOT cache: none for these jars yet, training one (start with -XX:AOTCacheOutput, "
                + LOAD_SECONDS + " s of load over every strategy, stop; logs in " + training.logDir() + ")");
        long start = System.nanoTime();
        long requests;
        try (LocalSystem system = LocalSystem.start(training, false, progress)) {
            requests = drive(system.mainBaseUrl(), Duration.ofSeconds(LOAD_SECONDS));
            progress.printf(Locale.ROOT, "  training load: %d requests; stopping the services, which write their caches ...%n", requests);
        }
        List<String> missing = new ArrayList<>();
        for (String service : ServiceDefaults.SERVICES) {
            if (!Files.isRegularFile(AotCache.cacheFile(AotCache.dir(spec.repoRoot(), service), service))) {
                missing.add(service);
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("the AOT training run wrote no cache for " + missing + ": see the end of "
                    + training.logDir() + "/<service>.log");
        }
        progress.printf(Locale.ROOT, "  AOT caches written in %.0f s to %s%n", (System.nanoTime() - start) / 1e9,
                AotCache.root(spec.repoRoot()));
    }

    /** @return answered requests; {@value #CLIENTS} clients, each sending its next request when answered, until {@code length} */
    private static long drive(URI mainBaseUrl, Duration length) {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long end = System.nanoTime() + length.toNanos();
        AtomicLong answered = new AtomicLong();
        List<Thread> clients = new ArrayList<>();
        Strategy[] strategies = Strategy.values();
        for (int c = 0; c < CLIENTS; c++) {
            int first = c;
            clients.add(Thread.ofVirtual().name("aot-training-" + c).start(() -> {
                for (int i = first; System.nanoTime() < end; i++) {
                    URI uri = mainBaseUrl.resolve(ORDERS_PATH + "?concurrency=" + strategies[i % strategies.length]);
                    try {
                        client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(15)).build(),
                                HttpResponse.BodyHandlers.discarding());
                        answered.incrementAndGet();
                    } catch (IOException e) {
                        // an error path is a path too; the load goes on until its end
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }));
        }
        for (Thread t : clients) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                clients.forEach(Thread::interrupt);
                throw new IllegalStateException("interrupted during the AOT training load", e);
            }
        }
        return answered.get();
    }
}
