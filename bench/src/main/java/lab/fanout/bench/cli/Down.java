package lab.fanout.bench.cli;

import java.util.concurrent.Callable;

import lab.fanout.bench.system.CpuGroups;
import picocli.CommandLine.Command;

/**
 * {@code ./lab down}: SIGTERM to what {@code ./lab up} started, main-service first, zipkin last, SIGKILL after 30 s.
 */
@Command(name = "down", mixinStandardHelpOptions = true,
        description = "Stops what ./lab up started (gracefully: SIGTERM, then SIGKILL after 30 s), prometheus and"
                + " zipkin too, and removes the cgroups of --main-cpus.")
final class Down implements Callable<Integer> {

    @Override
    public Integer call() {
        RunState.load(Workspace.current()).stop(RunState.names());
        CpuGroups.removeStale();   // ./lab up --main-cpus's cgroups, empty now; none made, nothing to do
        return 0;
    }
}
