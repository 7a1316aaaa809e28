package lab.fanout.bench.overload;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import lab.fanout.bench.model.Bound;
import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.model.Strategy;

/**
 * One cell of {@code ./lab bench --preset overload}, and the preset's knobs: the same Little's-law bound for every
 * cell, 50 req/s, so that its multiples are the same offered rates everywhere. Each request holds 3 pooled
 * connections for the 2 s latency (300 ÷ (3 × 2 s)), and under platform a request thread too (100 ÷ 2 s); see
 * {@link Bound#littlesLaw} (netty has none: its blocking strategies run on virtual threads, reactive on the event
 * loop).
 *
 * @param profile  main-service's server and request threads: virtual, platform (Tomcat) or netty
 * @param mode     its admission control: off, fixed (at the heap's ceiling, {@link #MAX_IN_FLIGHT}), adaptive, or a
 *                 fixed limit sized otherwise ({@link #LIMITED}: Little's law's, main-service's default)
 * @param multiple the offered rate as a multiple of the bound, or null for the spike ({@link #SPIKE})
 */
record OverloadCell(String profile, String mode, Strategy strategy, Double multiple) {

    static final int LATENCY_MS = 2000;
    static final int POOL = 300;
    static final int TOMCAT_THREADS = 100;
    /** A pod's heap, fixed so that what the heap holds is the same in every cell. */
    static final List<String> HEAP = List.of("-Xms512m", "-Xmx512m");
    /**
     * fixed's limit and adaptive's top: the most requests in flight that heap holds, 512 MiB × 0.4 ÷ 256 KiB
     * (main-service's AdmissionProperties.ceiling), set explicitly since fixed's own default became 200: the committed
     * forks measured the heap's ceiling, and a fork added later must measure the same.
     */
    static final int MAX_IN_FLIGHT = 819;
    static final List<Double> MULTIPLES = List.of(0.5, 1.0, 2.0, 5.0, 10.0);
    /**
     * Fixed limits sized otherwise than the heap's ceiling (issue 68 item 2), by mode name: Little's law's, the
     * requests the downstream pool can serve at once, 300 connections ÷ 3 calls a request = 100 in flight (a request
     * past them would only wait for a connection); and main-service's own default, 200 (AdmissionProperties), the
     * limit a plain start runs with. At 2×, 10× and in the spike.
     */
    static final Map<String, Integer> LIMITED = Map.of("littles-law", POOL / 3, "fixed-200", 200);
    static final List<String> MODES = List.of("off", "fixed", "adaptive", "littles-law", "fixed-200");
    /** main-service's default mode (AdmissionProperties): with off, at every rate and in the spike. */
    static final String DEFAULT_MODE = "fixed";
    /** The modes that are not the default: at 2× and 10× only (the {@link #LIMITED} ones in the spike too). */
    static final List<Double> OTHER_MODE_MULTIPLES = List.of(2.0, 10.0);
    static final List<Strategy> STRATEGIES = List.of(Strategy.VIRTUAL_THREAD_PER_TASK, Strategy.THREAD_PER_TASK,
            Strategy.REACTIVE, Strategy.BOUNDED_POOL);
    /**
     * The bounded pool's threads and queue: as many threads as connections, so that its bound is the same 50 req/s
     * (300 ÷ (3 × 2 s)), and a queue as long (a queued call waits at most about one latency). Past both, 503
     * bulkhead-full: the bulkhead at the calls beside admission control at the door.
     */
    static final int BOUNDED_POOL = POOL;
    /**
     * How long a rate cell offers its load. Goodput counts the answers of its last 14 s, 7 latencies: answers come in
     * waves one latency apart where threads or connections bind, and a span of whole waves counts each once.
     */
    static final Duration WINDOW = Duration.ofSeconds(16);
    /** The spike: 0.5× for 16 s, 10× for 30 s, 0.5× for 30 s (recovery is read in the last phase). */
    static final List<Phase> SPIKE = List.of(new Phase(0.5, Duration.ofSeconds(16)),
            new Phase(10, Duration.ofSeconds(30)), new Phase(0.5, Duration.ofSeconds(30)));
    /** vegeta's -timeout, s: past main-service's 10 s deadline, so a request it holds longer shows as "timeout". */
    static final int TIMEOUT_SECONDS = 15;

    /** One constant-rate stretch of a cell's load. */
    record Phase(double multiple, Duration length) {
    }

    /** @return the cells for these profiles, in run order: per profile and mode (a start each), per strategy */
    static List<OverloadCell> all(List<String> profiles) {
        List<OverloadCell> cells = new ArrayList<>();
        for (String profile : profiles) {
            for (String mode : MODES) {
                boolean other = !mode.equals("off") && !mode.equals(DEFAULT_MODE);
                for (Strategy strategy : STRATEGIES) {
                    (other ? OTHER_MODE_MULTIPLES : MULTIPLES)
                            .forEach(m -> cells.add(new OverloadCell(profile, mode, strategy, m)));
                    if (!other || LIMITED.containsKey(mode)) {
                        cells.add(new OverloadCell(profile, mode, strategy, null));
                    }
                }
            }
        }
        return cells;
    }

    /** @return main-service's {@code fanout.admission.mode}: a {@link #LIMITED} mode is its fixed one */
    String admissionMode() {
        return LIMITED.containsKey(mode) ? "fixed" : mode;
    }

    /** @return main-service's {@code fanout.admission.max-in-flight}: fixed's limit, adaptive's top */
    int maxInFlight() {
        return LIMITED.getOrDefault(mode, MAX_IN_FLIGHT);
    }

    /** @return the bound of every cell, req/s (the same for these knobs; computed, not assumed) */
    double bound() {
        return littlesLaw().requestsPerSecond();
    }

    /** @return the Little's-law bound and its ceilings: only platform's Tomcat holds a request thread per request */
    Bound littlesLaw() {
        return Bound.littlesLaw().strategy(strategy).virtualProfile(!ServiceDefaults.poolOfRequestThreads(profile))
                .clients(Integer.MAX_VALUE).tomcatThreads(TOMCAT_THREADS).pool(POOL).latencyMs(LATENCY_MS)
                .parallelism(1).boundedPoolThreads(BOUNDED_POOL).build();
    }

    boolean spike() {
        return multiple == null;
    }

    /** @return the load's phases: one for a rate cell, three for the spike */
    List<Phase> phases() {
        return spike() ? SPIKE : List.of(new Phase(multiple, WINDOW));
    }

    /** @return the mean offered rate, req/s */
    double offeredPerSecond() {
        return phases().stream().mapToDouble(p -> p.multiple() * bound() * p.length().toSeconds()).sum() / seconds();
    }

    double seconds() {
        return phases().stream().mapToDouble(p -> p.length().toSeconds()).sum();
    }

    /** @return e.g. {@code 2x} or {@code spike} */
    String shape() {
        return spike() ? "spike" : String.format(Locale.ROOT, "%sx", multiple % 1 == 0 ? String.valueOf(
                multiple.intValue()) : multiple.toString());
    }

    String label() {
        return profile + " admission=" + mode + " " + strategy.proseName() + " " + shape();
    }

    /** @return a file-name-safe id, e.g. {@code virtual-off-scopeFork-2x} */
    String id() {
        return String.join("-", profile, mode, strategy.toString(), shape().replace('.', '_'));
    }

    /**
     * @return about how long the cell takes, s: its load, and past the bound the wait for the requests still out at
     *         its end, up to main-service's deadline (vegeta's timeout where main-service outlives it)
     */
    double estimatedSeconds() {
        boolean past = phases().stream().anyMatch(p -> p.multiple() > 1);
        return seconds() + (past ? ServiceDefaults.DEADLINE_SECONDS : LATENCY_MS / 1000.0) + 2;
    }

    /**
     * @return whether the cell is likely to end with a new main-service (as in the first runs, 2026-11-27): with
     *         admission off, past 5x and in the spike, a virtual request thread runs out of heap and a platform one
     *         held by the strategy leaves a backlog; with admission on, neither (queued requests expire at the
     *         deadline)
     */
    boolean likelyRestart() {
        return (spike() || multiple >= 5) && mode.equals("off");
    }
}
