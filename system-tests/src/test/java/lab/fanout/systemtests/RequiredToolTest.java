package lab.fanout.systemtests;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** gh-13 part 4: a skipped check says so, with the install line; under CI=true it fails instead. */
class RequiredToolTest {

    private static final String MESSAGE = "promtool is not on PATH; install it: apt-get install -y prometheus";

    @Test
    void aMissingToolSkipsAndSaysHowToInstallIt() {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        assertThatThrownBy(() -> RequiredTool.missing(MESSAGE, false, "DashboardPromqlTest",
                new PrintStream(printed, true, StandardCharsets.UTF_8)))
                .isInstanceOf(TestAbortedException.class).hasMessageContaining("apt-get install -y prometheus");
        assertThat(printed.toString(StandardCharsets.UTF_8)).startsWith("SKIPPED DashboardPromqlTest: promtool is not on PATH;")
                .contains("install it: apt-get install -y prometheus").contains("CI=true");
    }

    @Test
    void underCiAMissingToolFailsAndPrintsNoSkip() {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        assertThatThrownBy(() -> RequiredTool.missing(MESSAGE, true, "DashboardPromqlTest",
                new PrintStream(printed, true, StandardCharsets.UTF_8)))
                .isInstanceOf(AssertionFailedError.class).hasMessageContaining("CI=true: a missing tool fails");
        assertThat(printed.toString(StandardCharsets.UTF_8)).isEmpty();
    }
}
