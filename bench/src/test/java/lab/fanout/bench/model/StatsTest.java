package lab.fanout.bench.model;

import java.util.Arrays;
import java.util.List;

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
}
