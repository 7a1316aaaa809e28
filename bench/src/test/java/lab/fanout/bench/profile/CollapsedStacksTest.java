package lab.fanout.bench.profile;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import lab.fanout.bench.profile.CollapsedStacks.Frame;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

class CollapsedStacksTest {

    /** Shaped like async-profiler's collapsed output of main-service: Java, C++ (JIT) and kernel frames. */
    static final String PROFILE = """
            java/lang/Thread.run;org/apache/tomcat/util/net/NioEndpoint$Poller.run;sun/nio/ch/EPoll.wait;epoll_wait 40
            java/lang/Thread.run;lab/fanout/main/server/servlet/BackofficeController.orders_[j];\
            tools/jackson/databind/ObjectMapper.writeValueAsBytes_[i] 30
            java/lang/Thread.run;lab/fanout/main/server/servlet/BackofficeController.orders;\
            java/util/HashMap.getNode_[j] 10
            [C2 CompilerThread0 tid=42];thread_native_entry;PhaseChaitin::Split 15
            java/lang/Thread.run;org/apache/tomcat/util/net/NioEndpoint$Poller.run;sun/nio/ch/EPoll.wait;epoll_wait 5

            """;

    @Test
    void sumsSelfSamplesPerLeafFrameLargestFirst() {
        CollapsedStacks stacks = CollapsedStacks.parse(PROFILE);

        assertThat(stacks.total()).isEqualTo(100);
        List<Frame> top = stacks.topSelf(3);
        // the same stack on two lines is summed, and the _[j] / _[i] annotations name the same method
        assertThat(top).extracting(Frame::frame)
                .containsExactly("epoll_wait", "tools/jackson/databind/ObjectMapper.writeValueAsBytes",
                        "PhaseChaitin::Split");
        assertThat(top).extracting(Frame::samples).containsExactly(45L, 30L, 15L);
        assertThat(top.getFirst().share()).isCloseTo(0.45, within(1e-9));
    }

    @Test
    void javaFramesNameTheDeepestJavaMethodOfEachSample() {
        List<Frame> java = CollapsedStacks.parse(PROFILE).topJava(10);

        assertThat(java).extracting(Frame::frame).containsExactly("sun/nio/ch/EPoll.wait",
                "tools/jackson/databind/ObjectMapper.writeValueAsBytes", CollapsedStacks.NO_JAVA,
                "java/util/HashMap.getNode");
        assertThat(java).extracting(Frame::samples).containsExactly(45L, 30L, 15L, 10L);
    }

    @Test
    void countsEachSampleForTheInnermostFrameOfAKnownComponent() {
        CollapsedStacks stacks = CollapsedStacks.parse(PROFILE + """
                thread_native_entry;CompileBroker::compiler_thread_loop;C2Compiler::compile_method 8
                java/lang/Thread.run;org/apache/tomcat/util/net/NioEndpoint$Poller.run;\
                org/apache/tomcat/util/net/NioEndpoint$Poller.events 2
                """);

        assertThat(stacks.byComponent()).extracting(Frame::frame, Frame::samples).containsExactly(
                tuple("JDK socket I/O and pollers", 45L),   // EPoll.wait, below Tomcat's poller
                tuple("Jackson (JSON)", 30L),
                tuple(CollapsedStacks.OTHER, 15L),          // a C2 frame without its CompileBroker caller
                tuple("fanout-lab", 10L),                   // HashMap.getNode, below the controller
                tuple("JIT compiler", 8L),
                tuple("Tomcat", 2L));
    }

    @Test
    void readsAPlainOrAGzippedFile(@TempDir Path dir) throws IOException {
        Path plain = Files.writeString(dir.resolve("cpu.collapsed"), PROFILE);
        Path gzipped = dir.resolve("cpu.collapsed.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gzipped))) {
            out.write(PROFILE.getBytes(StandardCharsets.UTF_8));
        }

        assertThat(CollapsedStacks.read(gzipped)).isEqualTo(CollapsedStacks.read(plain));
        assertThat(CollapsedStacks.read(gzipped).total()).isEqualTo(100);
    }

    @Test
    void tellsJavaMethodsFromNativeAndJvmFrames() {
        assertThat(CollapsedStacks.isJava("java/util/HashMap.getNode")).isTrue();
        assertThat(CollapsedStacks.isJava("java/lang/invoke/LambdaForm$MH.0x0000000011148c00.invoke")).isTrue();
        assertThat(CollapsedStacks.isJava("PhaseChaitin::Split")).isFalse();
        assertThat(CollapsedStacks.isJava("epoll_wait")).isFalse();
        assertThat(CollapsedStacks.isJava("[main tid=1]")).isFalse();
        assertThat(CollapsedStacks.isJava("/usr/lib/libc.so.6")).isFalse();
    }

    @Test
    void theCountIsAfterTheLastSpaceSoFramesMayHoldSpaces() {
        CollapsedStacks stacks = CollapsedStacks.parse("[http-nio-8080-exec-1 tid=7];java/lang/Object.wait 12\n");

        assertThat(stacks.samples()).containsEntry("[http-nio-8080-exec-1 tid=7];java/lang/Object.wait", 12L);
    }

    @Test
    void anEmptyProfileHasNoFrames() {
        CollapsedStacks stacks = CollapsedStacks.parse("");

        assertThat(stacks.total()).isZero();
        assertThat(stacks.topSelf(5)).isEmpty();
    }

    @Test
    void rejectsALineWithoutACountNamingIt() {
        assertThatThrownBy(() -> CollapsedStacks.parse("a;b 3\n<!DOCTYPE html>\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("line 2")
                .hasMessageContaining("<!DOCTYPE html>");
        assertThatThrownBy(() -> CollapsedStacks.parse("a;b -3\n")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CollapsedStacks.parse("12\n")).isInstanceOf(IllegalArgumentException.class);
    }
}
