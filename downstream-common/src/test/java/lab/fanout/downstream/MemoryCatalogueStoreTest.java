package lab.fanout.downstream;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import lab.fanout.common.Slice;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/** The default store: a sleep on the request's thread, then the serialised catalogue (test resource catalogue.json). */
class MemoryCatalogueStoreTest {

    private static final long NO_LIMIT = TimeUnit.HOURS.toNanos(1);

    private final SerializedCatalogue catalogue = catalogue();
    private final MemoryCatalogueStore store = new MemoryCatalogueStore(catalogue);

    @Test
    void sleepsTheDelayThenReadsAndReportsWhatItSlept() throws InterruptedException {
        long start = System.nanoTime();
        CatalogueStore.Fetched fetched = store.fetch(new CatalogueStore.Part(Slice.WHOLE), Duration.ofMillis(30),
                System.nanoTime() + NO_LIMIT);

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(30));
        assertThat(fetched.inTime()).isTrue();
        assertThat(fetched.json()).isEqualTo(catalogue.all());
        assertThat(fetched.io()).isGreaterThanOrEqualTo(Duration.ofMillis(30));
    }

    @Test
    void readsOneItemOrNothingForAnUnknownId() throws InterruptedException {
        assertThat(store.fetch(new CatalogueStore.Item("item-2"), Duration.ZERO, System.nanoTime() + NO_LIMIT).json())
                .isEqualTo(catalogue.byId("item-2").orElseThrow());
        assertThat(store.fetch(new CatalogueStore.Item("no-such-id"), Duration.ZERO, System.nanoTime() + NO_LIMIT)
                .json()).isNull();
    }

    /** A request drawn to fail asks for the wait alone. */
    @Test
    void waitsWithoutReadingWhenNothingIsAsked() throws InterruptedException {
        CatalogueStore.Fetched fetched = store.fetch(null, Duration.ofMillis(10), System.nanoTime() + NO_LIMIT);

        assertThat(fetched.inTime()).isTrue();
        assertThat(fetched.json()).isNull();
    }

    /** The caller's budget (plus grace) comes first: the sleep ends there, says so, and reports what it slept. */
    @Test
    void stopsAtTheGiveUpInstantWithoutReading() throws InterruptedException {
        CatalogueStore.Fetched fetched = store.fetch(new CatalogueStore.Part(Slice.WHOLE), Duration.ofMinutes(1),
                System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20));

        assertThat(fetched.inTime()).isFalse();
        assertThat(fetched.json()).isNull();
        assertThat(fetched.io()).isBetween(Duration.ofMillis(20), Duration.ofMinutes(1));
    }

    private static SerializedCatalogue catalogue() {
        try {
            return new SerializedCatalogue(JsonMapper.builder().build());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
