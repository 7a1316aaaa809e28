package lab.fanout.bench.model;

import java.util.Arrays;
import java.util.List;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

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
}
