package lab.fanout.main.strategy;

import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

import lab.fanout.common.Simulation;
import lab.fanout.main.client.Deadline;
import lab.fanout.main.client.Downstream;
import lab.fanout.main.client.ScriptedDownstreamClient;
import org.junit.jupiter.api.Test;

import static lab.fanout.main.strategy.TestCalls.call;
import static org.assertj.core.api.Assertions.assertThat;

class FanoutCallsTest {

    /** One entry per finished call, then total; entries separated by ", " (RFC: Server-Timing is a list). */
    private static final Pattern SERVER_TIMING = Pattern.compile("(\\w+;dur=\\d+\\.\\d, )*total;dur=\\d+\\.\\d");

    private final ScriptedDownstreamClient downstreams = new ScriptedDownstreamClient()
            .answer(Downstream.ORDERS, List.of(), Duration.ZERO)
            .answer(Downstream.PRODUCTS, List.of(), Duration.ZERO)
            .answer(Downstream.ACCOUNTS, List.of(), Duration.ZERO);

    @Test
    void serverTimingListsTheFinishedCallsThenTheTotal() {
        FanoutCalls calls = calls();
        assertThat(calls.serverTiming(Duration.ofMillis(3))).isEqualTo("total;dur=3.0");
        call(calls, Downstream.PRODUCTS).fetch();
        call(calls, Downstream.ORDERS).fetch();
        assertThat(calls.serverTiming(Duration.ofMillis(5))).matches(SERVER_TIMING)
                .startsWith("orders;dur=").contains(", products;dur=").endsWith(", total;dur=5.0");
    }

    // gh-15 item 4: a call that finished while the header was being written lost its separator
    // ("orders;dur=2001.3total;dur=2002.0"): the header must be well formed whatever finishes meanwhile
    @Test
    void serverTimingIsWellFormedWhileACallFinishes() throws Exception {
        for (int i = 0; i < 20_000; i++) {
            FanoutCalls calls = calls();
            Thread call = Thread.ofVirtual().start(() -> call(calls, Downstream.ORDERS).fetch());
            String header = calls.serverTiming(Duration.ofMillis(1));
            call.join();
            assertThat(header).as("request %d", i).matches(SERVER_TIMING);
        }
    }

    private FanoutCalls calls() {
        return new FanoutCalls(downstreams, new Simulation(null, null), Deadline.after(Duration.ofSeconds(10)));
    }
}
