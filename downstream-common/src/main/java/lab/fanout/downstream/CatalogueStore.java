package lab.fanout.downstream;

import java.time.Duration;

import lab.fanout.common.Slice;
import org.jspecify.annotations.Nullable;

/**
 * Where a downstream's catalogue is kept, and so where a request's simulated I/O waits. The default keeps it in
 * memory ({@link SerializedCatalogue}) and sleeps on the request's thread; a service may declare its own bean instead
 * (orders-service's PostgreSQL store waits inside the database, holding a pooled connection). Either way the JSON is
 * the same bytes: the caller cannot tell the stores apart by the answer, only by where the time went.
 */
public interface CatalogueStore {

    /**
     * One request's simulated I/O, then its read: waits {@code delay}, but not past {@code giveUpAt}, then reads
     * {@code what}.
     *
     * @param what     what to read, or null for the wait alone (a request drawn to fail reads nothing)
     * @param delay    the simulated I/O's length (latency, jitter, tail), 0..180 s
     * @param giveUpAt a {@link System#nanoTime()} instant not to wait past (the caller's budget plus grace)
     * @return whether the wait ended before {@code giveUpAt}, the JSON read, and how long the simulated I/O took
     * @throws InterruptedException if the request's thread is interrupted while it waits
     * @throws org.springframework.web.ErrorResponseException (503 problem+json) or another runtime exception if the
     *         store cannot serve the read; the memory store never fails
     */
    Fetched fetch(@Nullable Query what, Duration delay, long giveUpAt) throws InterruptedException;

    /** What a request reads: part of the catalogue, or one item. */
    sealed interface Query {
    }

    /** @param slice which part of the whole catalogue ({@link Slice#WHOLE} for all of it) */
    record Part(Slice slice) implements Query {
    }

    /** @param id the item's {@code id} */
    record Item(String id) implements Query {
    }

    /**
     * @param inTime true if the wait ended before the give-up instant (the JSON was read only then)
     * @param json   UTF-8 JSON, written as {@link SerializedCatalogue} writes it; null when nothing was asked, the wait
     *               gave up, or no item has the asked id
     * @param io     how long the simulated I/O took, recorded as {@code downstream_simulated_latency_seconds}
     */
    record Fetched(boolean inTime, byte @Nullable [] json, Duration io) {
    }
}
