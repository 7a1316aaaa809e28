package lab.fanout.bench.profile;

import java.util.List;
import java.util.Map;

import lab.fanout.bench.model.ServerFigures;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ProfileSummaryTest {

    @Test
    void cpuMsPerRequestIsTheWindowsCpuOverItsAnsweredRequests() {
        // 2.59 s of CPU over 162 answers (a cold JVM's figure seen here): 15.99 ms each
        assertThat(ProfileSummary.cpuMsPerRequest(2.59, 162)).isCloseTo(15.988, within(0.001));
        assertThat(ProfileSummary.cpuMsPerRequest(6.7, 10_000)).isCloseTo(0.67, within(1e-9));
    }

    @Test
    void cpuMsPerRequestIsUnknownWithoutCpuOrAnswers() {
        assertThat(ProfileSummary.cpuMsPerRequest(null, 100)).isNull();
        assertThat(ProfileSummary.cpuMsPerRequest(1.0, 0)).isNull();
    }

    @Test
    void rendersEachWindowWithItsFiguresAndTopFrames() {
        CollapsedStacks stacks = CollapsedStacks.parse("java/lang/Thread.run;a/B.c;epoll_wait 3\n"
                + "java/lang/Thread.run;a/B.d 1\n");
        var window = new ProfileSummary.Window("CPU", "itimer, because perf events were refused here",
                List.of("cpu.html", "cpu.collapsed"), 2.0, 500, Map.of(), 1.0,
                new ServerFigures(31.0, null, null, null, null, 2), stacks);

        String text = ProfileSummary.render(List.of("./lab profile --seconds 2"), List.of(window), 5);

        assertThat(text).startsWith("./lab profile --seconds 2\n")
                .contains("CPU window: itimer, because perf events were refused here")
                .contains("500 answered in 2.0 s (250.0 req/s), no errors")
                .contains("1.00 s over the window = 2.000 CPU-ms per request")
                .contains("platform 31, virtual (mounted or queued) n/a")
                .contains("of 4 samples")
                .contains(" 75.0%       3  epoll_wait")
                .contains(" 75.0%       3  a/B.c");
    }

    @Test
    void rendersARecordedProfileWithItsComponents() {
        CollapsedStacks stacks = CollapsedStacks.parse("java/lang/Thread.run;tools/jackson/core/JsonParser.next 3\n"
                + "java/lang/Thread.run;lab/fanout/main/web/OrderView.join 1\n");

        String text = ProfileSummary.renderStacks("after-cpu.collapsed.gz", stacks, 5);

        assertThat(text).startsWith("after-cpu.collapsed.gz:\n")
                .contains("of 4 samples")
                .contains(" 75.0%       3  Jackson (JSON)")
                .contains(" 25.0%       1  fanout-lab")
                .contains(" 75.0%       3  tools/jackson/core/JsonParser.next");
    }
}
