package lab.fanout.main.web;

import java.time.Duration;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import lab.fanout.main.strategy.StrategyName;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.blockhound.BlockHound;
import reactor.blockhound.BlockingOperationError;
import reactor.blockhound.integration.BlockHoundIntegration;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Nothing blocks an event loop under the {@code netty} profile, here with the reactive strategy on HttpClient 5's
 * async client ({@link ReactorNettyClientBlockHoundIT}: on Reactor Netty's, the profile's default): with BlockHound
 * installed, any blocking call on Reactor Netty's loops or on the reactive strategy's HTTP I/O threads ({@code reactive-io-N}, where its answers are
 * decoded and joined) throws {@link BlockingOperationError}; the reactive strategy, which runs there end to end, and
 * the blocking strategies, which hand their fan-out to a virtual thread, all answer 200. The check's own proof: a
 * blocking call on an event loop is caught. In a JVM of its own (failsafe's {@code blockhound} execution):
 * BlockHound instruments the JVM for good.
 */
@ActiveProfiles("netty")
@TestPropertySource(properties = "fanout.reactive.client=httpclient5")   // Reactor Netty's: ReactorNettyClientBlockHoundIT
class NettyEventLoopBlockHoundIT extends FanoutIntegrationTest {

    /** What BlockHound caught: the blocking method, the thread and who called it, in the order seen. */
    private static final List<String> caught = new CopyOnWriteArrayList<>();

    /**
     * Every integration on the classpath but Reactor's own, which also marks Reactor's {@code parallel-N} workers
     * non-blocking: on JDK 25 BlockHound flags the lock contention inside their {@code ScheduledThreadPoolExecutor}
     * queue (where the reactive strategy's deadline timers live), and its error, thrown between lock and unlock,
     * leaves them failing with {@code IllegalMonitorStateException} (seen here; reactor-core#2004 is the same kind).
     * Netty's integration marks its event loop threads and allows their own idle waits.
     * <p>
     * Allowed, and said in docs/strategies.md: the lock of HttpClient 5's connection pool. The reactive strategy
     * leases its connections on the event loop, and under contention the loop parks for the length of another
     * thread's lease or release bookkeeping (BlockHound's one finding here, {@code StrictConnPool.lease}). And, as
     * Reactor's own integration allows them (reactor-core's {@code ReactorBlockHoundIntegration}), the locks of a
     * timer queue ({@code ScheduledThreadPoolExecutor$DelayedWorkQueue}): a loop that sets or cancels a timer while
     * another thread does parks for that thread's queue bookkeeping (caught in 2 of 8 runs beside
     * {@code stress-ng --cpu 2}, in {@code DelayedWorkQueue.offer} under {@code ScheduledThreadPoolExecutor.schedule},
     * for the virtual-thread executor and the bounded pool; not seen on a quiet machine). And Netty 4.2's own
     * allocator: a loop that grows its buffer magazines frees one under a {@code StampedLock} another loop may hold
     * ({@code AdaptivePoolingAllocator$Magazine.free} under {@code MagazineGroup.tryExpandMagazines}, caught once in a
     * fresh-clone CI run of ReactorNettyClientBlockHoundIT on 2026-12-01; armeria#6344 allows the same for Netty 4.2:
     * a lock for the allocator's bookkeeping, not an I/O wait).
     */
    @BeforeAll
    static void installBlockHound() {
        BlockHound.Builder builder = BlockHound.builder();
        ServiceLoader.load(BlockHoundIntegration.class).stream()
                .filter(integration -> !integration.type().getName().startsWith("reactor.core.")
                        && !integration.type().getSimpleName().equals("ReactorIntegration"))
                .forEach(integration -> builder.with(integration.get()));
        builder.allowBlockingCallsInside("org.apache.hc.core5.pool.StrictConnPool", "lease")
                .allowBlockingCallsInside("org.apache.hc.core5.pool.StrictConnPool", "release")
                .allowBlockingCallsInside(ScheduledThreadPoolExecutor.class.getName() + "$DelayedWorkQueue", "offer")
                .allowBlockingCallsInside(ScheduledThreadPoolExecutor.class.getName() + "$DelayedWorkQueue", "remove")
                .allowBlockingCallsInside("io.netty.buffer.AdaptivePoolingAllocator$Magazine", "free")
                .nonBlockingThreadPredicate(others -> others.or(t -> t.getName().startsWith("reactive-io-")))
                .blockingMethodCallback(method -> {
                    caught.add(method + " on " + Thread.currentThread().getName() + " from " + callers());
                    throw new BlockingOperationError(method);
                })
                .install();
    }

    /** @return the first frames above the JDK's locks and BlockHound: where a blocking call came from */
    private static String callers() {
        return StackWalker.getInstance().walk(frames -> frames.map(f -> f.getClassName() + "." + f.getMethodName())
                .filter(f -> !f.startsWith("reactor.blockhound.") && !f.startsWith("jdk.internal.")
                        && !f.startsWith("java.util.concurrent.locks.")
                        && !f.startsWith(NettyEventLoopBlockHoundIT.class.getName()))
                .limit(12).collect(Collectors.joining(" < ")));
    }

    @ParameterizedTest
    @EnumSource(StrategyName.class)
    void noStrategyBlocksTheEventLoop(StrategyName strategy) {
        serveAll(20);   // a real wait on every call, so that a blocking read would block
        caught.clear();

        List<Answer> answers = backofficeAtOnce(10, strategy);

        assertThat(caught).as("blocking calls BlockHound caught").isEmpty();
        assertThat(answers).filteredOn(answer -> answer.status() != 200).extracting(Answer::body)
                .as("the answers that are not 200").isEmpty();
    }

    /**
     * The check's own proof: a blocking call on one of the server's event loops is caught. (Not a blocking strategy's
     * fan-out there: the error would leave its pooled connection leased, which every test here checks for.)
     */
    @Test
    void aBlockingCallOnTheEventLoopIsCaught(@Autowired ReactorResourceFactory server) throws Exception {
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();

        server.getLoopResources().onServer(true).next().execute(() -> {
            try {
                Thread.sleep(1);
                outcome.complete(null);
            } catch (Throwable e) {
                outcome.complete(e);
            }
        });

        assertThat(outcome.get(Duration.ofSeconds(10).toMillis(), TimeUnit.MILLISECONDS))
                .as("what Thread.sleep threw on the event loop").isInstanceOf(BlockingOperationError.class);
    }
}
