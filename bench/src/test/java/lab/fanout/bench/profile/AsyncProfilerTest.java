package lab.fanout.bench.profile;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class AsyncProfilerTest {

    /** The JVM the tests attach to: it says when it is up, then idles until killed. */
    public static final class Idle {
        public static void main(String[] args) throws InterruptedException {
            System.out.println("up");
            Thread.sleep(Duration.ofMinutes(2));
        }
    }

    @Test
    void runsOnLinuxX64Only() {
        AsyncProfiler.requireLinuxX64("Linux", "amd64");
        assertThatThrownBy(() -> AsyncProfiler.requireLinuxX64("Mac OS X", "aarch64"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("Linux x86-64 only");
    }

    @Test
    void extractsTheAgentOnceAndKeepsTheSameFile(@TempDir Path dir) throws Exception {
        assumeLinuxX64();

        Path so = AsyncProfiler.extract(dir);
        long modified = Files.getLastModifiedTime(so).toMillis();
        Path again = AsyncProfiler.extract(dir);

        // the JVM loads an agent once per path: a second path would load a second profiler
        assertThat(again).isEqualTo(so);
        assertThat(Files.getLastModifiedTime(again).toMillis()).isEqualTo(modified);
        assertThat(Files.readAllBytes(so)).startsWith((byte) 0x7f, (byte) 'E', (byte) 'L', (byte) 'F');
    }

    @Test
    void logsEveryActionWithTheAgentsAnswerAndReportsARefusalWithItsReturnCode(@TempDir Path dir) throws Exception {
        assumeLinuxX64();
        Process jvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Idle.class.getName())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            assertThat(jvm.inputReader().lines().anyMatch("up"::equals)).as("the JVM to profile is up").isTrue();
            Path log = dir.resolve("profiler.log");
            AsyncProfiler profiler = new AsyncProfiler(jvm.pid(), AsyncProfiler.extract(dir), log);

            profiler.start("itimer", Duration.ofMillis(10));
            profiler.stop();
            // nothing runs any more: the agent refuses with an error code and says why in its log
            assertThatThrownBy(profiler::stop).isInstanceOf(IllegalStateException.class)
                    .hasMessageMatching("(?s)async-profiler refused 'stop' in pid \\d+ \\(return code [1-9]\\d*\\):"
                            + " .+");

            String text = Files.readString(log);
            assertThat(text).startsWith("> start,event=itimer,interval=10ms\nreturn code: 0\n")
                    .contains("> stop\nreturn code: 0\n").containsPattern("> stop\nreturn code: [1-9]");
            assertThat(dir.resolve("profiler.log.agent")).doesNotExist();
        } finally {
            jvm.destroyForcibly().waitFor();
        }
    }

    @Test
    void aJvmThatIsGoneCannotBeAttachedTo(@TempDir Path dir) throws Exception {
        assumeLinuxX64();
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        AsyncProfiler profiler = new AsyncProfiler(gone.pid(), dir.resolve("lib.so"), dir.resolve("profiler.log"));

        assertThatThrownBy(profiler::stop).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("cannot attach to pid " + gone.pid());
        assertThat(Files.readAllLines(dir.resolve("profiler.log"))).first().isEqualTo("> stop");
    }

    private static void assumeLinuxX64() {
        assumeTrue("Linux".equals(System.getProperty("os.name")) && List.of("amd64", "x86_64")
                .contains(System.getProperty("os.arch")));
    }
}
