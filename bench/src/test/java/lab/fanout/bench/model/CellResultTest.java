package lab.fanout.bench.model;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class CellResultTest {

    /** Per repetition of 1,000 answers (950 of them 2xx) in 1.05 s, the CPU seconds of each process. */
    static Map<String, Double> cpu(double main, double orders, double products, double accounts, double driver) {
        return Map.of("main-service", main, "orders-service", orders, "products-service", products,
                "accounts-service", accounts, Repetition.DRIVER, driver, Repetition.HARNESS, 0.05);
    }

    static CellResult cell(Bound littlesLaw, int cores, List<Map<String, Double>> cpuPerRep) {
        return cell(littlesLaw, cores, cpuPerRep, "");
    }

    static CellResult cell(Bound littlesLaw, int cores, List<Map<String, Double>> cpuPerRep, String query) {
        Cell cell = Cell.custom().block("soak").tomcatThreads(200).poolSize(2000).query(query).requests(1000)
                .warmupSeconds(3).build();
        Deployment d = new Deployment("virtual", true, 200, 2000, 2000, 1, cores, 200);
        Load load = new Load(URI.create("http://localhost:1/x"), 100, 1000, null, null, 20);
        Histogram h = new Histogram(3);
        h.recordValue(200_000);
        List<Repetition> reps = cpuPerRep.stream().map(c -> new Repetition(1, load,
                new DriverRun(1000, 1000, 950, new TreeMap<>(Map.of("HTTP 504", 50L)), 1.05, h),
                new ServerFigures(null, null, null, null, 7.0, 1), 99.0, 1.0, c)).toList();
        return new CellResult(1, cell, d, littlesLaw, reps, Map.of(), "hey");
    }

    @Test
    void cpuMsPerAnsweredRequestPerProcessAndD() {
        // rep 1: main 1.0 s, each downstream 0.25 s, driver 0.40 s; rep 2 a little more: Σ CPU ÷ Σ answers
        CellResult r = cell(new Bound(3333, "pool"), 2,
                List.of(cpu(1.0, 0.25, 0.25, 0.25, 0.40), cpu(1.2, 0.27, 0.23, 0.25, 0.44)));
        assertThat(r.cpuMsPerAnswer("main-service")).isCloseTo(1.1, within(1e-9));        // 2.2 s ÷ 2,000 answers
        assertThat(r.cpuMsPerAnswer("orders-service")).isCloseTo(0.26, within(1e-9));     // per call
        assertThat(r.cpuMsPerAnswer(Repetition.DRIVER)).isCloseTo(0.42, within(1e-9));
        // /proc wins over the service's own counter (7 s per repetition, which would read 7 ms)
        assertThat(r.repetitions().getFirst().mainCpuMsPerAnswer()).isCloseTo(1.0, within(1e-9));
        // D: main + orders + products + accounts + driver, not the harness
        assertThat(r.cpuSecondsPerRequest()).isCloseTo((1.1 + 0.26 + 0.24 + 0.25 + 0.42) / 1000, within(1e-12));
        assertThat(r.repetitions().getFirst().cpuMsPerAnswer("main-service")).isCloseTo(1.0, within(1e-9));
    }

    @Test
    void theBoundIsTheTighterOfLittlesLawAndTheCpuAndEfficiencyIsAgainstIt() {
        CellResult r = cell(new Bound(3333, "pool"), 2, List.of(cpu(1.0, 0.25, 0.25, 0.25, 0.42)));
        // D = 2.17 ms on 2 cores: 921.7 req/s, tighter than the pool's 3,333
        assertThat(r.bound().limit()).isEqualTo(Bound.CPU);
        assertThat(r.bound().requestsPerSecond()).isCloseTo(2 / 0.00217, within(1e-6));
        assertThat(r.throughputMedian()).isCloseTo(950 / 1.05, within(1e-9));
        assertThat(r.efficiency()).isCloseTo(950 / 1.05 * 0.00217 / 2, within(1e-9));
        assertThat(r.littlesLaw().limit()).isEqualTo("pool");
        // the same CPU on 16 cores allows 7,373 req/s: the pool binds
        assertThat(cell(new Bound(3333, "pool"), 16, List.of(cpu(1.0, 0.25, 0.25, 0.25, 0.42))).bound().limit())
                .isEqualTo("pool");
    }

    /**
     * The machine's speed moves between starts of the services (the scale run of 2026-11-26: one cell's CPU bound read
     * 582–835 req/s over five forks), so each fork's throughput is set against its own bound: two fast forks (950
     * req/s, D = 1.5 ms) and a slow one (475 req/s, D = 3 ms) all ran at 71.25 % of their bound. The median throughput
     * over the pooled D read 95 % (950 ÷ 1,000), a machine that sped up, not a strategy near its bound.
     */
    @Test
    void withForksEachForkIsSetAgainstItsOwnCpuBound() {
        CellResult r = forks(Map.of(1, 1.0, 2, 2.0, 3, 1.0));
        assertThat(r.forks()).isEqualTo(3);
        assertThat(r.cpuSecondsPerRequest()).isCloseTo(0.0015, within(1e-12));     // the forks' median D
        assertThat(r.bound().requestsPerSecond()).isCloseTo(2 / 0.0015, within(1e-6));
        assertThat(r.efficiency()).isCloseTo(0.7125, within(1e-9));
        Stats.Estimate e = r.efficiencyEstimate();
        assertThat(List.of(e.median(), e.low(), e.high()))
                .allSatisfy(v -> assertThat(v).isCloseTo(71.25, within(1e-9)));
        // one fork: each repetition against the cell's bound, as before
        CellResult one = forks(Map.of(1, 2.0));
        assertThat(one.efficiency()).isCloseTo(0.7125, within(1e-9));
        assertThat(one.efficiencyEstimate().median()).isCloseTo(71.25, within(1e-9));
    }

    /** Per fork (its number to its window in s, 950 answers in it) two repetitions whose CPU grows with the window. */
    private static CellResult forks(Map<Integer, Double> windows) {
        CellResult base = cell(new Bound(3333, "pool"), 2, List.of());
        Load load = new Load(URI.create("http://localhost:1/x"), 100, 1000, null, null, 20);
        Histogram h = new Histogram(3);
        h.recordValue(200_000);
        List<Repetition> reps = new TreeMap<>(windows).entrySet().stream().flatMap(w -> Stream.of(1, 2)
                .map(i -> new Repetition(i, load, new DriverRun(1000, 1000, 950, new TreeMap<>(), w.getValue(), h),
                        new ServerFigures(null, null, null, null, 7.0, 1), 99.0, 1.0, cpu(0.5 * w.getValue(),
                        0.25 * w.getValue(), 0.25 * w.getValue(), 0.25 * w.getValue(), 0.25 * w.getValue()),
                        w.getKey(), true))).toList();
        return new CellResult(1, base.cell(), base.deployment(), base.littlesLaw(), reps, Map.of(), "hey");
    }

    @Test
    void servicesTheHarnessCannotSeeLeaveDAndTheCpuBoundUnknown() {
        // a remote target: only the harness and the driver are measured
        CellResult r = cell(new Bound(500, "clients"), 2,
                List.of(Map.of(Repetition.DRIVER, 0.4, Repetition.HARNESS, 0.05)));
        assertThat(r.cpuMsPerAnswer("orders-service")).isNull();
        assertThat(r.cpuSecondsPerRequest()).isNull();
        assertThat(r.bound()).isEqualTo(r.littlesLaw());
        // its own process_cpu_time_ns_total
        assertThat(r.repetitions().getFirst().mainCpuMsPerAnswer()).isCloseTo(7.0, within(1e-9));
        // one repetition without a figure makes the whole cell's figure unknown, not a smaller one
        CellResult partly = cell(new Bound(500, "clients"), 2,
                List.of(cpu(1.0, 0.25, 0.25, 0.25, 0.42), Map.of(Repetition.DRIVER, 0.4)));
        assertThat(partly.cpuMsPerAnswer("main-service")).isNull();
    }

    /** The cpu run of 2026-11-26 before CpuWork's fix: cpuMs=20 cost main-service 9.7-11 CPU-ms per request. */
    @Test
    void aCellWhoseMainServiceSpentLessCpuThanItsCpuMsIsFlagged() {
        Bound b = new Bound(500, "clients");
        // 1,000 answers per repetition: 10 s of main-service CPU is 10 ms per request
        assertThat(cell(b, 2, List.of(cpu(10.0, 0.25, 0.25, 0.25, 0.4)), "cpuMs=20").cpuSpent()).isFalse();
        assertThat(cell(b, 2, List.of(cpu(3.5, 0.25, 0.25, 0.25, 0.4)), "width=3&cpuMs=5").cpuSpent()).isFalse();
        assertThat(cell(b, 2, List.of(cpu(21.5, 0.25, 0.25, 0.25, 0.4)), "cpuMs=20").cpuSpent()).isTrue();
        assertThat(cell(b, 2, List.of(cpu(1.0, 0.25, 0.25, 0.25, 0.4)), "cpuMs=0").cpuSpent()).isTrue();
        assertThat(cell(b, 2, List.of(cpu(1.0, 0.25, 0.25, 0.25, 0.4)), "").cpuSpent()).isTrue();
        // a remote target: main-service's CPU unknown to /proc, nothing to compare
        assertThat(cell(b, 2, List.of(Map.of(Repetition.DRIVER, 0.4)), "cpuMs=20").cpuSpent()).isTrue();
    }
}
