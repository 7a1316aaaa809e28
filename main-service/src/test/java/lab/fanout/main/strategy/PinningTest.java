package lab.fanout.main.strategy;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

import lab.fanout.common.PollerMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.catchThrowable;

/** What each {@code pinning} value holds while the call runs, and that the call's outcome comes back intact (gh-23). */
class PinningTest {

    @Test
    void parsesItsOwnNamesInAnyCaseAndRefusesOthersNamingTheValidOnes() {
        assertThat(Arrays.stream(Pinning.values()).map(p -> Pinning.fromParameter(p.toString().toUpperCase())))
                .containsExactly(Pinning.values());
        assertThatIllegalArgumentException().isThrownBy(() -> Pinning.fromParameter("monitor"))
                .withMessage("'monitor' is not one of [none, synchronized, native]");
    }

    @Test
    void synchronizedHoldsTheGivenMonitorWhileTheCallRunsAndNoneDoesNot() {
        Object monitor = new Object();

        assertThat(Pinning.SYNCHRONIZED.around(monitor, () -> Thread.holdsLock(monitor))).isTrue();
        assertThat(Pinning.NONE.around(monitor, () -> Thread.holdsLock(monitor))).isFalse();
    }

    /** The comparator runs on the calling thread, below qsort's native frame: its Java frames show the upcall. */
    @Test
    void nativeMakesTheCallOnceOnThisThreadFromInsideTheQsortUpcall() {
        AtomicInteger calls = new AtomicInteger();
        Thread caller = Thread.currentThread();

        StackTraceElement[] stack = Pinning.NATIVE.around(new Object(), () -> {
            calls.incrementAndGet();
            assertThat(Thread.currentThread()).isSameAs(caller);
            return new Throwable().getStackTrace();
        });

        assertThat(calls).hasValue(1);
        assertThat(Arrays.stream(stack).map(e -> e.getClassName() + "." + e.getMethodName()))
                .contains(NativeFrame.class.getName() + ".compare");
        assertThat(Pinning.NATIVE.around(new Object(), () -> "answer")).isEqualTo("answer");
    }

    /**
     * An exception thrown out of an upcall would end this JVM ("Unrecoverable uncaught exception encountered"): it is
     * caught inside and thrown again, the same instance, after qsort returned; the thread can pin again afterwards.
     */
    @ParameterizedTest
    @EnumSource(Pinning.class)
    void theCallsFailureComesOutAsItIsAndTheNextCallWorks(Pinning pinning) {
        IllegalStateException failure = new IllegalStateException("downstream down");
        AssertionError error = new AssertionError("an Error too");

        assertThat(catchThrowable(() -> pinning.around(new Object(), () -> {
            throw failure;
        }))).isSameAs(failure);
        assertThat(catchThrowable(() -> pinning.around(new Object(), () -> {
            throw error;
        }))).isSameAs(error);
        assertThat(pinning.around(new Object(), () -> 42)).isEqualTo(42);
    }

    @Test
    void onlyNativeExplainsADeadlineAndTheExplanationFollowsThePollerMode() {
        assertThat(Pinning.NONE.deadlineHint(PollerMode.VTHREAD_POLLERS)).isEmpty();
        assertThat(Pinning.SYNCHRONIZED.deadlineHint(PollerMode.VTHREAD_POLLERS)).isEmpty();
        assertThat(Pinning.NATIVE.deadlineHint(PollerMode.VTHREAD_POLLERS)).get().asString()
                .contains("waits out its timeout", "-Djdk.pollerMode=1");
        assertThat(Pinning.NATIVE.deadlineHint(PollerMode.SYSTEM_THREADS)).get().asString()
                .contains("÷ latency calls per second");
    }
}
