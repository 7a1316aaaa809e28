package lab.fanout.bench.cli;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code ./lab charts}: a committed result's charts drawn anew from its CSV. */
class RedrawTest {

    private static final Path SCALE = Path.of("../docs/results/scale-forks5-20261126.csv");
    private static final Path OVERLOAD = Path.of("../docs/results/overload-virtual-forks3-20261127.csv");

    @Test
    void theScaleResultOfFiveForksIsDrawnAgainIntoTheFolderGiven(@TempDir Path dir) {
        String[] drawn = LabCli.run("charts", SCALE.toString(), "--out", dir.toString());
        assertThat(drawn[0]).as(drawn[1]).isEqualTo("0");
        // 8 concurrencies x 3 strategies x 2 profiles, each over its 5 forks
        assertThat(drawn[1]).contains("scale-throughput.png  (scale, 48 cells)");
        assertThat(dir.resolve("scale-throughput.png")).isNotEmptyFile();
        assertThat(dir.resolve("scale-latency.png")).isNotEmptyFile();
    }

    /** Every cell of the committed run in its chart: 56 (profile, mode, strategy, shape), each over its 3 forks. */
    @Test
    void theOverloadPresetsCsvIsDrawnAgainAndAFolderHoldingOneToo(@TempDir Path dir) throws Exception {
        String[] drawn = LabCli.run("charts", OVERLOAD.toString(), "--out", dir.toString());
        assertThat(drawn[0]).as(drawn[1]).isEqualTo("0");
        assertThat(drawn[1]).contains(dir.resolve("overload-virtual.png") + "  (overload, 56 cells)");
        assertThat(dir.resolve("overload-virtual.png")).isNotEmptyFile();

        Path folder = Files.createDirectories(dir.resolve("run"));
        Files.copy(OVERLOAD, folder.resolve("overload.csv"));
        String[] inFolder = LabCli.run("charts", folder.toString());
        assertThat(inFolder[0]).as(inFolder[1]).isEqualTo("0");
        assertThat(folder.resolve("overload-virtual.png")).isNotEmptyFile();
    }

    @Test
    void aCsvFileWithoutOutOrAFileThatIsNoResultIsRefusedWithTheFix(@TempDir Path dir) throws Exception {
        String[] noOut = LabCli.run("charts", SCALE.toString());
        assertThat(noOut[0]).isEqualTo("2");
        assertThat(noOut[1]).contains("give --out DIR for a CSV file");
        String[] other = LabCli.run("charts", Files.writeString(dir.resolve("x.csv"), "a,b\n1,2\n").toString(), "--out",
                dir.toString());
        assertThat(other[0]).isEqualTo("2");
        assertThat(other[1]).contains("has no x.json beside it").contains("a results.csv alone is not read back");
    }
}
