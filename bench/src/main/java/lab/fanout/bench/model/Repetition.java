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
 * @param othersCpuPercent   the part of that busy share used by processes not ours, %, or null
 * @param cpuSeconds         role (a service's name, {@link #DRIVER}, {@link #HARNESS}) to the CPU seconds it used
 *                           during the run, from /proc; a role the harness cannot see (a remote service) is absent
 * @param fork               1-based: which start of the services it ran in ({@code ./lab bench --forks})
 * @param warmupSettled      whether the warm-up before it ended on main-service's plateau, not on its time cap
 * @param scheduler          main-service's CPU share and scheduling meanwhile; null where unknown (older results)
 */
public record Repetition(int index, Load load, DriverRun run, ServerFigures server, Double machineBusyPercent,
                         Double othersCpuPercent, Map<String, Double> cpuSeconds, int fork,
                         boolean warmupSettled, SchedulerFigures scheduler) {

    /** Role of the harness JVM itself (scraping, waiting). */
    public static final String HARNESS = "harness";
    /** Role of the load driver (hey, ab, vegeta): the harness's reaped children. */
    public static final String DRIVER = "driver";

    public Repetition {
        cpuSeconds = Map.copyOf(cpuSeconds);
    }

    /** Without scheduler figures (a results.csv, which has no columns for them). */
    public Repetition(int index, Load load, DriverRun run, ServerFigures server, Double machineBusyPercent,
                      Double othersCpuPercent, Map<String, Double> cpuSeconds, int fork, boolean warmupSettled) {
        this(index, load, run, server, machineBusyPercent, othersCpuPercent, cpuSeconds, fork, warmupSettled, null);
    }

    /** In the first fork, after a settled warm-up. */
    public Repetition(int index, Load load, DriverRun run, ServerFigures server, Double machineBusyPercent,
                      Double othersCpuPercent, Map<String, Double> cpuSeconds) {
        this(index, load, run, server, machineBusyPercent, othersCpuPercent, cpuSeconds, 1, true, null);
    }

    /**
     * @return {@code role}'s CPU ms per answered request (any status), or null when unknown; for a downstream that is
     *         per call, exact when every answer is 2xx (each made one call to it)
     */
    public Double cpuMsPerAnswer(String role) {
        Double s = cpuSeconds.get(role);
        return s == null || run.answered() == 0 ? null : 1000 * s / run.answered();
    }

    /** @return main-service's CPU ms per answered request: from /proc, else (a remote target) its own counter */
    public Double mainCpuMsPerAnswer() {
        Double proc = cpuMsPerAnswer(ServiceDefaults.MAIN);
        return proc != null || server.cpuSeconds() == null || run.answered() == 0 ? proc
                : Double.valueOf(1000 * server.cpuSeconds() / run.answered());
    }

    /** @return main-service's context switches per answered request, voluntary or involuntary; null when unknown */
    public Double switchesPerAnswer(boolean voluntary) {
        Long n = scheduler == null ? null : voluntary ? scheduler.voluntarySwitches() : scheduler.involuntarySwitches();
        return n == null || run.answered() == 0 ? null : (double) n / run.answered();
    }

    /** @return the share of the run main-service spent throttled by its CFS quota, s per s; null without a quota */
    public Double throttledShare() {
        Double s = scheduler == null ? null : scheduler.throttledSeconds();
        return s == null || run.windowSeconds() <= 0 ? null : s / run.windowSeconds();
    }

    /**
     * @return req/s main-service's own CPU allows: its CPUs ({@link SchedulerFigures#mainCpus}) ÷ its CPU s per
     *         request (the utilisation law, U = X × D, at U = 1); null when either is unknown
     */
    public Double mainCpuBound() {
        Double ms = mainCpuMsPerAnswer();
        return scheduler == null || scheduler.mainCpus() == null || ms == null || ms <= 0 ? null
                : 1000 * scheduler.mainCpus() / ms;
    }

    /** @return the load side's busy share, %, or null (the shared bed, older results) */
    public Double loadSideBusyPercent() {
        return scheduler == null ? null : scheduler.loadSideBusyPercent();
    }
}
