package lab.fanout.bench.run;

import java.io.PrintStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import lab.fanout.bench.model.Cell;
import lab.fanout.bench.model.Deployment;
import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.system.ServiceInfo;

/**
 * {@code ./lab bench} while {@code ./lab up}'s services run: one set of services at a time. Cells whose knobs the
 * running main-service has (as its {@code /actuator/info} reports them) run on it, the latency as the
 * {@code latencyMs} query parameter, as with {@code --base-url}. At the first cell that needs other knobs, it says
 * so, stops the services {@code ./lab up} started (by their recorded pids) and hands that cell and every later one
 * to the harness's own services ({@link LocalTarget}); at the end it prints how to start {@code ./lab up} again.
 */
public final class UpTarget implements Target {

    /**
     * What the running {@code ./lab up} is.
     *
     * @param base       main-service's public URL, e.g. http://localhost:2222
     * @param management main-service's management URL, e.g. http://localhost:9222
     * @param pids       service name to pid of the four services (for the CPU accounting)
     * @param command    how to start it again, e.g. {@code ./lab up --profile virtual}
     * @param stop       stops the four services and forgets them (the caller owns {@code ./lab up}'s run state)
     */
    public record Up(URI base, URI management, Map<String, Long> pids, String command, Runnable stop) {
    }

    private final Up up;
    private final RemoteTarget running;
    private final ServiceInfo info;
    private final List<String> jvmOptions;
    private final Map<String, String> mainProperties;
    private final Supplier<Target> own;
    private final PrintStream out;
    private boolean stopped;
    private Target local;
    private Target current;

    /**
     * @param jvmOptions     {@code ./lab bench --jvm-option}s, which every cell's main-service must run with
     * @param mainProperties extra Spring properties the cells' main-service must have: a running one cannot be checked
     *                       for them, so any makes every cell a mismatch
     * @param own            the harness's own services, made when the first cell does not match
     */
    public UpTarget(Up up, List<String> jvmOptions, Map<String, String> mainProperties, Supplier<Target> own, PrintStream out) {
        this.up = up;
        this.running = new RemoteTarget(up.base(), up.management());
        this.info = running.info();
        this.jvmOptions = List.copyOf(jvmOptions);
        this.mainProperties = Map.copyOf(mainProperties);
        this.own = own;
        this.out = out;
    }

    /**
     * @return why {@code main} (a running main-service's knobs) cannot serve {@code cell}, e.g. {@code profile
     *         platform (./lab up runs virtual)}; empty when it can. The latency travels as the {@code latencyMs} query
     *         parameter, so it counts only when main-service refuses per-request knobs. Not compared: settings made by
     *         environment variables beyond these knobs (e.g. FANOUT_DEADLINE), which the table still reports
     */
    static Optional<String> mismatch(Cell cell, ServiceInfo main, List<String> jvmOptions, Map<String, String> mainProperties) {
        List<String> why = new ArrayList<>();
        if (!mainProperties.isEmpty()) {
            why.add("main-service properties " + mainProperties + " (./lab up has none)");
        }
        if (!main.requestKnobs()) {
            why.add("the latency as a query parameter (./lab up refuses per-request knobs: simulation.request-knobs=false)");
        }
        if (!cell.profile().equals(main.profile())) {
            why.add("profile " + cell.profile() + " (./lab up runs " + main.profile() + ")");
        }
        int threads = cell.tomcatThreads() == null ? ServiceDefaults.TOMCAT_THREADS : cell.tomcatThreads();
        if (main.tomcatThreads() == null || threads != main.tomcatThreads()) {
            why.add("Tomcat threads " + threads + " (./lab up: " + main.tomcatThreads() + ")");
        }
        int total = cell.poolSize() == null ? ServiceDefaults.POOL_TOTAL : cell.poolSize();
        int perRoute = cell.poolSize() == null ? ServiceDefaults.POOL_PER_ROUTE : cell.poolSize();
        if (main.poolMaxTotal() == null || total != main.poolMaxTotal() || perRoute != main.poolMaxPerRoute()) {
            why.add("pool " + total + "/" + perRoute + " total/per route (./lab up: " + main.poolMaxTotal() + "/"
                    + main.poolMaxPerRoute() + ")");
        }
        List<String> wanted = new ArrayList<>(toolOptions());
        wanted.addAll(jvmOptions);
        wanted.addAll(cell.jvmOptions());
        List<String> has = main.jvmInputArguments().stream().filter(a -> !a.equals("--enable-preview")).toList();
        if (!wanted.equals(has)) {
            why.add("JVM options " + wanted + " (./lab up: " + has + ")");
        }
        return why.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", why));
    }

    /** JAVA_TOOL_OPTIONS reach every JVM, ./lab up's and the harness's alike, and lead the input arguments. */
    private static List<String> toolOptions() {
        String tool = System.getenv("JAVA_TOOL_OPTIONS");
        return tool == null || tool.isBlank() ? List.of() : Arrays.asList(tool.strip().split("\\s+"));
    }

    /** @return true when the cell runs on ./lab up's services (they still run and have its knobs) */
    boolean reuses(Cell cell) {
        return !stopped && mismatch(cell, info, jvmOptions, mainProperties).isEmpty();
    }

    @Override
    public Deployment prepare(Cell cell) {
        if (reuses(cell)) {
            current = running;
            return running.prepare(cell);
        }
        if (!stopped) {
            out.println("this cell needs " + mismatch(cell, info, jvmOptions, mainProperties).orElseThrow()
                    + ": stopping the services ./lab up started (pids " + up.pids().values()
                    + "), so that one set runs at a time; the harness starts its own for this and the remaining cells."
                    + " Start them again afterwards with: " + up.command());
            up.stop().run();
            stopped = true;
        }
        if (local == null) {
            local = own.get();
        }
        current = local;
        return local.prepare(cell);
    }

    @Override
    public URI url(Cell cell) {
        return current.url(cell);
    }

    @Override
    public URI mainBaseUrl() {
        return current.mainBaseUrl();
    }

    @Override
    public URI mainManagementUrl() {
        return current.mainManagementUrl();
    }

    @Override
    public Map<String, Long> servicePids() {
        return current == running ? up.pids() : current == null ? Map.of() : current.servicePids();
    }

    @Override
    public String describe() {
        return "the services of ./lab up (" + up.base() + ", " + info.summary() + ") for the cells with their knobs;"
                + " for the others, after stopping them, the harness's own on free ports (logs in logs/)";
    }

    @Override
    public int restartsBetween(Cell previous, Cell next) {
        if (!stopped && mismatch(next, info, jvmOptions, mainProperties).isEmpty()
                && (previous == null || mismatch(previous, info, jvmOptions, mainProperties).isEmpty())) {
            return 0;
        }
        // a matching cell after a mismatch runs on the harness's services: ./lab up's are stopped by then
        boolean previousOnUp = previous != null && mismatch(previous, info, jvmOptions, mainProperties).isEmpty();
        return previousOnUp ? 1 : LocalTarget.restarts(previous, next);
    }

    /** @return whether ./lab up's services were stopped for a cell (then {@link #close} says how to restart them) */
    public boolean stoppedUp() {
        return stopped;
    }

    @Override
    public void close() {
        if (local != null) {
            local.close();
        }
        if (stopped) {
            out.println("The services of ./lab up were stopped for cells with other knobs; start them again with: "
                    + up.command());
        }
    }
}
