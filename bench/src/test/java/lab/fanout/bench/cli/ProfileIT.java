package lab.fanout.bench.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import lab.fanout.bench.profile.CollapsedStacks;
import lab.fanout.bench.system.Processes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

/**
 * {@code ./lab profile} end to end on a tiny load: the real four jars on free ports, hey, async-profiler attached to
 * main-service. Asserts the files and the summary's shape, never a speed.
 */
class ProfileIT {

    static final Path REPO = Path.of("..").toAbsolutePath().normalize();

    @BeforeAll
    static void toolsPresent() {
        boolean linuxX64 = "Linux".equals(System.getProperty("os.name"))
                && "amd64".equals(System.getProperty("os.arch"));
        String missing = !Processes.onPath("hey") ? "hey is not installed: apt-get install -y hey"
                : !linuxX64 ? "async-profiler's agent here is for Linux x86-64 only" : null;
        if (missing != null) {
            if ("true".equals(System.getenv("CI"))) {
                fail(missing + " (CI=true: this test must run)");
            }
            abort(missing);
        }
    }

    @Test
    void shortRunWritesBothFlameGraphsAndASummary(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("profile");
        System.setProperty("lab.repo", REPO.toString());

        int exit = LabCommand.commandLine().execute("profile", "--strategy", "scope", "--concurrency", "2",
                "--seconds", "2", "--warmup-seconds", "1", "--latency-ms", "20", "--out", out.toString());

        assertThat(exit).isZero();
        for (String graph : new String[] {"cpu.html", "wall.html"}) {
            // async-profiler's flame graph: an HTML page that draws the stacks it embeds on a canvas
            assertThat(Files.readString(out.resolve(graph))).contains("<canvas id='canvas'>").contains("main-service");
        }
        // a wall-clock profile samples every thread, busy or not: never empty
        assertThat(CollapsedStacks.read(out.resolve("wall.collapsed")).total()).isPositive();
        assertThat(out.resolve("cpu.collapsed")).exists();
        String summary = Files.readString(out.resolve("summary.txt"));
        assertThat(summary).contains("CPU window: ").contains("wall window: ").contains("CPU-ms per request")
                .contains("threads of main-service").contains("top frames by self samples");
        assertThat(out.resolve("logs/main-service.log")).isNotEmptyFile();
        // every action sent to the agent through the Attach API, each with its answer
        assertThat(Files.readString(out.resolve("profiler.log")))
                .contains("> start,event=wall,interval=20ms\nreturn code: 0\nProfiling started")
                .contains("> dump,file=" + out.resolve("wall.collapsed") + "\nreturn code: 0");
        // the services it started are gone
        Matcher pid = Pattern.compile("main-service \\(pid (\\d+)\\)").matcher(summary);
        assertThat(pid.find()).as("summary names main-service's pid").isTrue();
        assertThat(ProcessHandle.of(Long.parseLong(pid.group(1))).map(ProcessHandle::isAlive))
                .isNotEqualTo(java.util.Optional.of(true));
    }

    @Test
    void anUnknownStrategyIsABadOption() {
        int exit = LabCommand.commandLine().execute("profile", "--strategy", "nope");

        assertThat(exit).isEqualTo(2);
    }
}
