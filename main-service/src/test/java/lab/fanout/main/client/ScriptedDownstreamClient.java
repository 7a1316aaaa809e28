package lab.fanout.main.client;

import java.net.URI;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import lab.fanout.common.Simulation;
import lab.fanout.common.Slice;
import lab.fanout.main.config.FanoutProperties;
import reactor.core.publisher.Mono;

import org.springframework.core.ParameterizedTypeReference;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * A {@link DownstreamClient} that answers from a script instead of over HTTP, keeping the real client's contract: a
 * call waits at most the deadline's remaining time and then fails with DEADLINE_EXCEEDED, and an interrupt ends it
 * with a DOWNSTREAM_ERROR, as an interrupted socket read does. {@link #ignoringDeadline} scripts the exception: a
 * call that blocks past the deadline, like a downstream trickling its body byte by byte.
 * <p>
 * Records what happened to each call, so that tests can tell a sibling that was interrupted from one that was left
 * to finish, without measuring time. {@link #fetchAsync} runs the same script on a virtual thread of its own, and
 * cancelling it interrupts that thread: a scripted stand-in for the async client's aborted exchange.
 */
public final class ScriptedDownstreamClient extends DownstreamClient {

    private static final URI UNUSED = URI.create("http://localhost:1");
    private static final FanoutProperties PROPERTIES = new FanoutProperties(
            new FanoutProperties.Downstreams(UNUSED, UNUSED, UNUSED),
            new FanoutProperties.Pool(1, 1, Duration.ofSeconds(1)),
            Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(1),
            new FanoutProperties.Breaker(false, Duration.ofSeconds(10), 20, 50, Duration.ofSeconds(2), 50,
                    Duration.ofSeconds(5), 5),
            new FanoutProperties.Reactive(FanoutProperties.Reactive.HTTPCLIENT5));

    /** With its own exchange function, a WebClient builds no connector (and starts no I/O threads). */
    private static final WebClient NO_HTTP = WebClient.builder()
            .exchangeFunction(request -> Mono.error(new IllegalStateException("scripted: no HTTP"))).build();

    private sealed interface Reply {
        Duration after();
    }

    private record Answer(List<?> body, Duration after, boolean honoursDeadline) implements Reply {
    }

    private record Failure(FanoutException failure, Duration after) implements Reply {
    }

    private final Map<Downstream, Reply> script = new EnumMap<>(Downstream.class);
    private final Set<Downstream> started = ConcurrentHashMap.newKeySet();
    private final Set<Downstream> completed = ConcurrentHashMap.newKeySet();
    private final Set<Downstream> interrupted = ConcurrentHashMap.newKeySet();
    private final AtomicInteger running = new AtomicInteger();

    public ScriptedDownstreamClient() {
        super(RestClient.create(), NO_HTTP, PROPERTIES, new FanoutCallMeters(new SimpleMeterRegistry()),
                new DownstreamBreakers(PROPERTIES, new SimpleMeterRegistry()));
    }

    /** The call answers {@code body} after {@code after}, or fails with DEADLINE_EXCEEDED when the deadline comes first. */
    public ScriptedDownstreamClient answer(Downstream downstream, List<?> body, Duration after) {
        script.put(downstream, new Answer(body, after, true));
        return this;
    }

    /** The call answers {@code body} after {@code after}, deadline or not. */
    public ScriptedDownstreamClient ignoringDeadline(Downstream downstream, List<?> body, Duration after) {
        script.put(downstream, new Answer(body, after, false));
        return this;
    }

    /** The call throws {@code failure} after {@code after} (within the deadline). */
    public ScriptedDownstreamClient fail(Downstream downstream, FanoutException failure, Duration after) {
        script.put(downstream, new Failure(failure, after));
        return this;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> List<T> fetch(Downstream downstream, Slice slice, ParameterizedTypeReference<List<T>> type,
                             Simulation simulation, Deadline deadline, Exchange exchange) {
        started.add(downstream);
        running.incrementAndGet();
        try {
            Reply reply = script.get(downstream);
            if (deadline.expired()) {
                throw deadline.exceeded(List.of(downstream), null);
            }
            boolean honoursDeadline = !(reply instanceof Answer answer) || answer.honoursDeadline();
            Duration wait = honoursDeadline && deadline.remaining().compareTo(reply.after()) < 0
                    ? deadline.remaining() : reply.after();
            Thread.sleep(wait);
            if (wait.compareTo(reply.after()) < 0) {
                throw deadline.exceeded(List.of(downstream), null);
            }
            completed.add(downstream);
            return switch (reply) {
                case Answer answer -> (List<T>) answer.body();
                case Failure failure -> throw failure.failure();
            };
        } catch (InterruptedException e) {
            interrupted.add(downstream);
            Thread.currentThread().interrupt();
            throw new FanoutException(FanoutException.Kind.DOWNSTREAM_ERROR, downstream,
                    "The call to " + downstream.serviceName() + " was cancelled", e);
        } finally {
            running.decrementAndGet();
        }
    }

    @Override
    public <T> Mono<List<T>> fetchAsync(Downstream downstream, Slice slice, ParameterizedTypeReference<List<T>> type,
                                        Simulation simulation, Deadline deadline) {
        return Mono.create(sink -> {
            Thread call = Thread.ofVirtual().start(() -> {
                try {
                    sink.success(fetch(downstream, slice, type, simulation, deadline, new Exchange()));
                } catch (RuntimeException e) {
                    sink.error(e);
                }
            });
            sink.onCancel(call::interrupt);
        });
    }

    /** @return the calls that were made, in no particular order */
    public Set<Downstream> started() {
        return Set.copyOf(started);
    }

    /** @return the calls that ran to their scripted end: answered or failed as scripted, not interrupted */
    public Set<Downstream> completed() {
        return Set.copyOf(completed);
    }

    public Set<Downstream> interrupted() {
        return Set.copyOf(interrupted);
    }

    /** @return how many calls are running now */
    public int running() {
        return running.get();
    }
}
