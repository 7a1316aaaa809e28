package lab.fanout.bench.report;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.util.List;
import java.util.Map;

import lab.fanout.bench.model.Cell;
import lab.fanout.bench.model.CellResult;
import lab.fanout.bench.model.Deployment;
import lab.fanout.bench.model.Memory;
import lab.fanout.bench.model.Strategy;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

import static org.assertj.core.api.Assertions.assertThat;

/** What a reader sees in a chart's pixels and colours, not only that the chart exists. */
class ChartsTest {

    /** The footprint preset's memory chart: three strategies from 100 to 10,000 clients. */
    private static final List<CellResult> FOOTPRINT = List.of(Strategy.THREAD_PER_TASK,
            Strategy.VIRTUAL_THREAD_PER_TASK, Strategy.REACTIVE).stream()
            .flatMap(s -> List.of(100, 1000, 10_000).stream().map(c -> footprint(s, c))).toList();

    @Test
    void everyTitleFitsInsideItsPng() {
        // the longest block name a preset has; its memory title was cut at both ends (docs/results of issue 23)
        Charts.initialize();
        Charts.charts("footprint-threads", FOOTPRINT).forEach((name, chart) -> {
            int[] ink = ink(BitmapEncoder.getBufferedImage(chart), 0, 24);
            assertThat(ink).as("%s: leftmost and rightmost dark pixel of the title", name)
                    .satisfies(x -> assertThat(x[0]).isGreaterThan(3))
                    .satisfies(x -> assertThat(x[1]).isLessThan(Charts.WIDTH - 4));
        });
    }

    @Test
    void sixStrategyAndProfileLinesKeepEveryLegendEntryInsideThePng() {
        // the scale preset's chart: three strategies in both profiles; its one-line legend ran off both sides
        List<CellResult> both = FOOTPRINT.stream().flatMap(r -> List.of(r, inProfile(r, "platform")).stream()).toList();
        Charts.initialize();
        BufferedImage png = BitmapEncoder.getBufferedImage(Charts.charts("scale", both).get("scale-throughput"));
        assertThat(ink(png, 0, png.getHeight())).as("leftmost and rightmost dark pixel of the whole PNG")
                .satisfies(x -> assertThat(x[0]).isGreaterThan(3))
                .satisfies(x -> assertThat(x[1]).isLessThan(Charts.WIDTH - 4));
    }

    @Test
    void aDashedLineHasTheColourOfItsSolidLineAndTheStrategiesDiffer() {
        Charts.initialize();
        for (String name : List.of("f-memory", "f-throughput", "f-latency")) {
            XYChart chart = (XYChart) Charts.charts("f", FOOTPRINT).get(name);
            BitmapEncoder.getBufferedImage(chart);   // XChart gives a series without a colour one as it paints
            Map<String, XYSeries> series = chart.getSeriesMap();
            List<String> solid = series.keySet().stream().filter(k -> !k.endsWith(" (dashed)")).toList();
            assertThat(solid).hasSize(3);
            for (String key : solid) {
                assertThat(series.get(key + " (dashed)").getLineColor()).as("%s: %s's dashed line", name, key)
                        .isEqualTo(series.get(key).getLineColor());
            }
            assertThat(solid.stream().map(k -> series.get(k).getLineColor()).distinct()).as(name).hasSize(3);
        }
    }

    @Test
    void barLabelsStandUprightUnderTheirBarsAndThePlotKeepsItsHeight() {
        // 32 cells at 20° overlapped, and a slanted label ended beside the next bar (the cpu preset, 2026-11-26)
        List<CellResult> cells = ReportTest.cells();
        var bars = (org.knowm.xchart.CategoryChart) Charts.charts("b", cells).get("b-throughput");
        assertThat(bars.getStyler().getXAxisLabelRotation()).isEqualTo(90);
        assertThat(bars.getHeight()).as("the PNG grows by the longest label").isGreaterThan(Charts.HEIGHT + 100);
    }

    @Test
    void aLogarithmicConcurrencyAxisWritesTenThousandNotOneE4() {
        XYChart memory = (XYChart) Charts.charts("f", FOOTPRINT).get("f-memory");
        assertThat(memory.getStyler().getXAxisDecimalPattern()).isEqualTo("#,##0");
        assertThat(new java.text.DecimalFormat(memory.getStyler().getXAxisDecimalPattern()).format(10_000))
                .isEqualTo("10,000");
    }

    /** @return the x of the leftmost and the rightmost dark pixel in rows {@code from} to {@code to} (title: 0-24) */
    private static int[] ink(BufferedImage image, int from, int to) {
        int left = Integer.MAX_VALUE;
        int right = -1;
        for (int y = from; y < to; y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                Color c = new Color(image.getRGB(x, y));
                if (c.getRed() + c.getGreen() + c.getBlue() < 3 * 100) {
                    left = Math.min(left, x);
                    right = Math.max(right, x);
                }
            }
        }
        assertThat(right).as("ink in rows %d-%d", from, to).isNotNegative();
        return new int[] {left, right};
    }

    private static CellResult inProfile(CellResult r, String profile) {
        Cell c = r.cell();
        Cell cell = Cell.custom().block(c.block()).strategy(c.strategy()).profile(profile)
                .tomcatThreads(c.tomcatThreads()).poolSize(c.poolSize()).concurrency(c.concurrency()).requests(1000)
                .warmupSeconds(3).build();
        Deployment d = r.deployment();
        return new CellResult(r.index(), cell, new Deployment(profile, false, d.tomcatThreads(), d.poolTotal(),
                d.poolPerRoute(), d.parallelism(), d.cores(), d.latencyMs(), d.jvm(), d.dbPool()), r.littlesLaw(),
                r.repetitions(), r.heapAfterBytes(), r.command());
    }

    private static CellResult footprint(Strategy strategy, int clients) {
        int k = strategy.ordinal();   // each strategy its own lines
        Memory memory = new Memory(300.0 + clients, 40.0 + clients, new Memory.Snapshot(100 + k * clients / 10.0,
                clients, 2 + clients / 100.0, (double) k * clients, null));
        CellResult r = ReportTest.footprint(clients, List.of(Map.entry(1, memory), Map.entry(2, memory)));
        Cell c = r.cell();
        Cell cell = Cell.custom().block("footprint-threads").strategy(strategy).profile(c.profile())
                .tomcatThreads(c.tomcatThreads()).poolSize(c.poolSize()).concurrency(clients).requests(1000)
                .warmupSeconds(3).build();
        return new CellResult(r.index(), cell, r.deployment(), r.littlesLaw(), r.repetitions(), r.heapAfterBytes(),
                r.command());
    }
}
