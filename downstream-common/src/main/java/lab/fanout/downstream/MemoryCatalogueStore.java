package lab.fanout.downstream;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * The default {@link CatalogueStore}: {@code classpath:catalogue.json}, serialised once ({@link SerializedCatalogue}),
 * behind a sleep on the request's (virtual) thread, which holds nothing else while it waits.
 */
final class MemoryCatalogueStore implements CatalogueStore {

    private final SerializedCatalogue catalogue;

    MemoryCatalogueStore(SerializedCatalogue catalogue) {
        this.catalogue = catalogue;
    }

    @Override
    public Fetched fetch(@Nullable Query what, Duration delay, long giveUpAt) throws InterruptedException {
        long start = System.nanoTime();
        boolean inTime = DownstreamMetrics.sleepUntil(start + delay.toNanos(), giveUpAt);
        Duration slept = Duration.ofNanos(System.nanoTime() - start);
        if (!inTime || what == null) {
            return new Fetched(inTime, null, slept);
        }
        byte[] json = switch (what) {
            case Part part -> catalogue.slice(part.slice());
            case Item item -> catalogue.byId(item.id()).orElse(null);
        };
        return new Fetched(true, json, slept);
    }
}
