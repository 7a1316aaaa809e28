package lab.fanout.main.strategy;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import lab.fanout.main.client.Downstream;
import lab.fanout.main.client.FanoutException;

/**
 * The executor of {@code completableFutureWithBoundedPool}: a fixed pool of platform threads ({@code fanout-pool-N},
 * started as calls arrive and kept) with a bounded queue, the bulkhead most services put around their calls. At most
 * {@code threads} calls run, {@code queue} more wait, and a call past both is refused at once (abort: the submit
 * throws {@link RejectedExecutionException}), which {@link #full} turns into the request's 503.
 * <p>
 * The bound is a count of the calls the pool holds, running or queued ({@code room}), not the queue's capacity: once
 * its threads exist, a ThreadPoolExecutor hands every task to an idle thread through its queue, so with a queue of
 * {@code queue} places it refused a request's third call while both threads were idle and the first two calls still
 * sat in the queue, untaken (seen with 2 threads and a queue of 1). The queue has room for both, and never refuses.
 * <p>
 * A request hands its calls over one by one, so the pool may refuse its second call after taking its first. Each call
 * goes through its own {@link #tasks()}, which can take the call's tasks back out of the queue if they have not
 * started: the request's 503 then leaves nothing of it queued, and no queue place held by a call nobody waits for.
 */
final class BoundedPool extends ThreadPoolExecutor {

    private final String name;
    private final int queueCapacity;
    private final Duration retryAfter;
    private final LongAdder rejected = new LongAdder();
    /** Places for calls, running or queued: threads + queue. */
    private final Semaphore room;

    /**
     * @param name       for the problem and the metrics' {@code name} tag: the strategy's
     * @param threads    platform threads, at least 1
     * @param queue      calls that may wait for a thread, at least 1
     * @param retryAfter the 503's {@code Retry-After}
     */
    BoundedPool(String name, int threads, int queue, Duration retryAfter) {
        super(threads, threads, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(threads + queue),
                Thread.ofPlatform().name("fanout-pool-", 0).factory(), new AbortPolicy());   // abort: once stopped
        this.name = name;
        this.queueCapacity = queue;
        this.retryAfter = retryAfter;
        this.room = new Semaphore(threads + queue);
    }

    /** @throws RejectedExecutionException when the pool holds {@code threads + queue} calls, or is stopped */
    @Override
    public void execute(Runnable task) {
        if (!room.tryAcquire()) {
            rejected.increment();
            throw new RejectedExecutionException(name + " is full: " + this);
        }
        try {
            super.execute(task);
        } catch (RejectedExecutionException e) {
            room.release();
            throw e;
        }
    }

    @Override
    protected void afterExecute(Runnable task, Throwable failure) {
        room.release();
    }

    /** @return whether {@code task} was still queued, and is now out of the queue: it will not run */
    @Override
    public boolean remove(Runnable task) {
        boolean removed = super.remove(task);
        if (removed) {
            room.release();
        }
        return removed;
    }

    /** @return calls refused since start (a full pool), for {@code fanout_bounded_pool_rejected_total} */
    long rejected() {
        return rejected.sum();
    }

    /** @return an executor for one call's tasks (a hedged call has two), which {@link Tasks#withdraw} can take back */
    Tasks tasks() {
        return new Tasks();
    }

    /**
     * @param refused the call the pool refused
     * @return 503 {@code bulkhead-full} with {@code Retry-After}, naming the call's downstream and the pool:
     *         {@code pool} with its {@code name}, {@code threads}, {@code queueCapacity}, and {@code active} and
     *         {@code queued} now
     */
    FanoutException full(Downstream refused, RejectedExecutionException cause) {
        FanoutException full = FanoutException.bulkheadFull(refused, name + " refused the call to "
                + refused.serviceName() + ": " + getMaximumPoolSize() + " threads busy, queue of " + queueCapacity
                + " full; the request's calls it held were cancelled", retryAfter, cause);
        Map<String, Object> pool = new LinkedHashMap<>();
        pool.put("name", name);
        pool.put("threads", getMaximumPoolSize());
        pool.put("queueCapacity", queueCapacity);
        pool.put("active", getActiveCount());
        pool.put("queued", getQueue().size());
        full.property("pool", pool);
        return full;
    }

    /** One call's tasks on the pool: what it handed over, so that those not yet started can be taken back. */
    final class Tasks implements Executor {

        private final Queue<Runnable> handed = new ConcurrentLinkedQueue<>();

        /** @throws RejectedExecutionException when the pool's threads are busy and its queue is full */
        @Override
        public void execute(Runnable task) {
            BoundedPool.this.execute(task);
            handed.add(task);
        }

        /**
         * Takes every task of the call still queued out of the queue.
         *
         * @return whether none of them will run: each was still queued (a call that never started completes never)
         */
        boolean withdraw() {
            boolean none = !handed.isEmpty();
            for (Runnable task : handed) {
                none &= remove(task);
            }
            return none;
        }
    }
}
