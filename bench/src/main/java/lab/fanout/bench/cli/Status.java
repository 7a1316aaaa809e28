package lab.fanout.bench.cli;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;

import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.system.Http;
import lab.fanout.bench.system.ServiceInfo;
import picocli.CommandLine.Command;

import static lab.fanout.bench.cli.RunState.PROMETHEUS;

/** {@code ./lab status}: per service its pid, port, readiness and knobs (from {@code /actuator/info}). */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Shows each service of ./lab up: pid, port, ready?, knobs. Exit 1 when not all are ready.")
final class Status implements Callable<Integer> {

    @Override
    public Integer call() {
        RunState state = RunState.load(Workspace.current());
        if (state.running().isEmpty()) {
            System.out.println("not running (./lab up starts it)");
            return 1;
        }
        System.out.println("started with: " + state.knobs());
        boolean allReady = true;
        for (String name : RunState.names()) {
            Optional<ProcessHandle> process = state.process(name);
            if (name.equals(PROMETHEUS) && process.isEmpty()) {
                continue;
            }
            int port = state.port(name).orElse(ServiceDefaults.PORTS.getOrDefault(name, 0));
            URI base = URI.create((name.equals(PROMETHEUS) ? "http://127.0.0.1:" : "http://localhost:") + port);
            URI management = URI.create("http://localhost:"
                    + state.managementPort(name).orElse(ServiceDefaults.MANAGEMENT_PORTS.getOrDefault(name, 0)));
            boolean ready = process.isPresent() && (name.equals(PROMETHEUS)
                    ? Http.get(base.resolve("/-/ready"), Duration.ofSeconds(2)).isPresent() : Http.ready(management));
            allReady &= ready;
            System.out.printf("  %-17s pid %-8s %-24s %-10s %s%n", name,
                    process.map(h -> Long.toString(h.pid())).orElse("-"), base,
                    process.isEmpty() ? "NOT RUNNING" : ready ? "ready" : "NOT READY",
                    name.equals(PROMETHEUS) || !ready ? "" : ServiceInfo.fetch(management).summary());
        }
        return allReady ? 0 : 1;
    }
}
