package lab.fanout.bench.system;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.model.Strategy;
import lab.fanout.bench.system.LocalSystem.LaunchSpec;

/**
 * JDK 25's ahead-of-time cache (JEP 483 loaded and linked classes, JEP 514 one-step creation, JEP 515 method
 * profiles): a training run ({@code -XX:AOTCacheOutput}) records what a service loads, links and profiles under load
 * and writes the cache at exit; later runs map it ({@code -XX:AOTCache}) and start warmer. The JVM takes a cache only
 * for the classpath it was made with, and not for classes in an executable jar's nested jars, so services run from
 * their jar extracted by Spring Boot ({@code -Djarmode=tools extract}) into {@code .lab/aot/<service>-<key>/}, the key
 * being the start of the jar's SHA-256: a rebuilt jar gets a new folder and training. Another JDK or other JVM flags
 * make the JVM log {@code Unable to map shared spaces} and start without the cache, which {@link #loadProblem} reports.
 */
public final class AotCache {

    /** OFF: the executable jar; from the extracted jar, TRAIN writes the cache at exit, USE maps it at start. */
    public enum Mode { OFF, TRAIN, USE }

    /** Hex digits of the jar's SHA-256 in the folder name. */
    static final int KEY_LENGTH = 12;
    /** How long the training load runs, s (system property {@code lab.aotTrainingSeconds}, default 20). */
    static final int TRAINING_SECONDS = Integer.parseInt(System.getProperty("lab.aotTrainingSeconds", "20"));
    /** Each JVM assembles its cache at exit (JEP 514 forks a second JVM for it): 5-10 s each here, more when busy. */
    static final Duration TRAINING_STOP_TIMEOUT = Duration.ofSeconds(180);
    /** Concurrent requests of the training load: enough for the strategies' parallel paths, not a benchmark. */
    private static final int TRAINING_CLIENTS = 8;
    /** Downstream latency while training, ms: short, so the JVMs see many requests (the code paths are the same). */
    private static final int TRAINING_LATENCY_MS = 5;

    private AotCache() {
    }

    /** @return {@code .lab/aot/<service>-<key>} for the jar as it is now */
    static Path dir(Path repoRoot, String service) {
        return repoRoot.resolve(".lab/aot").resolve(service + "-" + key(LocalSystem.jar(repoRoot, service)));
    }

    /** @return e.g. {@code .lab/aot/main-service-0123456789ab/main-service.aot} */
    static Path cacheFile(Path dir, String service) {
        return dir.resolve(service + ".aot");
    }

    /** @return whether every service has a cache for its jar as it is now */
    public static boolean trained(Path repoRoot) {
        return ServiceDefaults.SERVICES.stream().allMatch(s -> Files.isRegularFile(cacheFile(dir(repoRoot, s), s)));
    }

    /** @return the first {@value #KEY_LENGTH} hex digits of the file's SHA-256 */
    static String key(Path jar) {
        try (InputStream in = Files.newInputStream(jar)) {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            in.transferTo(new DigestOutputStream(OutputStream.nullOutputStream(), sha));
            return HexFormat.of().formatHex(sha.digest()).substring(0, KEY_LENGTH);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + jar, e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Extracts the service's jar into its folder unless done before, and removes the folders of its older jars.
     *
     * @param java the JVM that will run it, and Spring Boot's extract tool
     * @throws IllegalStateException when the extraction failed (message: the tool's output)
     */
    static Path prepare(Path repoRoot, String service, String java) {
        Path jar = LocalSystem.jar(repoRoot, service);
        Path dir = dir(repoRoot, service);
        if (Files.isRegularFile(dir.resolve(service + ".jar"))) {
            return dir;
        }
        try {
            try (Stream<Path> dirs = Files.list(Files.createDirectories(dir.getParent()))) {
                String older = service + "-[0-9a-f]{" + KEY_LENGTH + "}";
                for (Path old : dirs.filter(d -> d.getFileName().toString().matches(older) && !d.equals(dir))
                        .toList()) {
                    delete(old);
                }
            }
            Path tmp = Files.createTempDirectory(dir.getParent(), service + "-extracting");
            Processes.Result extract = Processes.run(List.of(java, "-Djarmode=tools", "-jar", jar.toString(), "extract",
                    "--destination", tmp.toString(), "--force"), null, Duration.ofSeconds(120));
            if (!extract.ok() || !Files.isRegularFile(tmp.resolve(service + ".jar"))) {
                delete(tmp);
                throw new IllegalStateException("cannot extract " + jar + " for its AOT cache (java -Djarmode=tools"
                        + " -jar " + jar.getFileName() + " extract): " + extract.output().strip());
            }
            try {
                Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException | DirectoryNotEmptyException e) {
                delete(tmp);   // another ./lab extracted the same jar meanwhile: same bytes, keep theirs
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare " + dir, e);
        }
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /**
     * @param dir    the service's folder ({@link #prepare}): the extracted {@code <service>.jar}, its {@code lib/}
     * @param aotLog where a USE run logs what the JVM did with the cache, for {@link #loadProblem}
     * @return {@code [options..., -jar, jar]}
     */
    static List<String> launch(Mode mode, Path dir, String service, Path aotLog) {
        String jar = dir.resolve(service + ".jar").toString();
        return switch (mode) {
            case OFF -> throw new IllegalArgumentException("no AOT options without a cache");
            case TRAIN -> List.of("-XX:AOTCacheOutput=" + cacheFile(dir, service), "-jar", jar);
            case USE -> List.of("-XX:AOTCache=" + cacheFile(dir, service), "-Xlog:aot=info:file=" + aotLog, "-jar",
                    jar);
        };
    }

    /**
     * @param aotLog the {@code -Xlog:aot=info} file of a run with {@code -XX:AOTCache}
     * @return why the cache was not used (the JVM's first error or warning line), or empty when it was opened
     */
    static Optional<String> loadProblem(Path aotLog) {
        List<String> lines;
        try {
            lines = Files.readAllLines(aotLog);
        } catch (IOException e) {
            return Optional.of("no AOT log at " + aotLog);
        }
        Optional<String> problem = lines.stream().filter(l -> l.contains("[error") || l.contains("[warning"))
                .findFirst();
        if (problem.isPresent() || lines.stream().anyMatch(l -> l.contains("Opened AOT cache"))) {
            return problem;
        }
        return Optional.of("the JVM did not open its AOT cache (" + aotLog + ")");
    }

    /**
     * The training run: the four services with {@code -XX:AOTCacheOutput} on free ports, {@value #TRAINING_SECONDS} s
     * of bounded load through main-service that goes round every strategy (so each one's classes and profiles are in
     * the cache), then a graceful stop, during which each JVM writes its cache. About a minute on 2 busy cores.
     *
     * @param spec the knobs of the run that will use the caches (its profile and pool are trained; the latency is
     *             {@value #TRAINING_LATENCY_MS} ms, logs in {@code <logDir>/aot-training})
     * @throws IllegalStateException when a cache was not written (message: where to look)
     */
    static void train(LaunchSpec spec, PrintStream progress) {
        LaunchSpec training = spec.toBuilder().latencyMs(TRAINING_LATENCY_MS).freePorts(true)
                .logDir(spec.logDir().resolve("aot-training")).aot(Mode.TRAIN).build();
        progress.println("AOT cache: none for these jars yet, training one (start with -XX:AOTCacheOutput, "
                + TRAINING_SECONDS + " s of load over every strategy, stop; logs in " + training.logDir() + ")");
        long start = System.nanoTime();
        try (LocalSystem system = LocalSystem.start(training, false, progress)) {
            long requests = drive(system.mainBaseUrl(), Duration.ofSeconds(TRAINING_SECONDS));
            progress.printf(Locale.ROOT, "  training load: %d requests; stopping the services, which write their"
                    + " caches ...%n", requests);
        }
        List<String> missing = ServiceDefaults.SERVICES.stream()
                .filter(s -> !Files.isRegularFile(cacheFile(dir(spec.repoRoot(), s), s))).toList();
        if (!missing.isEmpty()) {
            throw new IllegalStateException("the AOT training run wrote no cache for " + missing + ": see the end of "
                    + training.logDir() + "/<service>.log");
        }
        progress.printf(Locale.ROOT, "  AOT caches written in %.0f s to %s%n", (System.nanoTime() - start) / 1e9,
                spec.repoRoot().resolve(".lab/aot"));
    }

    /** @return answered requests: {@value #TRAINING_CLIENTS} closed-loop clients until {@code length} has passed */
    private static long drive(URI mainBaseUrl, Duration length) {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long end = System.nanoTime() + length.toNanos();
        AtomicLong answered = new AtomicLong();
        Strategy[] strategies = Strategy.values();
        // close() waits for every client; an interrupt there cancels them
        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            IntStream.range(0, TRAINING_CLIENTS).forEach(c -> clients.submit(() -> {
                for (int i = c; System.nanoTime() < end; i++) {
                    URI uri = ServiceDefaults.ordersUrl(mainBaseUrl, strategies[i % strategies.length], "");
                    try {
                        client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(15)).build(),
                                HttpResponse.BodyHandlers.discarding());
                        answered.incrementAndGet();
                    } catch (IOException e) {
                        // an error path is a path too; the load goes on until its end
                    }
                }
                return null;
            }));
        }
        if (Thread.currentThread().isInterrupted()) {
            throw new IllegalStateException("interrupted during the AOT training load");
        }
        return answered.get();
    }
}
