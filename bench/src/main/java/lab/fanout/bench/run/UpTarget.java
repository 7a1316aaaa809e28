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
 * {@code ./lab bench} while {@code ./lab up}'s services run, one set of services at a time: the cells whose knobs the
 * running main-service reports run on it (the latency as a query parameter, as with {@code --base-url}); at the first
 * cell that needs other knobs it says so, stops {@code ./lab up}'s services and hands that cell and every later one to
 * the harness's own ({@link LocalTarget}); at the end it says how to start {@code ./lab up} again.
 */
public final class UpTarget implements Target {

    /**
     * The running {@code ./lab up}.
     *
     * @param pids             service name to pid, for the CPU accounting
     * @param command          how to start it again, e.g. {@code ./lab up --profile virtual}
     * @param stop             stops its four services and forgets them
     * @param ordersManagement orders-service's actuator, where it says its store's JDBC pool; null if unknown
     */
    public record Up(URI base, URI management, Map<String, Long> pids, String command, Runnable stop,
                     URI ordersManagement) {
    }

    private final Up up;
    private final RemoteTarget running;
    private final ServiceInfo info;
    private final Integer upDbPool;
    private final List<String> jvmOptions;
    private final Map<String, String> mainProperties;
    private final Supplier<Target> own;
    private final PrintStream out;
    private Target local;
    private Target current;

    /**
     * @param jvmOptions     {@code ./lab bench --jvm-option}s every cell's main-service must run with
     * @param mainProperties extra Spring properties the cells need: a running main-service cannot be checked for them,
     *                       so any makes every cell a mismatch
     * @param own            the harness's own services, made at the first cell that does not match
     */
    public UpTarget(Up up, List<String> jvmOptions, Map<String, String> mainProperties, Supplier<Target> own,
                    PrintStream out) {
        this.up = up;
        this.running = new RemoteTarget(up.base(), up.management());
        this.info = running.info();
        this.upDbPool = up.ordersManagement() == null ? null : ServiceInfo.fetch(up.ordersManagement()).dbPoolSize();
        this.jvmOptions = List.copyOf(jvmOptions);
        this.mainProperties = Map.copyOf(mainProperties);
        this.own = own;
        this.out = out;
    }

    /**
     * @return why {@code main} (a running main-service's knobs) cannot serve {@code cell}, e.g. {@code profile platform
     *         (./lab up runs virtual)}; empty when it can. Settings made by other environment variables (e.g.
     *         FANOUT_DEADLINE) are not compared; the table reports them.
     */
    static Optional<String> mismatch(Cell cell, ServiceInfo main, List<String> jvmOptions,
                                     Map<String, String> mainProperties) {
        List<String> why = new ArrayList<>();
        if (!mainProperties.isEmpty()) {
            why.add("main-service properties " + mainProperties + " (./lab up has none)");
        }
        if (!main.requestKnobs()) {
            why.add("the latency as a query parameter (./lab up refuses per-request knobs:"
                    + " simulation.request-knobs=false)");
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
        // JAVA_TOOL_OPTIONS reach every JVM, ./lab up's and the harness's alike, and lead the input arguments
        String tool = System.getenv().getOrDefault("JAVA_TOOL_OPTIONS", "").strip();
        List<String> wanted = new ArrayList<>(tool.isEmpty() ? List.of() : Arrays.asList(tool.split("\\s+")));
        wanted.addAll(jvmOptions);
        wanted.addAll(cell.jvmOptions());
        List<String> has = main.jvmOptions();
        if (!wanted.equals(has)) {
            why.add("JVM options " + wanted + " (./lab up: " + has + ")");
        }
        return why.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", why));
    }

    /**
     * @param upDbPool the JDBC pool of ./lab up's orders-service, null for its memory store
     * @return why ./lab up's orders-service cannot serve {@code cell}: a cell with a db pool or JVM options of
     *         orders-service always needs the harness's own (its connection timeout and data directory, or the
     *         options), a memory-store cell one on that store
     */
    static Optional<String> dbMismatch(Cell cell, Integer upDbPool) {
        if (!cell.ordersJvmOptions().isEmpty()) {
            return Optional.of("orders-service with JVM options " + cell.ordersJvmOptions()
                    + " (the harness starts it with them)");
        }
        if (cell.dbPool() != null) {
            return Optional.of("orders-service on PostgreSQL with a " + (Cell.R2DBC.equals(cell.ordersStore())
                    ? "R2DBC" : "JDBC") + " pool of " + cell.dbPool()
                    + " (the harness starts it for each db pool)");
        }
        return upDbPool == null ? Optional.empty() : Optional.of("orders-service on its memory store (./lab up's"
                + " runs on PostgreSQL with a JDBC pool of " + upDbPool + ")");
    }

    private Optional<String> why(Cell cell) {
        Optional<String> main = mismatch(cell, info, jvmOptions, mainProperties);
        Optional<String> db = dbMismatch(cell, upDbPool);
        return main.isEmpty() || db.isEmpty() ? main.or(() -> db) : Optional.of(main.get() + ", " + db.get());
    }

    private boolean onUp(Cell cell) {
        return local == null && why(cell).isEmpty();
    }

    @Override
    public Deployment prepare(Cell cell) {
        if (onUp(cell)) {
            current = running;
        } else {
            if (local == null) {
                out.println("this cell needs " + why(cell).orElseThrow()
                        + ": stopping the services ./lab up started (pids " + up.pids().values() + "), so that one"
                        + " set runs at a time; the harness starts its own for this and the remaining cells. Start"
                        + " them again afterwards with: " + up.command());
                up.stop().run();
                local = own.get();
            }
            current = local;
        }
        return current.prepare(cell);
    }

    @Override
    public URI url(Cell cell) {
        return current.url(cell);
    }

    @Override
    public URI mainManagementUrl() {
        return current.mainManagementUrl();
    }

    @Override
    public URI ordersManagementUrl() {
        return current.ordersManagementUrl();
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
        boolean previousOnUp = previous != null && onUp(previous);
        if (onUp(next) && (previous == null || previousOnUp)) {
            return 0;
        }
        // a matching cell after a mismatch runs on the harness's services: ./lab up's are stopped by then
        return previousOnUp ? 1 : LocalTarget.restarts(previous, next);
    }

    @Override
    public void close() {
        if (local != null) {
            local.close();
            out.println("The services of ./lab up were stopped for cells with other knobs; start them again with: "
                    + up.command());
        }
    }
}
