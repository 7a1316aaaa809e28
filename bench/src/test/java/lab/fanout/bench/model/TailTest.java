package lab.fanout.bench.model;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

public class TailTest {

    @Test
    void aRequestOfNCallsIsSlowWithProbabilityOneMinusOneMinusPToTheN() {
        Tail tail = Tail.of("width=3&tailRate=0.01&tailMs=1000&hedgeAfterMs=p95").orElseThrow();
        assertThat(tail.calls()).isEqualTo(9);
        assertThat(tail.expectedSlowShare()).isCloseTo(1 - Math.pow(0.99, 9), within(1e-12));   // 8.65 %
        assertThat(tail.hedge()).isEqualTo("p95");
        assertThat(tail.hedged()).isTrue();
        // hedged, a call stays slow only when both copies are: 1 − (1 − 0.0001)^9 = 0.09 %
        assertThat(tail.expectedSlowShareHedged()).isCloseTo(1 - Math.pow(1 - 1e-4, 9), within(1e-12));
        assertThat(tail.slowAboveMs(50)).isEqualTo(550.0);
        // the seed's figure: p = 1 % over 30 calls, 26 % of requests
        assertThat(Tail.of("width=10&tailRate=0.01&tailMs=1000").orElseThrow().expectedSlowShare())
                .isCloseTo(0.26, within(0.001));
        // a tail on one downstream only: its width calls may be slow, not 3 x width
        assertThat(Tail.of("width=3&faultTarget=orders&tailRate=0.05&tailMs=500").orElseThrow().calls()).isEqualTo(3);
        assertThat(Tail.of("width=3&tailRate=0.01&tailMs=1000").orElseThrow().hedge()).isEqualTo("off");
    }

    @Test
    void noTailWithoutATailRate() {
        assertThat(Tail.of("")).isEmpty();
        assertThat(Tail.of("width=3&hedgeAfterMs=100")).isEmpty();
    }

    @Test
    void theSlowShareCountsRequestsPastHalfTheTailWithAWilsonInterval() {
        // 970 fast requests (60 ms), 30 slow ones (1,060 ms), against 1 − 0.99^3 = 2.97 %
        Histogram h = new Histogram(3);
        h.recordValueWithCount(60_000, 970);
        h.recordValueWithCount(1_060_000, 30);
        CellResult r = cell("width=1&tailRate=0.01&tailMs=1000&hedgeAfterMs=100", h, 12.0);
        double[] share = r.slowShare().orElseThrow();
        assertThat(share[1]).isEqualTo(0.03);
        // Wilson score, z = 1.96, n = 1,000, 30 successes: 2.11 % .. 4.25 %
        assertThat(share[0]).isCloseTo(0.0211, within(0.0001));
        assertThat(share[2]).isCloseTo(0.0425, within(0.0001));
        // 12 hedges over the 1,000 answers' 3 calls each: 0.4 % more calls
        assertThat(r.extraDownstreamLoadPercent().median()).isCloseTo(0.4, within(1e-9));
        assertThat(cell("", h, null).slowShare()).isEmpty();
        assertThat(cell("", h, null).extraDownstreamLoadPercent().n()).isZero();
    }

    public static CellResult cell(String query, Histogram latencies, Double hedgesSent) {
        Cell cell = Cell.custom().block("tail").poolSize(1000).concurrency(8).latencyMs(50).query(query)
                .durationSeconds(5).warmupSeconds(3).repetitions(1).build();
        Deployment d = new Deployment("virtual", true, 200, 1000, 1000, 1, 2, 50);
        Load load = new Load(URI.create("http://localhost:1/x"), 8, 1000, null, null, 20);
        Repetition rep = new Repetition(1, load, new DriverRun(1000, 1000, 1000, new TreeMap<>(), 5.0, latencies),
                new ServerFigures(null, null, null, null, null, 5, hedgesSent, Memory.NONE), null, null, Map.of());
        return new CellResult(1, cell, d, new Bound(100, "clients"), List.of(rep), Map.of(), "hey");
    }
}
