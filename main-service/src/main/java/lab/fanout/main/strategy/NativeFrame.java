package lab.fanout.main.strategy;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * Runs a call from inside a native frame ({@link Pinning#NATIVE}): libc's {@code qsort}, called through the FFM API
 * ({@code java.lang.foreign}) on an array of two ints, calls back a Java comparator (an upcall stub) that makes the
 * call, once, and answers "equal". While the call blocks, qsort's native frame is on the thread's stack, and a virtual
 * thread cannot unmount across a native frame (JDK 25, after JEP 491 as before): it parks its carrier with it, pinned
 * (JFR {@code jdk.VirtualThreadPinned}, reason "Native or VM frame on stack").
 * <p>
 * Errors: an exception that escapes an upcall ends the JVM (the FFM API's rule for upcalls), so the comparator catches
 * everything the call throws and returns; {@link #call} throws it again, the same instance, once qsort has returned.
 * <p>
 * The call reaches the comparator through a thread-local: the upcall runs on the thread that called qsort, and one stub
 * for the JVM's life serves every call (a stub per call would generate code per call). Restricted methods of the FFM
 * API are used: without {@code --enable-native-access=ALL-UNNAMED} (or the jar manifest's
 * {@code Enable-Native-Access}) the JVM warns once, and they still work.
 */
final class NativeFrame {

    /** The call to make from the comparator, on this thread; unset outside {@link #call}. */
    private static final ThreadLocal<@Nullable Pending<?>> PENDING = new ThreadLocal<>();

    private NativeFrame() {
    }

    /**
     * @param call the call to make; its exception is rethrown as it is
     * @return what {@code call} returned
     * @throws IllegalStateException when qsort could not be called (not found, or the downcall failed)
     */
    static <T> T call(Supplier<T> call) {
        Pending<T> pending = new Pending<>(call);
        PENDING.set(pending);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment two = arena.allocate(ValueLayout.JAVA_INT, 2);   // glibc compares 2 elements once
            Qsort.HANDLE.invokeExact(two, 2L, ValueLayout.JAVA_INT.byteSize(), Qsort.COMPARATOR);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("the downcall to qsort failed", e);
        } finally {
            PENDING.remove();
        }
        return pending.outcome();
    }

    /**
     * The upcall's target: qsort's {@code int (*compar)(const void *, const void *)}. Makes this thread's pending call
     * if it has not been made yet; never throws.
     *
     * @return 0, "equal": nothing is swapped
     */
    private static int compare(MemorySegment left, MemorySegment right) {
        Pending<?> pending = PENDING.get();
        if (pending != null) {
            pending.run();
        }
        return 0;
    }

    /** libc's qsort and the comparator's stub, made on first use: a service that never pins never links them. */
    private static final class Qsort {

        /** {@code void qsort(void *base, size_t nmemb, size_t size, int (*compar)(const void *, const void *))}. */
        static final MethodHandle HANDLE;
        /** The comparator's upcall stub, for the JVM's life. */
        static final MemorySegment COMPARATOR;

        static {
            Linker linker = Linker.nativeLinker();
            MemorySegment qsort = linker.defaultLookup().find("qsort")
                    .orElseThrow(() -> new IllegalStateException("libc's qsort is not in the native linker's lookup"));
            // size_t as a Java long: the 64-bit platforms the lab runs on (linux-x64, linux-aarch64)
            HANDLE = linker.downcallHandle(qsort, FunctionDescriptor.ofVoid(ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_LONG, ValueLayout.ADDRESS));
            try {
                MethodHandle compare = MethodHandles.lookup().findStatic(NativeFrame.class, "compare",
                        MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class));
                COMPARATOR = linker.upcallStub(compare, FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                        ValueLayout.ADDRESS), Arena.global());
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private Qsort() {
        }
    }

    /** One call, made at most once, and its outcome. Used by one thread only. */
    private static final class Pending<T> {

        private final Supplier<T> call;
        private boolean made;
        private @Nullable T result;
        private @Nullable Throwable failure;

        Pending(Supplier<T> call) {
            this.call = call;
        }

        void run() {
            if (made) {
                return;
            }
            made = true;
            try {
                result = call.get();
            } catch (Throwable e) {   // even an Error: thrown from an upcall it would end the JVM
                failure = e;
            }
        }

        /** @return the call's result, after qsort returned; throws its failure instead, if it failed */
        T outcome() {
            if (failure instanceof RuntimeException e) {
                throw e;
            }
            if (failure instanceof Error e) {
                throw e;
            }
            if (failure != null) {   // a checked exception, thrown sneakily past Supplier's signature
                throw new IllegalStateException("the call failed", failure);
            }
            if (!made) {
                throw new IllegalStateException("qsort returned without calling the comparator");
            }
            return result;
        }
    }
}
