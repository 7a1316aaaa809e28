package lab.fanout.bench.model;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CellTest {

    @Test
    void theBuildersDefaultsAreTheOnesItsJavadocNames() {
        assertThat(Cell.custom().build()).isEqualTo(new Cell("b", Strategy.SCOPE_FORK, "virtual", null, null, null,
                null, List.of(), List.of(), 100, 200, "", null, null, 10, 5, 3, 20, null));
    }

    @Test
    void aRequestCountSizesTheRepetitionsInPlaceOfTheDuration() {
        Cell counted = Cell.custom().requests(1000).build();
        assertThat(counted.requests()).isEqualTo(1000);
        assertThat(counted.durationSeconds()).isNull();
        assertThat(Cell.custom().requests(null).build().durationSeconds()).isEqualTo(10);
    }

    @Test
    void toBuilderKeepsEveryKnob() {
        Cell cell = new Cell("db", Strategy.REACTIVE, "netty", 40, 300, 20, Cell.R2DBC, List.of("-Dx=1"),
                List.of("-Xmx1g"), 50, 0, "width=3", 300.0, 1000, 30, 2, 1, 9, "0.5");
        assertThat(cell.toBuilder().build()).isEqualTo(cell);
        assertThat(cell.toBuilder().mainCpus("1").build().mainCpus()).isEqualTo("1");
    }
}
