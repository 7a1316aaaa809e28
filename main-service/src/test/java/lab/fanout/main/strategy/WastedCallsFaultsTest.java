package lab.fanout.main.strategy;

import java.time.Duration;
import java.util.List;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import lab.fanout.common.Simulation;
import lab.fanout.main.client.Deadline;
import lab.fanout.main.client.Downstream;
import lab.fanout.main.client.DownstreamClient;
import lab.fanout.main.client.FanoutCallMeters;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static lab.fanout.main.strategy.TestCalls.call;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.awaitility.Awaitility.await;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/** A call that finishes after its request was answered is counted as wasted, under the strategy that answered. */
class WastedCallsFaultsTest {

    private final DownstreamClient client = mock(DownstreamClient.class);
    private final FanoutCalls calls = new FanoutCalls(client, Simulation.NONE, Deadline.after(Duration.ofSeconds(5)));

    @BeforeEach
    void meters() {
        when(client.meters()).thenReturn(new FanoutCallMeters(new SimpleMeterRegistry()));
    }

    @Test
    void callFinishingBeforeTheAnswerIsNotWasted() {
        when(client.fetch(eq(Downstream.ORDERS), any(), any(), any(), any(), any())).thenReturn(List.of());

        call(calls, Downstream.ORDERS).fetch();
        calls.answered(StrategyName.COMPLETABLE_FUTURE);

        verify(client, never()).wasted(any(), any());
    }

    @Test
    void callFinishingAfterTheAnswerIsWasted() {
        when(client.fetch(eq(Downstream.PRODUCTS), any(), any(), any(), any(), any())).thenReturn(List.of());

        calls.answered(StrategyName.THREAD_PER_TASK);
        call(calls, Downstream.PRODUCTS).fetch();

        verify(client).wasted("completableFutureWithThreadTaskExecutor", Downstream.PRODUCTS);
    }

    @Test
    void failedCallAfterTheAnswerIsWastedToo() {
        when(client.fetch(eq(Downstream.ACCOUNTS), any(), any(), any(), any(), any())).thenThrow(new IllegalStateException("reset"));

        calls.answered(StrategyName.VIRTUAL_THREAD_PER_TASK);
        // gh-15 item 8: the call does fail (the failure reaches nobody: that is the point)
        assertThatThrownBy(() -> call(calls, Downstream.ACCOUNTS).fetch()).isInstanceOf(IllegalStateException.class).hasMessage("reset");

        verify(client).wasted("completableFutureWithVirtualTaskExecutor", Downstream.ACCOUNTS);
    }

    /**
     * gh-15 item 4: the watchdog's alarm and the strategy's wait expire together. A call cut at the deadline that
     * ends a moment before the strategy gives up is wasted, as is one that ends a moment after (docs/reliability.md
     * read 0.3 and 0.7 for identical requests); a call that ended before the deadline is not.
     */
    @Test
    void callsEndingAfterTheDeadlineAreWastedWhenTheStrategyGivesUpThere() {
        when(client.fetch(eq(Downstream.ORDERS), any(), any(), any(), any(), any())).thenReturn(List.of());
        when(client.fetch(eq(Downstream.PRODUCTS), any(), any(), any(), any(), any())).thenAnswer(call -> {
            await().until(call.<Deadline>getArgument(4)::expired);   // cut by the watchdog, before the strategy gives up
            return List.of();
        });
        // stubbed first and 1 s long: the orders call must end before the deadline even when a loaded CI machine
        // takes the first mock invocation's class loading past 100 ms (CI saw orders counted wasted at 100 ms)
        FanoutCalls shortDeadline = new FanoutCalls(client, Simulation.NONE, Deadline.after(Duration.ofSeconds(1)));

        call(shortDeadline, Downstream.ORDERS).fetch();
        call(shortDeadline, Downstream.PRODUCTS).fetch();
        shortDeadline.deadlineExceeded(null);
        shortDeadline.answered(StrategyName.SCOPE_FORK);
        shortDeadline.answered(StrategyName.SCOPE_FORK);   // a second mark counts nothing again

        verify(client).wasted("scopeFork", Downstream.PRODUCTS);
        verify(client, never()).wasted(any(), eq(Downstream.ORDERS));
    }
}
