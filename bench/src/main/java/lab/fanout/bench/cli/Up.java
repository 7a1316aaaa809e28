package lab.fanout.bench.cli;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.model.Strategy;
import lab.fanout.bench.system.CpuPlacement;
import lab.fanout.bench.system.Environment;
import lab.fanout.bench.system.LocalSystem.LaunchSpec;
import lab.fanout.bench.system.LocalSystem;
import lab.fanout.bench.system.Poll;
import lab.fanout.bench.system.Prometheus;
import lab.fanout.bench.system.Zipkin;
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

    static final String WITH_ZIPKIN = "--with-zipkin";
    /** A traced request's answer: the deadline (10 s) and some. */
    private static final Duration TRACED_REQUEST_TIMEOUT = Duration.ofSeconds(15);
    /** What a trace of one request at width 1 holds: main-service's server span, 3 client spans, 3 downstream spans. */
    static final int SPANS_PER_REQUEST = 7;

    @Spec
    CommandSpec spec;

    @Mixin
    KnobOptions knobs;

    @Option(names = "--with-prometheus",
            description = "also run prometheus on 127.0.0.1:9090 (prometheus/prometheus.yml)")
    boolean withPrometheus;

    @Option(names = WITH_ZIPKIN, description = {"also run Zipkin (in memory, the last 50,000 spans) on"
            + " 127.0.0.1:9411, its UI at http://127.0.0.1:9411/zipkin/; the four services report their spans there,"
            + " sampled at --trace-sampling, and one request per strategy is sent with a known trace id, whose links"
            + " are printed. Sampling 1.0 records every request: right for looking at requests by hand, wrong for a"
            + " benchmark (it measures tracing), so ./lab bench refuses these services: it runs at sampling 0."})
    boolean withZipkin;

    @Option(names = "--trace-sampling", paramLabel = "P", description = "with " + WITH_ZIPKIN + ": the share of"
            + " requests the services record and report, 0.0..1.0 (default: 1.0, every one). A request whose"
            + " traceparent says sampled (-01) is recorded whatever this is.")
    Double traceSampling;

    @Override
    public Integer call() {
        Workspace ws = Workspace.current();
        RunState state = RunState.load(ws);
        Map<String, ProcessHandle> running = state.runningServices();
        if (!running.isEmpty()) {
            System.out.println("already running (" + state.knobs() + "): " + running.keySet()
                    + ". ./lab status shows them.");
            System.out.println("To restart with other knobs: ./lab down && ./lab up " + knobs.asArgs() + tracing());
            return knobs.anyGiven() || withZipkin ? 1 : 0;
        }
        LaunchSpec launch = launchSpec(ws);
        if (withZipkin) {
            Zipkin.LOCAL.requireStartable(ws.zipkinJar());
        }
        LocalSystem system = LocalSystem.startDetached(launch);
        system.pids().forEach((s, pid) -> state.put(s, pid, system.ports().get(s), system.managementPorts().get(s)));
        state.knobs(knobs.asArgs() + tracing());
        state.save();
        if (withPrometheus) {
            Process p = Prometheus.start(ws.prometheusConfig(), ws.prometheusData(),
                    ws.logDir().resolve("prometheus.log"), ws.repo());
            state.put(RunState.PROMETHEUS, p.pid(), Prometheus.PORT, null);
            state.save();
        }
        if (withZipkin) {
            System.out.println("starting zipkin (log .lab/logs/zipkin.log) ...");
            Process p = Zipkin.LOCAL.start(ws.zipkinJar(), ws.logDir().resolve("zipkin.log"), ws.repo());
            state.put(RunState.ZIPKIN, p.pid(), Zipkin.PORT, null);
            state.save();
        }
        printUsage(system, withPrometheus, withZipkin);
        if (withZipkin) {
            printTraceLinks(system.mainBaseUrl());
        }
        return 0;
    }

    /** @throws ParameterException a bad knob (message: the fix) */
    private LaunchSpec launchSpec(Workspace ws) {
        try {
            LaunchSpec launch = knobs.apply(LaunchSpec.defaults(ws.repo()));
            if (withZipkin) {
                double sampling = traceSampling == null ? 1.0 : traceSampling;
                Map<String, String> tracing = new LinkedHashMap<>(Zipkin.LOCAL.serviceProperties(sampling));
                if (withPrometheus) {   // an old Prometheus scrapes nothing from services that write exemplars
                    tracing.putAll(Prometheus.exemplarProperties(ws.repo()));
                }
                return launch.toBuilder().allProperties(tracing).build();
            }
            if (traceSampling != null) {
                throw new IllegalArgumentException("--trace-sampling sets what the services report to Zipkin: add "
                        + WITH_ZIPKIN);
            }
            return launch;
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage() + " (see ./lab up --help)");
        }
    }

    /** @return the tracing options as typed, e.g. {@code " --with-zipkin"}, or empty */
    private String tracing() {
        return (withZipkin ? " " + WITH_ZIPKIN : "")
                + (traceSampling == null ? "" : " --trace-sampling " + traceSampling);
    }

    /**
     * Sends one request per strategy with a sampled {@code traceparent} of a new trace id, waits until Zipkin holds
     * each trace's spans (up to 10 s in all: the services report about once a second) and prints its link.
     */
    private static void printTraceLinks(URI mainBase) {
        Map<Strategy, String> traces = new LinkedHashMap<>();
        Map<Strategy, Integer> statuses = new LinkedHashMap<>();
        for (Strategy s : Strategy.values()) {
            String traceId = Zipkin.newTraceId();
            traces.put(s, traceId);
            statuses.put(s, Zipkin.sendTraced(ServiceDefaults.ordersUrl(mainBase, s, ""), traceId,
                    TRACED_REQUEST_TIMEOUT));
        }
        Poll.reached(Duration.ofSeconds(10), Duration.ofMillis(250),
                () -> traces.values().stream().allMatch(id -> Zipkin.LOCAL.spanCount(id) >= SPANS_PER_REQUEST));
        System.out.println("\nZipkin: " + Zipkin.UI + "; one request per strategy, its trace (" + SPANS_PER_REQUEST
                + " spans when complete):");
        traces.forEach((s, id) -> System.out.printf("  %-40s %s  (%d spans%s)%n", s, Zipkin.LOCAL.traceUrl(id),
                Zipkin.LOCAL.spanCount(id), statuses.get(s) == 200 ? "" : ", answered " + statuses.get(s)));
        System.out.println("Other requests are recorded at --trace-sampling, and always with a sampled traceparent,"
                + " e.g. curl -H 'traceparent: 00-<32 hex>-<16 hex>-01' ...; find them in the UI by service or time.");
    }

    private static void printUsage(LocalSystem system, boolean prometheus, boolean zipkin) {
        System.out.println();
        ServiceDefaults.SERVICES.forEach(s -> System.out.printf("  %-17s %s  actuator %s  (pid %d, log"
                + " .lab/logs/%s.log)%n", s, system.baseUrl(s), system.managementUrl(s), system.pids().get(s), s));
        if (prometheus) {
            System.out.printf("  %-17s %s%n", "prometheus", Prometheus.URL);
        }
        if (zipkin) {
            System.out.printf("  %-17s %s%n", "zipkin", Zipkin.UI);
        }
        String base = system.mainBaseUrl() + ServiceDefaults.ORDERS_PATH;
        // with --main-cpus N the load belongs off main-service's cores, where the downstreams run
        CpuPlacement cpus = system.spec().cpus();
        String off = cpus.shared() || !cpus.whole() ? "" : "taskset -c " + cpus.loadCores(Environment.cores()) + " ";
        System.out.println("\nThe seed's ab line:\n  " + off + "ab -n 1000 -c 200 " + base
                + "/byRestTemplate?concurrency=scopeFork");
        System.out.println("\nhey, one line per strategy" + (off.isEmpty() ? "" : ", on the load side's cores") + ":");
        for (Strategy s : Strategy.values()) {
            System.out.println("  " + off + "hey -n 1000 -c 100 '" + base + "?concurrency=" + s + "'");
        }
        System.out.println("\nStop with ./lab down; see them with ./lab status.");
    }
}
