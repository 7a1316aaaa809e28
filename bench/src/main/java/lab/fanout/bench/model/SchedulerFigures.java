package lab.fanout.bench.model;

/**
 * main-service's share of the CPU during one run and how the kernel scheduled it (issue 66); null fields are unknown
 * (a remote target, no /proc), never 0.
 *
 * @param mainCpus            the CPUs main-service may use: its cpuset's cores or its CFS quota in cores
 *                            ({@code --main-cpus}), the machine's cores on the shared bed
 * @param loadSideBusyPercent busy share of the cores not given to main-service, %: of its cpuset's complement for
 *                            whole cores, of the machine less the quota for a fraction; null on the shared bed,
 *                            which has no load side of its own
 * @param voluntarySwitches   main-service's voluntary context switches (it blocked), its threads alive at the end
 * @param involuntarySwitches its involuntary ones (time slice over, preempted)
 * @param throttledPeriods    CFS periods in which its quota ran out; null without a quota
 * @param throttledSeconds    time it spent throttled, s; null without a quota
 */
public record SchedulerFigures(Double mainCpus, Double loadSideBusyPercent, Long voluntarySwitches,
                               Long involuntarySwitches, Long throttledPeriods, Double throttledSeconds) {

    /** Past this busy share the load side, not main-service, may be what binds: the cell gets no verdict. */
    public static final double LOAD_SIDE_BOUND_PERCENT = 85;

    /** @return whether the load side was busy past {@link #LOAD_SIDE_BOUND_PERCENT} */
    public boolean loadSideBound() {
        return loadSideBusyPercent != null && loadSideBusyPercent > LOAD_SIDE_BOUND_PERCENT;
    }
}
