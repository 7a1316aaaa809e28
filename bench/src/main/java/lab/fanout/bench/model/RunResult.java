package lab.fanout.bench.model;

import java.util.List;
import java.util.Map;

/**
 * One {@code ./lab bench} run whole, as {@code results.json} holds it: how it was asked for, where it ran (once per
 * sitting of its {@code --out}), and every finished cell with every fork and repetition as measured (their latency
 * histograms included).
 *
 * @param migrated null for a run of ./lab bench; for a result written before results.json existed, how it was
 *                 rebuilt and what it lacks (its histograms hold five percentiles, tagged so)
 * @param sittings the runs of ./lab bench that wrote its forks, in order (one unless {@code --out} was continued)
 * @param knobs    the run's settings beyond each cell's own ({@link Cell}, {@link Deployment})
 * @param cells    the finished cells in run order, with every sitting's forks
 */
public record RunResult(String migrated, List<Sitting> sittings, Knobs knobs, List<CellResult> cells) {

    public RunResult {
        sittings = List.copyOf(sittings);
        cells = List.copyOf(cells);
    }

    /** @return the last sitting: the run's command as now continued, its commit and machine */
    public Sitting last() {
        return sittings.getLast();
    }

    /**
     * @param firstFork the first fork the sitting ran (1-based); lastFork its last
     * @param command   the command as typed, e.g. {@code ./lab bench --preset quick --forks 3}
     * @param commit    the lab's git commit, with {@code (with uncommitted changes)} when its tree was dirty
     * @param machine   where it ran
     */
    public record Sitting(int firstFork, int lastFork, String command, String commit, Machine machine) {
    }

    /**
     * The machine and software behind a run; "unknown" where a line could not be read.
     *
     * @param memory            total RAM, e.g. {@code 7.8 GB}
     * @param labJvmFlags       the harness JVM's input arguments
     * @param hey               the Debian package version of hey; {@code ab} that of apache2-utils
     * @param loadAverageBefore load averages over 1, 5 and 15 minutes when the run started; After when it ended
     */
    public record Machine(String cpuModel, int cores, String memory, String os, String jdk, List<String> labJvmFlags,
                          String hey, String ab, String loadAverageBefore, String loadAverageAfter) {

        /** @return this machine with the load averages read now, at the end of the sitting so far */
        public Machine withLoadAfter(String loadAverage) {
            return new Machine(cpuModel, cores, memory, os, jdk, labJvmFlags, hey, ab, loadAverageBefore, loadAverage);
        }
    }

    /**
     * @param matrix         the preset's or matrix file's name
     * @param target         where the load went, e.g. {@code local: the four services started by the harness}
     * @param driver         the closed loop's driver (hey, ab); open-model cells use vegeta
     * @param forks          starts of the services per cell, earlier sittings' included
     * @param mainProperties extra Spring properties of main-service (the matrix's, then {@code --main-property})
     * @param jvmOptions     main-service's JVM options in every cell ({@code --jvm-option}), before a cell's own
     * @param aot            whether the services started with their JDK AOT caches ({@code --aot})
     * @param mainCpus       main-service's CPU placement as {@code --main-cpus} takes it: {@code all}, {@code 1},
     *                       {@code 0.5}; null in runs from before it existed (all)
     */
    public record Knobs(String matrix, String target, String driver, int forks, Map<String, String> mainProperties,
                        List<String> jvmOptions, boolean aot, String mainCpus) {
    }
}
