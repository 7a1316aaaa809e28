package lab.fanout.bench.faults;

import java.time.Duration;
import java.util.List;

import lab.fanout.bench.faults.FaultsPreset.Observation;
import lab.fanout.bench.faults.FaultsPreset.Scenario;
import lab.fanout.bench.model.Strategy;
import lab.fanout.bench.report.MarkdownTable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The failure-mode table: every row has as many cells as the header names, and a missing gauge reads n/a. */
class FaultsTableTest {

    private static int columns(String markdownRow) {
        return markdownRow.split("\\|", -1).length - 2;
    }

    @Test
    void headerSeparatorAndRowsHaveTheSameColumns() {
        Observation o = new Observation(502, 45.0, 3, 2, 0, 0, 2, Double.NaN, 1, 980.0);
        List<String> cells = FaultsPreset.row(Strategy.values()[0], List.of(o, o));
        String row = MarkdownTable.line(cells);
        String[] lines = FaultsPreset.table(new Scenario("t", "q", Duration.ZERO), List.of(cells)).split("\n");
        String header = lines[4];
        assertThat(header).contains("pooled connections leased");
        assertThat(columns(lines[5])).isEqualTo(columns(header));
        assertThat(columns(lines[6])).isEqualTo(columns(header));
        assertThat(row).contains("| n/a |");
    }

    @Test
    void medianOfAnEvenCountIsTheMeanOfTheTwoMiddleValues() {
        Observation fast = new Observation(504, 100.0, 3, 1, 0, 0, 0, 0, 0, 0.0);
        Observation slow = new Observation(504, 300.0, 3, 1, 0, 0, 1, 0, 0, 40.0);
        List<String> cells = FaultsPreset.row(Strategy.values()[0], List.of(slow, fast));
        assertThat(cells.get(2)).as("time to answer (ms, median)").isEqualTo("200");
        assertThat(cells.get(10)).as("busy after the answer (ms, median)").isEqualTo("20");
    }
}
