package lab.fanout.bench.profile;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class AsyncProfilerTest {

    @Test
    void quotesTheAgentsOptionsSoJcmdDoesNotParseThem() {
        // unquoted, jcmd takes "start,event" as its own option name and the agent gets no event at all
        List<String> command = AsyncProfiler.command(Path.of("/jdk/bin/jcmd"), 4242, Path.of("/lab/libasyncProfiler.so"),
                "start,event=cpu,interval=10ms");

        assertThat(command).containsExactly("/jdk/bin/jcmd", "4242", "JVMTI.agent_load", "/lab/libasyncProfiler.so",
                "\"start,event=cpu,interval=10ms\"");
    }

    @Test
    void refusesOptionsThatWouldBreakTheQuoting() {
        assertThatThrownBy(() -> AsyncProfiler.command(Path.of("jcmd"), 1, Path.of("/a.so"), "dump,file=/tmp/x\".html"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AsyncProfiler.command(Path.of("jcmd"), 1, Path.of("/my dir/a.so"), "stop"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void readsTheAgentsReturnCodeFromJcmd() {
        assertThat(AsyncProfiler.returnCode("8597:\nreturn code: 0\n")).isZero();
        // what the agent answered to "stop" when nothing was running
        assertThat(AsyncProfiler.returnCode("8597:\nreturn code: 200\n")).isEqualTo(200);
        assertThatThrownBy(() -> AsyncProfiler.returnCode("8597:\ncom.sun.tools.attach.AttachNotSupportedException: Unable to open socket file"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("AttachNotSupportedException");
    }

    @Test
    void runsOnLinuxX64Only() {
        AsyncProfiler.requireLinuxX64("Linux", "amd64");
        assertThatThrownBy(() -> AsyncProfiler.requireLinuxX64("Mac OS X", "aarch64"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("Linux x86-64 only");
    }

    @Test
    void extractsTheAgentOnceAndKeepsTheSameFile(@TempDir Path dir) throws Exception {
        assumeTrue("Linux".equals(System.getProperty("os.name")) && "amd64".equals(System.getProperty("os.arch")));

        Path so = AsyncProfiler.extract(dir);
        long modified = Files.getLastModifiedTime(so).toMillis();
        Path again = AsyncProfiler.extract(dir);

        // the JVM loads an agent once per path: a second path would load a second profiler
        assertThat(again).isEqualTo(so);
        assertThat(Files.getLastModifiedTime(again).toMillis()).isEqualTo(modified);
        assertThat(Files.readAllBytes(so)).startsWith((byte) 0x7f, (byte) 'E', (byte) 'L', (byte) 'F');
    }
}
