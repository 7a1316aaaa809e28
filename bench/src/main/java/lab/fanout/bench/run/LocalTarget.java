package lab.fanout.bench.run;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import lab.fanout.bench.model.Cell;
import lab.fanout.bench.model.Deployment;
import lab.fanout.bench.metrics.Footprint;
import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.system.AotCache;
import lab.fanout.bench.system.CpuPlacement;
import lab.fanout.bench.system.Environment;
import lab.fanout.bench.system.LocalSystem.LaunchSpec;
import lab.fanout.bench.system.LocalSystem;
import lab.fanout.bench.system.OrdersStore;
import lab.fanout.bench.system.ServiceInfo;

/**
 * The four services on free ports, started by the harness and stopped at the end: main-service restarts when its
 * knobs change or the cell reads its memory, all four when the latency (the downstreams' configured default), the
 * db pool or orders-service's JVM options do, or the cell reads orders-service's memory. A cell with a
 * db pool runs orders-service on its PostgreSQL store, an embedded server whose data lives in {@code orders-db} beside
 * the logs until orders-service stops (docs/orders-store.md).
 */
public final class LocalTarget implements Target {

    private final LaunchSpec base;
    private LocalSystem system;

    /**
     * @param logDir              one log per service, next to the results
     * @param extraMainProperties more Spring properties for main-service, e.g. {@code fanout.deadline=20s}
     * @param mainJvmOptions      main-service's JVM options in every cell, before the cell's own (which win)
     * @param aot                 USE: the services start with their JDK AOT caches (trained first when missing)
     * @param cpus                main-service's cores or quota in every cell ({@code --main-cpus})
     */
    public LocalTarget(Path repo, Path logDir, Map<String, String> extraMainProperties, List<String> mainJvmOptions,
                       AotCache.Mode aot, CpuPlacement cpus) {
        this.base = LaunchSpec.custom(repo).freePorts(true).logDir(logDir).extraMainProperties(extraMainProperties)
                .mainJvmArgs(mainJvmOptions).aot(aot).cpus(cpus).build();
    }

    /** @return what every cell starts from: the run's properties and options, the services' defaults */
    LaunchSpec base() {
        return base;
    }

    static LaunchSpec spec(LaunchSpec base, Cell cell) {
        List<String> jvm = new ArrayList<>(base.mainJvmArgs());
        jvm.addAll(cell.jvmOptions());
        return base.toBuilder().profile(cell.profile()).tomcatThreads(cell.tomcatThreads()).poolSize(cell.poolSize())
                .latencyMs(cell.latencyMs()).mainJvmArgs(jvm).ordersJvmArgs(cell.ordersJvmOptions())
                .extraDownstreamProperties(ordersStore(base, cell))
                .cpus(cell.mainCpus() == null ? base.cpus() : CpuPlacement.parse(cell.mainCpus(), Environment.cores()))
                .build();
    }

    /**
     * @return orders-service's properties for a cell with a db pool: its store (driver) with that many connections,
     *         and a connection timeout of main-service's deadline ({@code fanout.deadline} of the matrix or
     *         {@code --main-property}, else its default), so that a request queues for a connection as long as
     *         main-service waits for it (the 1 s default would turn the queue of a small pool into 503s); empty for
     *         the memory store
     */
    static Map<String, String> ordersStore(LaunchSpec base, Cell cell) {
        String deadline = base.extraMainProperties().getOrDefault("fanout.deadline",
                ServiceDefaults.DEADLINE_SECONDS + "s");
        return cell.dbPool() == null ? Map.of() : OrdersStore.database(cell.ordersStore(), cell.dbPool(),
                base.logDir().resolveSibling("orders-db"), null, deadline);
    }

    @Override
    public Deployment prepare(Cell cell) {
        LaunchSpec spec = spec(base, cell);
        if (system == null) {
            system = LocalSystem.start(spec);
        } else if (system.spec().equals(spec) && measuresOrdersMemory(spec)) {
            system.restartAll();
        } else if (system.spec().equals(spec) && measuresMemory(spec)) {
            system.restartMain();
        } else {
            system.apply(spec);
        }
        ServiceInfo orders = ServiceInfo.fetch(system.managementUrl("orders-service"));
        if (!Objects.equals(orders.dbPoolSize(), cell.dbPool())
                || !Objects.equals(orders.ordersStore(), cell.ordersStore())) {
            throw new IllegalStateException("orders-service runs a pool of " + orders.dbPoolSize() + " on store "
                    + orders.ordersStore() + " (null: the memory store), the cell asked for " + cell.dbPool() + " on "
                    + cell.ordersStore());
        }
        Integer latency = orders.latencyMs();
        return ServiceInfo.fetch(system.mainManagementUrl()).deployment(latency == null ? cell.latencyMs() : latency)
                .withDbPool(orders.dbPoolSize());
    }

    @Override
    public URI url(Cell cell) {
        return Target.ordersUrl(system.mainBaseUrl(), cell, false);
    }

    @Override
    public URI mainManagementUrl() {
        return system.mainManagementUrl();
    }

    @Override
    public URI ordersManagementUrl() {
        return system.managementUrl("orders-service");
    }

    @Override
    public CpuPlacement placement() {
        return system == null ? base.cpus() : system.spec().cpus();   // the cell's, once prepared
    }

    @Override
    public Map<String, Long> servicePids() {
        return system.pids();
    }

    @Override
    public String describe() {
        return "local: the four services started by the harness on free ports (logs in logs/)"
                + (base.aot() == AotCache.Mode.USE ? ", each with its JDK AOT cache" : "");
    }

    @Override
    public int restartsBetween(Cell previous, Cell next) {
        return restarts(base, previous, next);
    }

    /** @return {@link #restarts(LaunchSpec, Cell, Cell)} without options of the run's own */
    public static int restarts(Cell previous, Cell next) {
        return restarts(LaunchSpec.defaults(Path.of(".")), previous, next);
    }

    /**
     * @return 1 when main-service (or all four: latency, db pool) must (re)start between the two cells, else 0; a
     *         cell that reads main-service's memory ({@link Footprint#NMT}) always gets a new main-service (one that
     *         reads orders-service's, all four new ones), because
     *         heap after GC holds what earlier cells left: Tomcat's cached processors and socket buffers, worker
     *         threads not yet idle for 60 s, JFR's record of every thread it saw (at 100 clients after a 3,000-client
     *         cell: 290 MiB live, 1,547 Http11Processors, 97,365 RecordedThreads; 58 MiB, 101 and 6,150 in a new JVM)
     */
    static int restarts(LaunchSpec base, Cell previous, Cell next) {
        LaunchSpec spec = spec(base, next);
        return previous == null || !spec(base, previous).equals(spec) || measuresMemory(spec)
                || measuresOrdersMemory(spec) ? 1 : 0;
    }

    private static boolean measuresMemory(LaunchSpec spec) {
        return spec.mainJvmArgs().contains(Footprint.NMT);
    }

    private static boolean measuresOrdersMemory(LaunchSpec spec) {
        return spec.ordersJvmArgs().contains(Footprint.NMT);
    }

    @Override
    public void restart() {
        close();
        system = null;
    }

    @Override
    public void close() {
        if (system != null) {
            system.close();
        }
    }
}
