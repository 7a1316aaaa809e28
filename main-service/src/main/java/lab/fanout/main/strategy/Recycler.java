package lab.fanout.main.strategy;

import java.lang.ref.SoftReference;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

import org.jspecify.annotations.Nullable;

/**
 * Where each downstream call gets the work buffer a JSON library encodes with: the query parameter {@code recycler}
 * (docs/strategies.md, "Buffer recycling"). Jackson 2.x kept its buffers per thread ({@code BufferRecyclers}: a
 * {@code ThreadLocal<SoftReference<BufferRecycler>>}); a thread that is new for each call, as a virtual thread per task
 * is, finds its slot empty every time and allocates, and the buffer becomes garbage when the thread ends. Jackson 2.16
 * added pools shared by all threads ({@code JsonRecyclerPools}, jackson-core #1089), its bounded one an
 * {@code ArrayBlockingQueue} of {@value #POOL_CAPACITY}. {@link #toString()} is the parameter value.
 * <p>
 * Each call takes a {@value #BUFFER_BYTES}-byte buffer on the thread that makes it (a blocking strategy's call thread;
 * for the reactive strategy, which has no thread per call, the thread that subscribes the call, a request thread or an
 * event loop), writes into it, and gives it back, before the call is sent: held while it encodes, not while the call
 * waits. The {@link Use} it returns says whether it had to allocate; {@code FanoutCall} counts them
 * ({@code fanout.recycler.allocations} and {@code fanout.recycler.reuses} by {@code mode}).
 */
public enum Recycler {

    /** No buffer: the call as it is, the default. */
    NONE("none"),
    /** The thread's own cached buffer, allocated when its slot is empty or the GC cleared it (Jackson 2.16's way). */
    THREAD_LOCAL("threadLocal"),
    /**
     * A buffer from one pool shared by every thread, of {@value #POOL_CAPACITY}: taken if there is one, allocated if
     * not; given back if there is room, dropped if not (Jackson's {@code BoundedPool}).
     */
    POOL("pool");

    /**
     * Bytes per buffer, 16 KiB: about what one Jackson parser takes from its {@code BufferRecycler}, an 8,000-byte read
     * buffer and a 4,000-char (8,000-byte) token buffer.
     */
    public static final int BUFFER_BYTES = 16 * 1024;
    /** Buffers the shared pool keeps at most: Jackson's {@code RecyclerPool.BoundedPoolBase.DEFAULT_CAPACITY}. */
    public static final int POOL_CAPACITY = 100;

    private static final ThreadLocal<@Nullable SoftReference<byte[]>> CACHED = new ThreadLocal<>();
    private static final BlockingQueue<byte[]> SHARED = new ArrayBlockingQueue<>(POOL_CAPACITY);

    /** What one call's take of a buffer did. */
    public enum Use {
        /** No buffer ({@link #NONE}). */
        NOTHING,
        /** A new buffer was allocated: its slot or the pool was empty. */
        ALLOCATED,
        /** A buffer used before was taken again. */
        REUSED
    }

    private final String parameterValue;

    Recycler(String parameterValue) {
        this.parameterValue = parameterValue;
    }

    /**
     * @param value {@code none}, {@code threadLocal} or {@code pool}; case-insensitive
     * @throws IllegalArgumentException naming the valid values, if none matches
     */
    public static Recycler fromParameter(String value) {
        return ParameterValues.parse(Recycler.class, value);
    }

    /**
     * Takes a buffer on this thread the way this value says, writes {@code fill} into every byte of it (so that the
     * allocation is real work the JIT cannot drop) and gives it back.
     *
     * @param fill the byte to write, e.g. the call's slice index
     * @return whether the buffer was allocated or reused; {@link Use#NOTHING} for {@link #NONE}
     */
    public Use use(byte fill) {
        return switch (this) {
            case NONE -> Use.NOTHING;
            case THREAD_LOCAL -> {
                SoftReference<byte[]> cached = CACHED.get();
                byte[] buffer = cached == null ? null : cached.get();
                Use use = buffer == null ? Use.ALLOCATED : Use.REUSED;
                if (buffer == null) {
                    buffer = new byte[BUFFER_BYTES];
                    CACHED.set(new SoftReference<>(buffer));
                }
                Arrays.fill(buffer, fill);
                yield use;
            }
            case POOL -> {
                byte[] buffer = SHARED.poll();
                Use use = buffer == null ? Use.ALLOCATED : Use.REUSED;
                if (buffer == null) {
                    buffer = new byte[BUFFER_BYTES];
                }
                Arrays.fill(buffer, fill);
                SHARED.offer(buffer);   // false when full: dropped, as BoundedPool does
                yield use;
            }
        };
    }

    @Override
    public String toString() {
        return parameterValue;
    }
}
