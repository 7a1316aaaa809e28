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

import static lab.fanout.bench.model.ServiceDefaults.DOWNSTREAMS;
import static lab.fanout.bench.model.ServiceDefaults.MAIN;
import static lab.fanout.bench.model.ServiceDefaults.ORDERS;
import static lab.fanout.bench.model.ServiceDefaults.SERVICES;

/**
 * The four services as local JVMs, each from {@code <module>/target/<module>.jar} with {@code java --enable-preview
 * -XX:+ExitOnOutOfMemoryError}
 * of the JDK running this code, its own log, and ports and knobs as {@code --spring} properties. Each has a public
 * port ({@link #baseUrl}: the API) and a management port ({@link #managementUrl}: the actuator, for readiness, knobs
 * and scrapes). Attached ({@link #start}) services share this JVM's process group, so a Ctrl-C reaches them too;
 * detached ones ({@link #startDetached}, for {@code ./lab up}) get their own session and outlive the CLI.
 */
public final class LocalSystem implements AutoCloseable {

    /** Every service's JVM option, as in docker/Dockerfile. */
    static final String EXIT_ON_OOM = "-XX:+ExitOnOutOfMemoryError";
    /** The options every service gets, before any knob's ({@link #spawn}). */
    static final List<String> ALWAYS = List.of("--enable-preview", EXIT_ON_OOM);
    /**
     * The downstreams' heap ceiling, before any knob's (a later -Xmx wins). Without it each of the four JVMs may
     * grow to a quarter of the RAM, together all of it: at 5,000 clients the kernel's OOM killer ended
     * products-service (6 GB resident) mid-run. k8s/ gives a downstream 768 MiB (its heap 70 % of that).
     */
    static final List<String> DOWNSTREAM_HEAP = List.of("-Xmx1g");
    /** Names a service's management port in {@link Ports}' messages, e.g. "main-service management". */
    private static final String MANAGEMENT = " management";
    /** 120 s fits four JVMs starting at once on 2 quiet cores; a busy machine may need LAB_READY_TIMEOUT_SECONDS. */
    static final Duration READY_TIMEOUT = Duration.ofSeconds(Integer.parseInt(System.getenv()
            .getOrDefault("LAB_READY_TIMEOUT_SECONDS", System.getProperty("lab.readyTimeoutSeconds", "120"))));

    /**
     * What to start and with which knobs, built by name ({@link #custom}); a null knob keeps the service's default
     * ({@link ServiceDefaults}).
     *
     * @param profile       main-service's request threads: {@code virtual} or {@code platform}
     * @param tomcatThreads {@code server.tomcat.threads.max}; no effect under virtual (spring-boot#41937)
     * @param poolSize      {@code fanout.pool.max-total} and {@code max-per-route}
     * @param latencyMs     the downstreams' {@code downstream.latency}, ms (0..60000)
     * @param freePorts     true: free ports from the OS; false: the seed's (2222, 8081-8083; actuators 9222, 9081-9083)
     * @param extraJvmArgs  JVM options for all four, e.g. {@code -Xmx512m}
     * @param mainJvmArgs   JVM options for main-service alone, after {@code extraJvmArgs} so they win
     *                      ({@link JvmOptions#validated}); changing them restarts main-service only
     * @param ordersJvmArgs JVM options for orders-service alone, after {@code extraJvmArgs}; changing them restarts
     *                      all four
     * @param aot           USE: the extracted jars with their AOT caches, trained first when missing; OFF: the jars
     * @param cpus          where main-service runs: its own cores or CPU quota, or {@link CpuPlacement#ALL}
     */
    public record LaunchSpec(Path repoRoot, String profile, Integer tomcatThreads, Integer poolSize, Integer latencyMs,
                             boolean freePorts, Path logDir, Map<String, String> extraMainProperties,
                             Map<String, String> extraDownstreamProperties, List<String> extraJvmArgs,
                             List<String> mainJvmArgs, List<String> ordersJvmArgs, AotCache.Mode aot,
                             CpuPlacement cpus) {

        public LaunchSpec {
            cpus = cpus == null ? CpuPlacement.ALL : cpus;
            Objects.requireNonNull(repoRoot, "repoRoot");
            Objects.requireNonNull(logDir, "logDir");
            Objects.requireNonNull(aot, "aot");
            if (!ServiceDefaults.PROFILES.contains(profile)) {
                throw new IllegalArgumentException("profile '" + profile + "' is not one of "
                        + ServiceDefaults.PROFILES);
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
            ordersJvmArgs = JvmOptions.validated(ordersJvmArgs == null ? List.of() : ordersJvmArgs);
        }

        /** @return the spec of {@link Builder}'s defaults: {@code custom(repoRoot).build()} */
        public static LaunchSpec defaults(Path repoRoot) {
            return custom(repoRoot).build();
        }

        /** @return a builder holding {@link Builder}'s defaults for the repository at {@code repoRoot} */
        public static Builder custom(Path repoRoot) {
            return new Builder(repoRoot);
        }

        /** @return a builder holding this spec's knobs, e.g. to change a cell's and keep the run's */
        public Builder toBuilder() {
            return new Builder(repoRoot).profile(profile).tomcatThreads(tomcatThreads).poolSize(poolSize)
                    .latencyMs(latencyMs).freePorts(freePorts).logDir(logDir).extraMainProperties(extraMainProperties)
                    .extraDownstreamProperties(extraDownstreamProperties).extraJvmArgs(extraJvmArgs)
                    .mainJvmArgs(mainJvmArgs).ordersJvmArgs(ordersJvmArgs).aot(aot).cpus(cpus);
        }

        /**
         * A spec by named knobs (Resilience4j's {@code custom()} style), each setter the {@link LaunchSpec} component
         * of its name; {@link #build} checks them. Defaults: the virtual profile, every knob the service's default,
         * the seed's ports, logs in {@code .lab/logs}, no properties or JVM options of the lab's, no AOT cache, every
         * core for main-service.
         */
        public static final class Builder {

            private final Path repoRoot;
            private String profile = "virtual";
            private Integer tomcatThreads;
            private Integer poolSize;
            private Integer latencyMs;
            private boolean freePorts;
            private Path logDir;
            private Map<String, String> extraMainProperties = Map.of();
            private Map<String, String> extraDownstreamProperties = Map.of();
            private List<String> extraJvmArgs = List.of();
            private List<String> mainJvmArgs = List.of();
            private List<String> ordersJvmArgs = List.of();
            private AotCache.Mode aot = AotCache.Mode.OFF;
            private CpuPlacement cpus = CpuPlacement.ALL;

            private Builder(Path repoRoot) {
                this.repoRoot = Objects.requireNonNull(repoRoot, "repoRoot");
                logDir = repoRoot.resolve(".lab/logs");
            }

            public Builder profile(String name) {
                profile = name;
                return this;
            }

            public Builder tomcatThreads(Integer threads) {
                tomcatThreads = threads;
                return this;
            }

            public Builder poolSize(Integer size) {
                poolSize = size;
                return this;
            }

            public Builder latencyMs(Integer ms) {
                latencyMs = ms;
                return this;
            }

            /** @param free true: free ports from the OS; false: the seed's */
            public Builder freePorts(boolean free) {
                freePorts = free;
                return this;
            }

            public Builder logDir(Path dir) {
                logDir = dir;
                return this;
            }

            /** @param properties main-service's Spring properties, replacing any before */
            public Builder extraMainProperties(Map<String, String> properties) {
                extraMainProperties = properties;
                return this;
            }

            /** @param properties the downstreams' Spring properties, replacing any before, e.g. orders.store */
            public Builder extraDownstreamProperties(Map<String, String> properties) {
                extraDownstreamProperties = properties;
                return this;
            }

            /** @param properties Spring properties for all four services, added to those before, e.g. tracing's */
            public Builder allProperties(Map<String, String> properties) {
                Map<String, String> main = new LinkedHashMap<>(extraMainProperties);
                main.putAll(properties);
                Map<String, String> downstream = new LinkedHashMap<>(extraDownstreamProperties);
                downstream.putAll(properties);
                return extraMainProperties(main).extraDownstreamProperties(downstream);
            }

            public Builder extraJvmArgs(List<String> options) {
                extraJvmArgs = options;
                return this;
            }

            /** @param options main-service's JVM options, replacing any before, e.g. {@code -Dx=1} */
            public Builder mainJvmArgs(List<String> options) {
                mainJvmArgs = options;
                return this;
            }

            /** @param options orders-service's JVM options, replacing any before, e.g. {@code -Xmx512m} */
            public Builder ordersJvmArgs(List<String> options) {
                ordersJvmArgs = options;
                return this;
            }

            public Builder aot(AotCache.Mode mode) {
                aot = mode;
                return this;
            }

            /** @param placement main-service's cores or quota ({@code ./lab up --main-cpus}); null: every core */
            public Builder cpus(CpuPlacement placement) {
                cpus = placement;
                return this;
            }

            /** @throws IllegalArgumentException a knob out of range or a bad JVM option, as the record's constructor */
            public LaunchSpec build() {
                return new LaunchSpec(repoRoot, profile, tomcatThreads, poolSize, latencyMs, freePorts, logDir,
                        extraMainProperties, extraDownstreamProperties, extraJvmArgs, mainJvmArgs, ordersJvmArgs, aot,
                        cpus);
            }
        }

        /** @return whether the downstreams started for {@code this} serve {@code other} unchanged (same cgroups too) */
        boolean sameDownstreams(LaunchSpec other) {
            return Objects.equals(latencyMs, other.latencyMs) && freePorts == other.freePorts
                    && extraDownstreamProperties.equals(other.extraDownstreamProperties)
                    && extraJvmArgs.equals(other.extraJvmArgs) && ordersJvmArgs.equals(other.ordersJvmArgs)
                    && repoRoot.equals(other.repoRoot) && aot == other.aot && cpus.equals(other.cpus);
        }

        /** @return {@code --name=value} per property set; unset knobs are left out */
        List<String> springArgs(String service, Map<String, Integer> ports, Map<String, Integer> managementPorts) {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("server.port", ports.get(service));
            p.put("management.server.port", managementPorts.get(service));
            if (service.equals(MAIN)) {
                p.put("spring.profiles.active", profile);
                p.put("server.tomcat.threads.max", tomcatThreads);
                p.put("fanout.pool.max-total", poolSize);
                p.put("fanout.pool.max-per-route", poolSize);
                DOWNSTREAMS.forEach(d -> p.put("fanout.downstreams." + d.replace("-service", ""),
                        "http://localhost:" + ports.get(d)));
                p.putAll(extraMainProperties);
            } else {
                p.put("downstream.latency", latencyMs == null ? null : latencyMs + "ms");
                p.putAll(extraDownstreamProperties);
            }
            return p.entrySet().stream().filter(e -> e.getValue() != null)
                    .map(e -> "--" + e.getKey() + "=" + e.getValue()).toList();
        }

        private static void positive(String name, Integer value) {
            if (value != null && value < 1) {
                throw new IllegalArgumentException(name + " must be >= 1, was " + value);
            }
        }
    }

    private final boolean detached;
    private final Map<String, Integer> ports = new LinkedHashMap<>();
    private final Map<String, Integer> managementPorts = new LinkedHashMap<>();
    // not guarded by one monitor: close() from a Ctrl-C hook must not wait for a start that is still waiting
    private final Map<String, Process> processes = Collections.synchronizedMap(new LinkedHashMap<>());
    private final PrintStream progress;
    private volatile LaunchSpec spec;
    /** The cgroups of {@code spec.cpus()}, made before its processes start, removed when they stop. */
    private volatile CpuGroups groups;
    private volatile boolean closed;
    private final Thread hook = new Thread(this::close, "lab-local-system-stop");

    private LocalSystem(LaunchSpec spec, boolean detached, Map<String, Integer> all, PrintStream progress) {
        this.spec = spec;
        this.detached = detached;
        this.progress = progress;
        SERVICES.forEach(s -> ports.put(s, all.get(s)));
        SERVICES.forEach(s -> managementPorts.put(s, all.get(s + MANAGEMENT)));
    }

    /**
     * Starts the four services and waits until each answers {@code /actuator/health/readiness} with 200.
     *
     * @throws IllegalStateException a jar is missing (message: how to build), a port is busy (message: who holds it),
     *                               or a service was not ready in 120 s (message: its log's tail); all stopped first
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
            AotCache.train(spec, progress);
        }
        // all eight picked or checked together, named "<service>" and "<service> management"
        Map<String, Integer> seed = new LinkedHashMap<>();
        SERVICES.forEach(s -> seed.put(s, ServiceDefaults.PORTS.get(s)));
        SERVICES.forEach(s -> seed.put(s + MANAGEMENT, ServiceDefaults.MANAGEMENT_PORTS.get(s)));
        Map<String, Integer> all = spec.freePorts() ? Ports.free(seed.keySet()) : Ports.requireFree(seed);
        LocalSystem system = new LocalSystem(spec, detached, all, progress);
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

    /** Stops main-service and starts it again as it was: a new JVM, the downstreams kept. */
    public synchronized void restartMain() {
        restart(List.of(MAIN));
    }

    /** Stops all four and starts them again as they were (on the same ports): new JVMs. */
    public synchronized void restartAll() {
        restart(SERVICES);
    }

    private void restart(List<String> services) {
        stop(services);
        launch(services, true);
    }

    public LaunchSpec spec() {
        return spec;
    }

    public URI mainBaseUrl() {
        return baseUrl(MAIN);
    }

    public URI mainManagementUrl() {
        return managementUrl(MAIN);
    }

    /** @return the service's API, e.g. {@code http://localhost:2222}; an unknown name is an IllegalArgumentException */
    public URI baseUrl(String service) {
        return url(ports, service);
    }

    /** @return the service's actuator (management port), e.g. {@code http://localhost:9222} */
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

    public Map<String, Integer> ports() {
        return Collections.unmodifiableMap(ports);
    }

    public Map<String, Integer> managementPorts() {
        return Collections.unmodifiableMap(managementPorts);
    }

    public Map<String, Long> pids() {
        Map<String, Long> pids = new LinkedHashMap<>();
        synchronized (processes) {
            processes.forEach((s, p) -> pids.put(s, p.pid()));
        }
        return pids;
    }

    private Path logFile(String service) {
        return spec.logDir().resolve(service + ".log");
    }

    /** SIGTERM to every service (graceful shutdown), up to 30 s each, then SIGKILL. Idempotent. */
    @Override
    public void close() {
        closed = true;
        stop(SERVICES);
        closeGroups();
        removeHook();
    }

    private void closeGroups() {
        if (groups != null) {
            groups.close();
            groups = null;
        }
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
        if (groups == null || !groups.placement().equals(spec.cpus())) {
            closeGroups();   // a new placement restarts all four (sameDownstreams)
            groups = CpuGroups.create(spec.cpus());
            if (!spec.cpus().shared()) {
                progress.println("CPU placement: " + spec.cpus().describe(Environment.cores()));
            }
        }
        for (String service : services) {
            if (closed) {
                throw new IllegalStateException("stopped while starting");
            }
            processes.put(service, spawn(service, appendLogs));
        }
        progress.print("waiting for " + String.join(", ", services) + " to get ready ");
        awaitReady(services);
        groups.verify(pids());
        progress.printf(Locale.ROOT, " ready in %.1f s%s%n", (System.nanoTime() - start) / 1e9, spec.aot()
                == AotCache.Mode.OFF ? "" : " (AOT cache: " + spec.aot().name().toLowerCase(Locale.ROOT) + ")");
        if (spec.aot() == AotCache.Mode.USE) {
            services.forEach(s -> AotCache.loadProblem(aotLog(s)).ifPresent(problem -> progress.println("warning: "
                    + s + " started without its AOT cache: " + problem + " (the JVM, its flags or the jar changed?"
                    + " rm -r .lab/aot to train again)")));
        }
    }

    private Process spawn(String service, boolean appendLogs) {
        String java = ProcessHandle.current().info().command().orElse("java");
        // as the images run: an OutOfMemoryError ends the JVM, where it would leave one that holds its port and
        // answers nothing (docs/overload.md)
        List<String> command = new ArrayList<>(List.of(java));
        command.addAll(ALWAYS);
        if (!service.equals(MAIN)) {
            command.addAll(DOWNSTREAM_HEAP);
        }
        command.addAll(spec.extraJvmArgs());
        if (service.equals(MAIN)) {
            command.addAll(spec.mainJvmArgs());
        }
        if (service.equals(ORDERS)) {
            command.addAll(spec.ordersJvmArgs());
        }
        if (spec.aot() == AotCache.Mode.OFF) {
            command.addAll(List.of("-jar", jar(spec.repoRoot(), service).toString()));
        } else {
            Path dir = AotCache.prepare(spec.repoRoot(), service, java);
            command.addAll(AotCache.launch(spec.aot(), dir, service, aotLog(service)));
        }
        command.addAll(spec.springArgs(service, ports, managementPorts));
        List<String> placed = service.equals(MAIN) ? groups.main(command) : groups.load(command);
        return Processes.spawn(placed, spec.repoRoot(), logFile(service), detached, appendLogs);
    }

    private Path aotLog(String service) {
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
                + managementPorts.get(service) + ") " + what + "; last lines of " + log + ":\n" + Logs.tail(log, 25));
    }

    private void stop(List<String> services) {
        // a training run writes its AOT cache on the way out: tens of seconds on a busy machine
        Duration timeout = spec.aot() == AotCache.Mode.TRAIN ? AotCache.TRAINING_STOP_TIMEOUT : Processes.STOP_TIMEOUT;
        // main-service first, alone: its graceful shutdown may still call the downstreams; then the rest together
        for (List<String> group : List.of(List.of(MAIN), services)) {
            Processes.terminate(group.stream().filter(services::contains).map(processes::remove)
                    .filter(Objects::nonNull).map(Process::toHandle).toList(), timeout);
        }
    }

    /** @throws IllegalStateException {@code <module>/target/<module>.jar} is missing, saying how to build it */
    static Path jar(Path repoRoot, String service) {
        Path jar = repoRoot.resolve(service).resolve("target").resolve(service + ".jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: run ./lab build (or ./mvnw -B package -DskipTests)");
        }
        return jar;
    }
}
