package lab.fanout.downstream;

import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

import org.jspecify.annotations.Nullable;

/**
 * A {@link CatalogueStore} that waits without a thread: {@link #fetchLater} returns at once, and its stage completes
 * when the simulated I/O and the read are done (orders-service's R2DBC store: the wait for a pooled connection and the
 * query run on the driver's event loop). The catalogue endpoint then releases the request's thread while the stage is
 * pending (Spring MVC's asynchronous request processing) and writes the answer on a new virtual thread once it
 * completes: between the two no thread of this service is held for the request, only the connection the store holds.
 */
public interface NonBlockingCatalogueStore extends CatalogueStore {

    /**
     * {@link #fetch} without blocking: the same wait, read and result, delivered through the returned stage.
     *
     * @param what     what to read, or null for the wait alone
     * @param delay    the simulated I/O's length, 0..180 s
     * @param giveUpAt a {@link System#nanoTime()} instant not to wait past
     * @return a stage that completes with what {@link #fetch} returns, or exceptionally with what it throws (an
     *         {@link org.springframework.web.ErrorResponseException}, 503, when the store cannot serve); it must
     *         complete by itself, within {@code delay} plus the store's own timeouts: nothing else bounds it
     */
    CompletionStage<Fetched> fetchLater(@Nullable Query what, Duration delay, long giveUpAt);

    /** Waits for {@link #fetchLater} on the calling thread (for callers that have one to spare). */
    @Override
    default Fetched fetch(@Nullable Query what, Duration delay, long giveUpAt) {
        try {
            return fetchLater(what, delay, giveUpAt).toCompletableFuture().join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }
}
