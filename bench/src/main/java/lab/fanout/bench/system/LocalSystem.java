package lab.fanout.bench.system;

import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import lab.fanout.bench.model.JvmOptions;
import lab.fanout.bench.model.ServiceDefaults;

import static lab.fanout.bench.model.ServiceDefaults.MAIN;
import static lab.fanout.bench.model.ServiceDefaults.SERVICES;

/**
 * The four services as local JVMs: accounts-, orders-, products- and main-service, each started from its jar
 * ({@code <module>/target/<module>.jar}) with {@code java --enable-preview} of the JDK running this code, its own log
 * file, and ports and knobs passed as {@code --spring} properties. Each service has two ports: the public one
 * ({@link #baseUrl}: the API) and the management one ({@link #managementUrl}: the actuator, which readiness waits,
 * knobs and scrapes read). {@link #close()} stops them gracefully.
 * <p>
 * Attached ({@link #start}) processes share this JVM's process group, so a Ctrl-C in the terminal reaches them too;
 * detached ones ({@link #startDetached}, for {@code ./lab up}) get their own session and outlive the CLI.
 */
public final class LocalSystem implements AutoCloseable {

    /** Suffix that names a service's management port in {@link Ports}' messages, e.g. "main-service management". */
    private static final String MANAGEMENT = " management";

    /** 120 s fits four JVMs starting at once on 2 quiet cores; a busy machine may need LAB_READY_TIMEOUT_SECONDS. */
    static final Duration READY_TIMEOUT = Duration.ofSeconds(Integer.parseInt(
            System.getenv().getOrDefault("LAB_READY_TIMEOUT_SECONDS", System.getProperty("lab.readyTimeoutSeconds", "120"))));

    /**
     * What to start and with which knobs.
     *
     * @param repoRoot                  the checkout holding {@code <module>/target/<module>.jar}
     * @param profile                   main-service's request threads: {@code virtual} or {@code platform}
     * @param tomcatThreads             {@code server.tomcat.threads.max} of main-service; null = its default (200).
     *                                  No effect under {@code virtual} (spring-boot#41937)
     * @param poolSize                  {@code fanout.pool.max-total} and {@code max-per-route}; null = default (500)
     * @param latencyMs                 {@code downstream.latency} of the three downstreams in ms; null = default (200)
     * @param freePorts                 true: free ports picked by the OS; false: the seed's 2222/8081/8082/8083
     * @param logDir                    one {@code <service>.log} per service
     * @param extraMainProperties       more Spring properties for main-service, e.g. {@code fanout.deadline=20s}
     * @param extraDownstreamProperties more Spring properties for the three downstreams
     * @param extraJvmArgs              JVM options for all four, e.g. {@code -Xmx512m}
     * @param mainJvmArgs               JVM options for main-service alone, after {@code extraJvmArgs} (so they win):
     *                                  the knobs {@code --jvm-option} and a matrix's {@code jvmOptions} set, checked by
     *                                  {@link JvmOptions#validated}; changing them restarts main-service only
     * @param aot                       {@link AotCache.Mode#USE}: each service from its extracted jar with its AOT cache,
     *                                  trained first when missing or stale ({@link AotTraining}); OFF: the jars as built
     */
    public record LaunchSpec(Path repoRoot, String profile, Integer tomcatThreads, Integer poolSize, Integer latencyMs,
                             boolean freePorts, Path logDir, Map<String, String> extraMainProperties,
                             Map<String, String> extraDownstreamProperties, List<String> extraJvmArgs,
                             List<String> mainJvmArgs, AotCache.Mode aot) {

        public static final List<String> PROFILES = List.of("virtual", "platform");

        public LaunchSpec {
            Objects.requireNonNull(repoRoot, "repoRoot");
            Objects.requireNonNull(logDir, "logDir");
            if (!PROFILES.contains(profile)) {
                throw new IllegalArgumentException("profile '" + profile + "' is not one of " + PROFILES);
            }
            positive("tomcatThreads", tomcatThreads);
            positive("poolSize", poolSize);
            if (latencyMs != null && (latencyMs < 0 || latencyMs > 60_000)) {
                throw new IllegalArgumentException("latencyMs " + latencyMs + " is not in 0..60000");
            }
            extraMainProperties = Map.copyOf(extraMainProperties);
            extraDownstreamProperties = Map.copyOf(extraDownstreamProperties);
            extraJvmArgs = List.copyOf(extraJvmArgs);
            mainJvmArgs = JvmOptions.validated(mainJvmArgs == null ? List.of() : mainJvmArgs);
            Objects.requireNonNull(aot, "aot");
        }

        /** Without JVM options of main-service's own, without an AOT cache. */
        public LaunchSpec(Path repoRoot, String profile, Integer tomcatThreads, Integer poolSize, Integer latencyMs,
                          boolean freePorts, Path logDir, Map<String, String> extraMainProperties,
                          Map<String, String> extraDownstreamProperties, List<String> extraJvmArgs) {
            this(repoRoot, profile, tomcatThreads, poolSize, latencyMs, freePorts, logDir, extraMainProperties,
                    extraDownstreamProperties, extraJvmArgs, List.of(), AotCache.Mode.OFF);
        }

        /** Virtual profile, every knob at its default, the seed's ports, logs in {@code .lab/logs}. */
        public static LaunchSpec defaults(Path repoRoot) {
            return new LaunchSpec(repoRoot, "virtual", null, null, null, false, repoRoot.resolve(".lab/logs"),
                    Map.of(), Map.of(), List.of());
        }

        public LaunchSpec withKnobs(String profile, Integer tomcatThreads, Integer poolSize, Integer latencyMs) {
            return new LaunchSpec(repoRoot, profile, tomcatThreads, poolSize, latencyMs, freePorts, logDir,
                    extraMainProperties, extraDownstreamProperties, extraJvmArgs, mainJvmArgs, aot);
        }

        /** @param options main-service's JVM options (replacing any before), e.g. {@code -Dx=1}; see {@link JvmOptions} */
        public LaunchSpec withMainJvmArgs(List<String> options) {
            return new LaunchSpec(repoRoot, profile, tomcatThreads, poolSize, latencyMs, freePorts, logDir,
                    extraMainProperties, extraDownstreamProperties, extraJvmArgs, options, aot);
        }

        public LaunchSpec withFreePorts(boolean free, Path logs) {
            return new LaunchSpec(repoRoot, profile, tomcatThreads, poolSize, latencyMs, free, logs,
                    extraMainProperties, extraDownstreamProperties, extraJvmArgs, mainJvmArgs, aot);
        }

        public LaunchSpec withAot(AotCache.Mode mode) {
            return new LaunchSpec(repoRoot, profile, tomcatThreads, poolSize, latencyMs, freePorts, logDir,
                    extraMainProperties, extraDownstreamProperties, extraJvmArgs, mainJvmArgs, mode);
        }

        /** Whether the downstreams started for {@code this} serve {@code other} unchanged. */
        boolean sameDownstreams(LaunchSpec other) {
            return Objects.equals(latencyMs, other.latencyMs) && freePorts == other.freePorts
                    && extraDownstreamProperties.equals(other.extraDownstreamProperties)
                    && extraJvmArgs.equals(other.extraJvmArgs) && repoRoot.equals(other.repoRoot) && aot == other.aot;
        }

        List<String> springArgs(String service, Map<String, Integer> ports, Map<String, Integer> managementPorts) {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("server.port", ports.get(service));
            p.put("management.server.port", managementPorts.get(service));
            if (service.equals(MAIN)) {
                p.put("spring.profiles.active", profile);
                p.put("server.tomcat.threads.max", tomcatThreads);
                p.put("fanout.pool.max-total", poolSize);
                p.put("fanout.pool.max-per-route", poolSize);
                for (String d : List.of("orders", "products", "accounts")) {
                    p.put("fanout.downstreams." + d, "http://localhost:" + ports.get(d + "-service"));
                }
                p.putAll(extraMainProperties);
            } else {
                p.put("downstream.latency", latencyMs == null ? null : latencyMs + "ms");
                p.putAll(extraDownstreamProperties);
            }
            List<String> args = new ArrayList<>();
            p.forEach((k, v) -> {
                if (v != null) {
                    args.add("--" + k + "=" + v);
                }
            });
            return args;
        }

        private static void positive(String name, Integer value) {
            if (value != null && value < 1) {
                throw new IllegalArgumentException(name + " must be >= 1, was " + value);
            }
        }
    }

    private final boolean detached;
    private final Map<String, Integer> ports;
    private final Map<String, Integer> managementPorts;
    // not guarded by one monitor: close() from a Ctrl-C hook must not wait for a start that is still waiting
    private final Map<String, Process> processes = Collections.synchronizedMap(new LinkedHashMap<>());
    private final PrintStream progress;
    private volatile LaunchSpec spec;
    private volatile boolean closed;
    private final Thread hook = new Thread(this::close, "lab-local-system-stop");

    private LocalSystem(LaunchSpec spec, boolean detached, Map<String, Integer> ports,
                        Map<String, Integer> managementPorts, PrintStream progress) {
        this.spec = spec;
        this.detached = detached;
        this.ports = Map.copyOf(ports);
        this.managementPorts = Map.copyOf(managementPorts);
        this.progress = progress;
    }

    /**
     * Starts the four services and waits until each answers {@code /actuator/health/readiness} on its management
     * port with 200.
     *
     * @throws IllegalStateException a jar is missing (message: how to build), a port is busy (message: which port
     *                               and, if findable, which process), or a service did not get ready within 120 s
     *                               (message: the last lines of its log); whatever was started is stopped first
     */
    public static LocalSystem start(LaunchSpec spec) {
        return start(spec, false, System.out);
    }

    /** As {@link #start}, but in a new session ({@code setsid}): the services outlive this JVM and its terminal. */
    public static LocalSystem startDetached(LaunchSpec spec) {
        return start(spec, true, System.out);
    }

    static LocalSystem start(LaunchSpec spec, boolean detached, PrintStream progress) {
        SERVICES.forEach(s -> jar(spec.repoRoot(), s));
        if (spec.aot() == AotCache.Mode.USE && !AotCache.trained(spec.repoRoot())) {
            AotTraining.run(spec, progress);
        }
        // picked or checked together, named "<service>" and "<service> management"
        Map<String, Integer> all = spec.freePorts() ? Ports.free(portNames()) : Ports.requireFree(fixedPorts());
        Map<String, Integer> ports = new LinkedHashMap<>();
        Map<String, Integer> managementPorts = new LinkedHashMap<>();
        SERVICES.forEach(s -> ports.put(s, all.get(s)));
        SERVICES.forEach(s -> managementPorts.put(s, all.get(s + MANAGEMENT)));
        LocalSystem system = new LocalSystem(spec, detached, ports, managementPorts, progress);
        // until close(), or for detached ones until they are ready, the services never outlive this JVM (Ctrl-C)
        Runtime.getRuntime().addShutdownHook(system.hook);
        try {
            system.launch(SERVICES, false);
        } catch (RuntimeException e) {
            system.close();
            throw e;
        }
        if (detached) {
            system.removeHook();
        }
        return system;
    }

    private static List<String> portNames() {
        List<String> names = new ArrayList<>(SERVICES);
        SERVICES.forEach(s -> names.add(s + MANAGEMENT));
        return names;
    }

    private static Map<String, Integer> fixedPorts() {
        Map<String, Integer> fixed = new LinkedHashMap<>();
        SERVICES.forEach(s -> fixed.put(s, ServiceDefaults.PORTS.get(s)));
        SERVICES.forEach(s -> fixed.put(s + MANAGEMENT, ServiceDefaults.MANAGEMENT_PORTS.get(s)));
        return fixed;
    }

    /**
     * Brings the running services to {@code next}'s knobs with as few restarts as possible: main-service alone when
     * only its knobs change, all four when the downstreams' latency (or their properties) change.
     */
    public synchronized void apply(LaunchSpec next) {
        if (next.equals(spec)) {
            return;
        }
        List<String> restart = spec.sameDownstreams(next) ? List.of(MAIN) : SERVICES;
        stop(restart);
        spec = next;
        launch(restart, true);
    }

    public LaunchSpec spec() {
        return spec;
    }

    public URI mainBaseUrl() {
        return baseUrl(MAIN);
    }

    /** @return main-service's actuator, e.g. {@code http://localhost:9222} */
    public URI mainManagementUrl() {
        return managementUrl(MAIN);
    }

    /** @param service one of {@link #SERVICES}, e.g. {@code orders-service}; @return its public API's base URL */
    public URI baseUrl(String service) {
        return url(ports, service);
    }

    /** @param service one of {@link #SERVICES}; @return its actuator's base URL (management port) */
    public URI managementUrl(String service) {
        return url(managementPorts, service);
    }

    private static URI url(Map<String, Integer> ports, String service) {
        Integer port = ports.get(service);
        if (port == null) {
            throw new IllegalArgumentException("'" + service + "' is not one of " + SERVICES);
        }
        return URI.create("http://localhost:" + port);
    }

    /** @return the public port of each service */
    public Map<String, Integer> ports() {
        return ports;
    }

    /** @return the management port (actuator) of each service */
    public Map<String, Integer> managementPorts() {
        return managementPorts;
    }

    public Map<String, Long> pids() {
        Map<String, Long> pids = new LinkedHashMap<>();
        synchronized (processes) {
            processes.forEach((s, p) -> pids.put(s, p.pid()));
        }
        return pids;
    }

    public Path logFile(String service) {
        return spec.logDir().resolve(service + ".log");
    }

    /** SIGTERM to every service (graceful shutdown), up to 30 s each, then SIGKILL. Idempotent. */
    @Override
    public void close() {
        closed = true;
        stop(SERVICES);
        removeHook();
    }

    private void removeHook() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook is what called close()
        }
    }

    private void launch(List<String> services, boolean appendLogs) {
        long start = System.nanoTime();
        for (String service : services) {
            if (closed) {
                throw new IllegalStateException("stopped while starting");
            }
            processes.put(service, spawn(service, appendLogs));
        }
        progress.print("waiting for " + String.join(", ", services) + " to get ready ");
        awaitReady(services);
        progress.printf(Locale.ROOT, " ready in %.1f s%s%n", (System.nanoTime() - start) / 1e9,
                spec.aot() == AotCache.Mode.OFF ? "" : " (AOT cache: " + spec.aot().name().toLowerCase(Locale.ROOT) + ")");
        if (spec.aot() == AotCache.Mode.USE) {
            services.forEach(s -> AotCache.loadProblem(aotLog(s)).ifPresent(problem -> progress.println("warning: "
                    + s + " started without its AOT cache: " + problem + " (the JVM, its flags or the jar changed?"
                    + " rm -r .lab/aot to train again)")));
        }
    }

    private Process spawn(String service, boolean appendLogs) {
        List<String> command = new ArrayList<>();
        String java = ProcessHandle.current().info().command().orElse("java");
        command.add(java);
        command.add("--enable-preview");
        command.addAll(spec.extraJvmArgs());
        if (service.equals(MAIN)) {
            command.addAll(spec.mainJvmArgs());
        }
        if (spec.aot() == AotCache.Mode.OFF) {
            command.addAll(List.of("-jar", jar(spec.repoRoot(), service).toString()));
        } else {
            Path dir = AotCache.prepare(spec.repoRoot(), service, java);
            command.addAll(AotCache.launch(spec.aot(), dir, service, aotLog(service)));
        }
        command.addAll(spec.springArgs(service, ports, managementPorts));
        return Processes.spawn(command, spec.repoRoot(), logFile(service), detached, appendLogs);
    }

    /** @return where a service started with its AOT cache logs what the JVM did with it */
    Path aotLog(String service) {
        return spec.logDir().resolve(service + ".aot.log");
    }

    /** Waits for every service's readiness, a dot a second; fails at once when one exits, with its log's tail. */
    private void awaitReady(List<String> services) {
        List<String> waiting = new ArrayList<>(services);
        long[] lastDot = {0};
        boolean ready = Poll.reached(READY_TIMEOUT, Duration.ofMillis(250), () -> {
            waiting.removeIf(this::ready);
            if (System.nanoTime() - lastDot[0] > 1_000_000_000L) {
                progress.print('.');
                progress.flush();
                lastDot[0] = System.nanoTime();
            }
            return waiting.isEmpty();
        });
        if (!ready) {
            throw failure(waiting.getFirst(), "was not ready after " + READY_TIMEOUT.toSeconds()
                    + " s (a busy machine? export LAB_READY_TIMEOUT_SECONDS=300)");
        }
    }

    /** @throws IllegalStateException the system was closed, or {@code service} exited while starting */
    private boolean ready(String service) {
        Process process = processes.get(service);
        if (closed || process == null) {
            throw new IllegalStateException("stopped while " + service + " was starting");
        }
        if (!process.isAlive()) {
            throw failure(service, "exited with code " + process.exitValue() + " while starting");
        }
        return Http.ready(managementUrl(service));
    }

    private IllegalStateException failure(String service, String what) {
        progress.println();
        Path log = logFile(service);
        return new IllegalStateException(service + " (port " + ports.get(service) + ", management port "
                + managementPorts.get(service) + ") " + what + "; last lines of "
                + log + ":\n" + Logs.tail(log, 25));
    }

    private void stop(List<String> services) {
        List<ProcessHandle> handles = new ArrayList<>();
        for (String service : services.reversed()) {
            Process p = processes.remove(service);
            if (p != null) {
                handles.add(p.toHandle());
            }
        }
        // a training run writes its AOT cache on the way out: tens of seconds on a busy machine
        Duration timeout = spec.aot() == AotCache.Mode.TRAIN ? AotTraining.STOP_TIMEOUT : Processes.STOP_TIMEOUT;
        // main-service first, alone: its graceful shutdown may still call the downstreams
        if (!handles.isEmpty() && services.contains(MAIN)) {
            Processes.terminate(List.of(handles.removeFirst()), timeout);
        }
        Processes.terminate(handles, timeout);
    }

    /**
     * @return {@code <module>/target/<module>.jar}
     * @throws IllegalStateException if it is missing, telling how to build it
     */
    static Path jar(Path repoRoot, String service) {
        Path jar = repoRoot.resolve(service).resolve("target").resolve(service + ".jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: run ./lab build (or ./mvnw -B package -DskipTests)");
        }
        return jar;
    }

}
