package lab.fanout.bench.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.system.Processes;
import picocli.CommandLine.Command;

/** {@code ./lab down}: SIGTERM to what {@code ./lab up} started, main-service first, SIGKILL after 30 s. */
@Command(name = "down", mixinStandardHelpOptions = true,
        description = "Stops what ./lab up started (gracefully: SIGTERM, then SIGKILL after 30 s), prometheus too.")
final class Down implements Callable<Integer> {

    @Override
    public Integer call() {
        RunState state = RunState.load(Workspace.current());
        Map<String, ProcessHandle> running = state.running();
        if (running.isEmpty()) {
            System.out.println("nothing running");
        }
        // main-service alone first: its in-flight requests may still call the downstreams
        List<String> order = new ArrayList<>(List.of(ServiceDefaults.MAIN, RunState.PROMETHEUS));
        List<ProcessHandle> rest = new ArrayList<>();
        running.forEach((name, h) -> {
            if (!order.contains(name)) {
                rest.add(h);
            }
        });
        for (String name : order) {
            if (running.containsKey(name)) {
                Processes.terminate(List.of(running.get(name)));
                System.out.println("stopped " + name + " (pid " + running.get(name).pid() + ")");
            }
        }
        Processes.terminate(rest);
        running.forEach((name, h) -> {
            if (!order.contains(name)) {
                System.out.println("stopped " + name + " (pid " + h.pid() + ")");
            }
        });
        RunState.names().forEach(state::remove);
        state.save();
        return 0;
    }
}
