package lab.fanout.bench.model;

import java.util.Arrays;
import java.util.List;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class StatsTest {

    @Test
    void medianOfOddAndEvenCounts() {
        assertThat(Stats.median(List.of(3.0, 1.0, 2.0))).isEqualTo(2.0);
        assertThat(Stats.median(List.of(4.0, 1.0, 3.0, 2.0))).isEqualTo(2.5);
    }

    @Test
    void absentValuesAreSkippedAndAllAbsentIsAbsentNotZero() {
        assertThat(Stats.median(Arrays.asList(null, 5.0, 1.0))).isEqualTo(3.0);
        assertThat(Stats.median(Arrays.asList(null, null))).isNull();
        assertThat(Stats.max(Arrays.asList(null, Double.NaN))).isNull();
        assertThat(Stats.min(List.of(4.0, 2.0, 9.0))).isEqualTo(2.0);
        assertThat(Stats.max(List.of(4.0, 2.0, 9.0))).isEqualTo(9.0);
    }

    @Test
    void aSumWithAGapIsAbsent() {
        assertThat(Stats.sumOrNull(List.of(1.0, 2.5))).isEqualTo(3.5);
        assertThat(Stats.sumOrNull(Arrays.asList(1.0, null))).isNull();
        assertThat(Stats.sumOrNull(List.of())).isNull();
    }

    @Test
    void aMeanWithAGapIsAbsent() {
        assertThat(Stats.meanOrNull(List.of(1.0, 2.0, 6.0))).isEqualTo(3.0);
        assertThat(Stats.meanOrNull(List.of(1.0, Double.NaN))).isNull();
        assertThat(Stats.meanOrNull(List.of())).isNull();
    }

    @Test
    void percentilesOfAMicrosecondHistogramInMillisecondsAndNaNWhenEmpty() {
        Histogram micros = new Histogram(3);
        for (int ms = 1; ms <= 100; ms++) {
            micros.recordValue(ms * 1000L);
        }
        assertThat(Stats.percentileMs(micros, 50)).isCloseTo(50.0, org.assertj.core.data.Offset.offset(0.1));
        assertThat(Stats.percentileMs(micros, 99)).isCloseTo(99.0, org.assertj.core.data.Offset.offset(0.1));
        assertThat(Stats.percentileMs(micros, 100)).isCloseTo(100.0, org.assertj.core.data.Offset.offset(0.1));
        assertThat(Stats.percentileMs(new Histogram(3), 50)).isNaN();
        assertThat(Stats.percentileMs(null, 50)).isNaN();
    }

    @Test
    void theMediansIntervalIsTheOrderStatisticsThatCoverNinetyFivePercent() {
        // n = 10: P(B <= 1) = 11/1024 for B ~ Bin(10, 1/2), so [x(2), x(9)] covers 1 - 22/1024 = 97.85 %;
        // [x(3), x(8)] would cover only 1 - 2 * 56/1024 = 89 %
        Stats.Estimate e = Stats.interval(List.of(10.0, 1.0, 9.0, 2.0, 8.0, 3.0, 7.0, 4.0, 6.0, 5.0));
        assertThat(e.median()).isEqualTo(5.5);
        assertThat(e.low()).isEqualTo(2.0);
        assertThat(e.high()).isEqualTo(9.0);
        assertThat(e.confidence()).isCloseTo(1 - 22.0 / 1024, within(1e-12));
        assertThat(e.n()).isEqualTo(10);
    }

    @Test
    void fiveOrFewerSamplesGiveMinToMaxWithItsOwnLowerCoverage() {
        Stats.Estimate five = Stats.interval(List.of(5.0, 1.0, 4.0, 2.0, 3.0));
        assertThat(List.of(five.low(), five.median(), five.high())).containsExactly(1.0, 3.0, 5.0);
        assertThat(five.confidence()).isCloseTo(1 - 2 / 32.0, within(1e-12));
        assertThat(Stats.interval(List.of(1.0, 2.0, 3.0)).confidence()).isCloseTo(0.75, within(1e-12));
        Stats.Estimate one = Stats.interval(List.of(7.0));
        assertThat(List.of(one.low(), one.median(), one.high())).containsExactly(7.0, 7.0, 7.0);
        assertThat(one.confidence()).isZero();
        Stats.Estimate none = Stats.interval(java.util.Arrays.asList(null, Double.NaN));
        assertThat(none.n()).isZero();
        assertThat(none.median()).isNull();
    }

    @Test
    void sixSamplesAreTheFewestThatReachNinetyFivePercent() {
        assertThat(Stats.interval(List.of(1.0, 2.0, 3.0, 4.0, 5.0, 6.0)).confidence()).isGreaterThanOrEqualTo(0.95);
        // n = 17: [x(5), x(13)] covers 1 - 2 P(B <= 4) = 95.10 %; [x(6), x(12)] only 85.7 %
        Stats.Estimate e = Stats.interval(java.util.stream.IntStream.rangeClosed(1, 17).mapToObj(i -> (double) i)
                .toList());
        assertThat(List.of(e.low(), e.high())).containsExactly(5.0, 13.0);
        assertThat(e.confidence()).isCloseTo(0.950958, within(1e-6));
    }

    @Test
    void memoryPerRequestInFlightIsTheSlopeNotTheRatio() {
        // 200 MiB fixed, 0.1 MiB per request in flight: 102.4 KiB each, whatever the fixed part
        assertThat(Memory.slopeKiB(List.of(new double[] {100, 210}, new double[] {1000, 300},
                new double[] {10_000, 1200}))).isCloseTo(102.4, within(1e-9));
        assertThat(Memory.slopeKiB(List.of(new double[] {100, 210}, new double[] {100, 300}))).isNull();
        assertThat(Memory.slopeKiB(List.of(new double[] {100, 210}))).isNull();
    }
}
