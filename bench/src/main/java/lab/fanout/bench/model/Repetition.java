package lab.fanout.bench.model;

import java.util.Map;

/**
 * One measured run of a cell.
 *
 * @param index              1-based
 * @param load               what the driver was told
 * @param run                what it measured
 * @param server             main-service's figures meanwhile
 * @param machineBusyPercent the whole machine's CPU busy share meanwhile, %, or null
 * @param othersCpuPercent   the share of that busy with processes not ours (neither the harness, its services nor
 *                           the driver), %, or null
 * @param cpuSeconds         process role (a service's name, {@code driver}, {@code harness}) to the CPU seconds it
 *                           used from just before the driver started to just after it was reaped, from /proc; a role
 *                           the harness cannot see (the services of a remote target) is absent
 */
public record Repetition(int index, Load load, DriverRun run, ServerFigures server, Double machineBusyPercent,
                         Double othersCpuPercent, Map<String, Double> cpuSeconds) {

    /** Role of the harness JVM itself (scraping, waiting) in {@link #cpuSeconds}. */
    public static final String HARNESS = "harness";
    /** Role of the load driver (hey, ab, vegeta): the harness's reaped children. */
    public static final String DRIVER = "driver";

    public Repetition {
        cpuSeconds = Map.copyOf(cpuSeconds);
    }

    /**
     * @return {@code role}'s CPU ms per answered request of this run (any status: an error costs CPU too), or null when
     *         unknown. For a downstream the answers stand for its calls: each 2xx answer needed exactly one call to each
     *         downstream, an error answer may have made one or none, so with errors the figure per call is approximate.
     */
    public Double cpuMsPerAnswer(String role) {
        Double s = cpuSeconds.get(role);
        return s == null || run.answered() == 0 ? null : 1000 * s / run.answered();
    }
}
