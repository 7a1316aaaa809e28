package lab.fanout.bench.cli;

import java.util.Map;
import java.util.concurrent.Callable;

import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.model.Strategy;
import lab.fanout.bench.system.LocalSystem.LaunchSpec;
import lab.fanout.bench.system.LocalSystem;
import lab.fanout.bench.system.Prometheus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ./lab up}: the four services in the background on the seed's ports, until {@code ./lab down}. */
@Command(name = "up", mixinStandardHelpOptions = true,
        description = "Starts the four services in the background (ports 2222, 8081-8083; actuators on 9222, 9081-9083;"
                + " logs in .lab/logs) and waits until they are ready.")
final class Up implements Callable<Integer> {


    @Spec
    CommandSpec spec;

    @Mixin
    KnobOptions knobs;

    @Option(names = "--with-prometheus",
            description = "also run prometheus on 127.0.0.1:9090 (prometheus/prometheus.yml)")
    boolean withPrometheus;

    @Override
    public Integer call() {
        Workspace ws = Workspace.current();
        RunState state = RunState.load(ws);
        Map<String, ProcessHandle> running = state.runningServices();
        if (!running.isEmpty()) {
            System.out.println("already running (" + state.knobs() + "): " + running.keySet()
                    + ". ./lab status shows them.");
            System.out.println("To restart with other knobs: ./lab down && ./lab up " + knobs.asArgs());
            return knobs.anyGiven() ? 1 : 0;
        }
        LaunchSpec launch;
        try {
            launch = knobs.apply(LaunchSpec.defaults(ws.repo()));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage() + " (see ./lab up --help)");
        }
        LocalSystem system = LocalSystem.startDetached(launch);
        system.pids().forEach((s, pid) -> state.put(s, pid, system.ports().get(s), system.managementPorts().get(s)));
        state.knobs(knobs.asArgs());
        state.save();
        if (withPrometheus) {
            Process p = Prometheus.start(ws.prometheusConfig(), ws.prometheusData(),
                    ws.logDir().resolve("prometheus.log"), ws.repo());
            state.put(RunState.PROMETHEUS, p.pid(), Prometheus.PORT, null);
            state.save();
        }
        printUsage(system, withPrometheus);
        return 0;
    }

    private static void printUsage(LocalSystem system, boolean prometheus) {
        System.out.println();
        ServiceDefaults.SERVICES.forEach(s -> System.out.printf("  %-17s %s  actuator %s  (pid %d, log"
                + " .lab/logs/%s.log)%n", s, system.baseUrl(s), system.managementUrl(s), system.pids().get(s), s));
        if (prometheus) {
            System.out.printf("  %-17s %s%n", "prometheus", Prometheus.URL);
        }
        String base = system.mainBaseUrl() + ServiceDefaults.ORDERS_PATH;
        System.out.println("\nThe seed's ab line:\n  ab -n 1000 -c 200 " + base
                + "/byRestTemplate?concurrency=scopeFork");
        System.out.println("\nhey, one line per strategy:");
        for (Strategy s : Strategy.values()) {
            System.out.println("  hey -n 1000 -c 100 '" + base + "?concurrency=" + s + "'");
        }
        System.out.println("\nStop with ./lab down; see them with ./lab status.");
    }
}
