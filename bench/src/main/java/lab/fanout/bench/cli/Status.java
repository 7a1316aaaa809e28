package lab.fanout.bench.cli;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;

import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.system.Http;
import lab.fanout.bench.system.ServiceInfo;
import lab.fanout.bench.system.Zipkin;
import picocli.CommandLine.Command;

import static lab.fanout.bench.cli.RunState.PROMETHEUS;
import static lab.fanout.bench.cli.RunState.ZIPKIN;

/** {@code ./lab status}: per service its pid, port, readiness and knobs (from {@code /actuator/info}). */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Shows each service of ./lab up: pid, port, ready?, knobs; prometheus and zipkin when started."
                + " Exit 1 when not all are ready.")
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
            boolean extra = name.equals(PROMETHEUS) || name.equals(ZIPKIN);
            if (extra && process.isEmpty()) {
                continue;
            }
            int port = state.port(name).orElse(ServiceDefaults.PORTS.getOrDefault(name, 0));
            URI base = URI.create((extra ? "http://127.0.0.1:" : "http://localhost:") + port);
            URI management = URI.create("http://localhost:"
                    + state.managementPort(name).orElse(ServiceDefaults.MANAGEMENT_PORTS.getOrDefault(name, 0)));
            boolean ready = process.isPresent() && (extra ? Http.get(base.resolve(readyPath(name)),
                    Duration.ofSeconds(2)).isPresent() : Http.ready(management));
            allReady &= ready;
            System.out.printf("  %-17s pid %-8s %-24s %-10s %s%n", name,
                    process.map(h -> Long.toString(h.pid())).orElse("-"), base,
                    process.isEmpty() ? "NOT RUNNING" : ready ? "ready" : "NOT READY",
                    name.equals(ZIPKIN) ? "UI " + Zipkin.UI : extra || !ready ? ""
                            : ServiceInfo.fetch(management).summary());
        }
        return allReady ? 0 : 1;
    }

    private static String readyPath(String extra) {
        return extra.equals(ZIPKIN) ? "/health" : "/-/ready";
    }
}
