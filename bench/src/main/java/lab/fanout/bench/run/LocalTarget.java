package lab.fanout.bench.run;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import lab.fanout.bench.model.Cell;
import lab.fanout.bench.model.Deployment;
import lab.fanout.bench.system.AotCache;
import lab.fanout.bench.system.LocalSystem.LaunchSpec;
import lab.fanout.bench.system.LocalSystem;
import lab.fanout.bench.system.ServiceInfo;

/**
 * The four services on free ports, started by the harness and stopped at the end: main-service restarts only when
 * its knobs change, the downstreams only when the latency does (it is their configured default).
 */
public final class LocalTarget implements Target {

    private final LaunchSpec base;
    private LocalSystem system;

    /**
     * @param logDir one log per service, kept next to the results
     * @param extraMainProperties more Spring properties for main-service, e.g. {@code fanout.deadline=20s}
     * @param mainJvmOptions      JVM options for main-service in every cell ({@code ./lab bench --jvm-option}), before
     *                            the cell's own {@code jvmOptions} (so a cell's value wins: the JVM takes the last -D)
     * @param aot                 USE: the services start with their JDK AOT caches (trained first when missing)
     */
    public LocalTarget(Path repo, Path logDir, Map<String, String> extraMainProperties, List<String> mainJvmOptions,
                       AotCache.Mode aot) {
        LaunchSpec d = LaunchSpec.defaults(repo);
        this.base = new LaunchSpec(repo, d.profile(), null, null, null, true, logDir, extraMainProperties, Map.of(),
                d.extraJvmArgs(), mainJvmOptions, aot);
    }

    public LocalTarget(Path repo, Path logDir, Map<String, String> extraMainProperties) {
        this(repo, logDir, extraMainProperties, List.of(), AotCache.Mode.OFF);
    }

    static LaunchSpec spec(LaunchSpec base, Cell cell) {
        List<String> jvm = new ArrayList<>(base.mainJvmArgs());
        jvm.addAll(cell.jvmOptions());
        return base.withKnobs(cell.profile(), cell.tomcatThreads(), cell.poolSize(), cell.latencyMs()).withMainJvmArgs(jvm);
    }

    @Override
    public Deployment prepare(Cell cell) {
        LaunchSpec spec = spec(base, cell);
        if (system == null) {
            system = LocalSystem.start(spec);
        } else {
            system.apply(spec);
        }
        Integer latency = ServiceInfo.fetch(system.managementUrl("orders-service")).latencyMs();
        return ServiceInfo.fetch(system.mainManagementUrl()).deployment(latency == null ? cell.latencyMs() : latency);
    }

    @Override
    public URI url(Cell cell) {
        return URI.create(mainBaseUrl() + ORDERS_PATH + "?concurrency=" + cell.strategy());
    }

    @Override
    public URI mainBaseUrl() {
        return system.mainBaseUrl();
    }

    @Override
    public URI mainManagementUrl() {
        return system.mainManagementUrl();
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
        return restarts(previous, next);
    }

    /** @return 1 when main-service (or all four) must (re)start between the two cells, else 0 */
    static int restarts(Cell previous, Cell next) {
        LaunchSpec base = LaunchSpec.defaults(Path.of("."));
        return previous == null || !spec(base, previous).equals(spec(base, next)) ? 1 : 0;
    }

    @Override
    public void close() {
        if (system != null) {
            system.close();
        }
    }
}
