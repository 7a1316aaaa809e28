package lab.fanout.bench.system;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import lab.fanout.bench.model.ServiceDefaults;

/**
 * JDK 25's ahead-of-time cache (JEP 483 class loading and linking, JEP 514 one-step creation, JEP 515 method
 * profiles) for the four services. A training run ({@code -XX:AOTCacheOutput=<file>}) records what a service loads,
 * links and profiles while it serves load, and writes the cache when it exits; later runs map it
 * ({@code -XX:AOTCache=<file>}) and start with those classes already loaded and linked, and with the training's
 * method profiles, so the JIT compiles the hot paths sooner.
 * <p>
 * The JVM takes a cache only for the classpath it was made with, so a service runs from its jar extracted by Spring
 * Boot's own tool ({@code java -Djarmode=tools -jar <jar> extract}: the application jar plus {@code lib/}; classes
 * inside the nested jars of an executable jar cannot be cached). Both live in
 * {@code .lab/aot/<service>-<key>/}, where the key is the start of the jar's SHA-256: a rebuild that changes the jar
 * changes the key, so its cache is missing (stale) and the next {@code --aot} start trains again; the old folder is
 * removed then. A cache also goes stale with another JDK build or other JVM flags: the JVM then logs
 * {@code [error][aot] ... Unable to map shared spaces} and starts without it, which {@link #loadProblem} reports.
 */
public final class AotCache {

    /** What a service JVM does with its cache. */
    public enum Mode {
        /** the plain executable jar, no cache */
        OFF,
        /** extracted jar, {@code -XX:AOTCacheOutput}: write the cache at exit */
        TRAIN,
        /** extracted jar, {@code -XX:AOTCache}: map the cache at start */
        USE
    }

    /** Hex digits of the jar's SHA-256 in the folder name. */
    static final int KEY_LENGTH = 12;

    private AotCache() {
    }

    /** @return {@code .lab/aot} of the checkout */
    static Path root(Path repoRoot) {
        return repoRoot.resolve(".lab/aot");
    }

    /** @return {@code .lab/aot/<service>-<key>} for the jar as it is now */
    static Path dir(Path repoRoot, String service) {
        return root(repoRoot).resolve(service + "-" + key(LocalSystem.jar(repoRoot, service)));
    }

    /** @return the cache file in {@code dir}, e.g. {@code .lab/aot/main-service-0123456789ab/main-service.aot} */
    static Path cacheFile(Path dir, String service) {
        return dir.resolve(service + ".aot");
    }

    /** @return the extracted application jar in {@code dir}; its {@code lib/} is beside it */
    static Path extractedJar(Path dir, String service) {
        return dir.resolve(service + ".jar");
    }

    /** @return whether every service has a cache for its jar as it is now */
    public static boolean trained(Path repoRoot) {
        return ServiceDefaults.SERVICES.stream().allMatch(s -> Files.isRegularFile(cacheFile(dir(repoRoot, s), s)));
    }

    /**
     * @param jar a file
     * @return the first {@value #KEY_LENGTH} hex digits of its SHA-256
     */
    static String key(Path jar) {
        try (InputStream in = Files.newInputStream(jar)) {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = in.read(buffer)) > 0; ) {
                sha.update(buffer, 0, n);
            }
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
     * @param java the JVM that will run it (Spring Boot's extract tool runs in it)
     * @return the folder
     * @throws IllegalStateException when the extraction failed (message: the tool's output)
     */
    static Path prepare(Path repoRoot, String service, String java) {
        Path jar = LocalSystem.jar(repoRoot, service);
        Path dir = dir(repoRoot, service);
        if (Files.isRegularFile(extractedJar(dir, service))) {
            return dir;
        }
        try {
            Files.createDirectories(root(repoRoot));
            removeOlder(repoRoot, service, dir);
            Path tmp = Files.createTempDirectory(root(repoRoot), service + "-extracting");
            Processes.Result extract = Processes.run(List.of(java, "-Djarmode=tools", "-jar", jar.toString(), "extract",
                    "--destination", tmp.toString(), "--force"), null, Duration.ofSeconds(120));
            if (!extract.ok() || !Files.isRegularFile(extractedJar(tmp, service))) {
                delete(tmp);
                throw new IllegalStateException("cannot extract " + jar + " for its AOT cache (java -Djarmode=tools -jar "
                        + jar.getFileName() + " extract): " + extract.output().strip());
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

    private static void removeOlder(Path repoRoot, String service, Path keep) throws IOException {
        try (Stream<Path> dirs = Files.list(root(repoRoot))) {
            for (Path d : dirs.filter(d -> d.getFileName().toString().matches(service + "-[0-9a-f]{" + KEY_LENGTH + "}")
                    && !d.equals(keep)).toList()) {
                delete(d);
            }
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
     * @param dir    the service's folder ({@link #prepare})
     * @param aotLog where a {@code USE} run logs what the JVM did with the cache (info level), for {@link #loadProblem}
     * @return the JVM options and the jar to run: {@code [options..., -jar, jar]}
     */
    static List<String> launch(Mode mode, Path dir, String service, Path aotLog) {
        List<String> args = new ArrayList<>();
        switch (mode) {
            case OFF -> throw new IllegalArgumentException("no AOT options without a cache");
            case TRAIN -> args.add("-XX:AOTCacheOutput=" + cacheFile(dir, service));
            case USE -> {
                args.add("-XX:AOTCache=" + cacheFile(dir, service));
                args.add("-Xlog:aot=info:file=" + aotLog);
            }
        }
        args.addAll(List.of("-jar", extractedJar(dir, service).toString()));
        return args;
    }

    /**
     * @param aotLog the {@code -Xlog:aot=info} file of a run with {@code -XX:AOTCache}
     * @return why the cache was not used (the JVM's first error or warning line), or empty when it was opened and
     *         mapped
     */
    static Optional<String> loadProblem(Path aotLog) {
        List<String> lines;
        try {
            lines = Files.readAllLines(aotLog);
        } catch (IOException e) {
            return Optional.of("no AOT log at " + aotLog);
        }
        Optional<String> problem = lines.stream().filter(l -> l.contains("[error") || l.contains("[warning")).findFirst();
        if (problem.isPresent()) {
            return problem;
        }
        return lines.stream().anyMatch(l -> l.contains("Opened AOT cache")) ? Optional.empty()
                : Optional.of("the JVM did not open its AOT cache (" + aotLog + ")");
    }
}
