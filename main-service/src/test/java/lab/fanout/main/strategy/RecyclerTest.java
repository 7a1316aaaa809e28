package lab.fanout.main.strategy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Where each {@code recycler} value takes a call's work buffer from (issue 67 item 4): a ThreadLocal cache hits only on
 * a thread that asked before, so a new thread per call allocates every time; the shared pool reuses across threads.
 */
class RecyclerTest {

    private static final int CALLS = 50;

    @Test
    void parsesItsOwnNamesInAnyCaseAndRefusesOthersNamingTheValidOnes() {
        assertThat(Arrays.stream(Recycler.values()).map(r -> Recycler.fromParameter(r.toString().toUpperCase())))
                .containsExactly(Recycler.values());
        assertThatIllegalArgumentException().isThrownBy(() -> Recycler.fromParameter("jackson"))
                .withMessage("'jackson' is not one of [none, threadLocal, pool]");
    }

    @Test
    void noneTakesNoBuffer() {
        assertThat(Recycler.NONE.use((byte) 1)).isEqualTo(Recycler.Use.NOTHING);
    }

    @Test
    void threadLocalOnANewThreadPerCallAllocatesEveryTime() throws InterruptedException {
        assertThat(onNewThreads(Recycler.THREAD_LOCAL, true)).hasSize(CALLS).containsOnly(Recycler.Use.ALLOCATED);
        assertThat(onNewThreads(Recycler.THREAD_LOCAL, false)).hasSize(CALLS).containsOnly(Recycler.Use.ALLOCATED);
    }

    @Test
    void threadLocalOnOneReusedThreadAllocatesOnceThenReuses() throws InterruptedException {
        List<Recycler.Use> uses = new ArrayList<>();
        Thread thread = Thread.ofPlatform().start(() -> {
            for (int i = 0; i < CALLS; i++) {
                uses.add(Recycler.THREAD_LOCAL.use((byte) i));
            }
        });
        thread.join();

        assertThat(uses.getFirst()).isEqualTo(Recycler.Use.ALLOCATED);
        assertThat(uses.subList(1, CALLS)).containsOnly(Recycler.Use.REUSED);
    }

    /** One call at a time on a new thread each: the pool hands the same buffers round, at most one allocated here. */
    @Test
    void poolReusesAcrossNewThreads() throws InterruptedException {
        List<Recycler.Use> uses = onNewThreads(Recycler.POOL, true);

        assertThat(uses.stream().filter(u -> u == Recycler.Use.ALLOCATED).count()).isLessThanOrEqualTo(1);
        assertThat(uses.stream().filter(u -> u == Recycler.Use.REUSED).count()).isGreaterThanOrEqualTo(CALLS - 1);
    }

    /** @return each call's use, one call on each of {@value #CALLS} new threads, one after another */
    private static List<Recycler.Use> onNewThreads(Recycler recycler, boolean virtual) throws InterruptedException {
        List<Recycler.Use> uses = new ArrayList<>();
        for (int i = 0; i < CALLS; i++) {
            AtomicReference<Recycler.Use> use = new AtomicReference<>();
            byte fill = (byte) i;
            Runnable call = () -> use.set(recycler.use(fill));
            (virtual ? Thread.ofVirtual().start(call) : Thread.ofPlatform().start(call)).join();
            uses.add(use.get());
        }
        return uses;
    }
}
