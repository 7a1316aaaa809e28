package lab.fanout.bench.model;

import java.util.List;
import java.util.Map;

/**
 * One {@code ./lab bench} run whole, as {@code results.json} holds it: how it was asked for, where it ran, and every
 * finished cell with every fork and repetition as measured (their latency histograms included).
 *
 * @param command the command as typed, e.g. {@code ./lab bench --preset quick --forks 3}
 * @param commit  the lab's git commit, with {@code (with uncommitted changes)} when its tree was dirty
 * @param machine where it ran
 * @param knobs   the run's settings beyond each cell's own ({@link Cell}, {@link Deployment})
 * @param cells   the finished cells in run order, earlier sittings' forks of them included
 */
public record RunResult(String command, String commit, Machine machine, Knobs knobs, List<CellResult> cells) {

    public RunResult {
        cells = List.copyOf(cells);
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
