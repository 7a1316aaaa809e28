package lab.fanout.main.client;

import java.net.URI;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.reactive.ClientHttpConnector;
import org.springframework.http.client.reactive.ClientHttpRequest;
import org.springframework.http.client.reactive.ClientHttpResponse;
import org.springframework.http.client.reactive.ClientHttpResponseDecorator;
import org.springframework.http.client.reactive.HttpComponentsClientHttpConnector;

/**
 * Spring's {@link HttpComponentsClientHttpConnector}, plus what it lacks: cancelling the {@code Mono} (or the body's
 * {@code Flux}) cancels the HTTP exchange. Spring's connector drops the {@code Future} that HttpClient's
 * {@code execute} returns, so a cancelled call would go on holding its pooled connection until the response came or
 * the response timeout fired; a body dribbled past the deadline would hold it for as long as the body lasts. With this
 * connector, {@code Mono.zip}'s cancellation of a failed call's siblings, and {@code Mono.timeout}'s at the deadline,
 * abort their exchanges: HttpClient closes the connection and returns it to the pool at once.
 * <p>
 * How the {@code Future} reaches us: Spring asks its context provider for each exchange's {@link HttpClientContext}
 * synchronously inside {@code connect} (spring-web 7.0), where {@link #CONNECTING} is bound; the context carries
 * the {@link Exchange}, and {@link ExchangeKeepingAsyncClient} stores the {@code Future} in it.
 */
final class CancellableConnector implements ClientHttpConnector {

    /** Context attribute holding the call's {@link Exchange}. */
    static final String EXCHANGE = CancellableConnector.class.getName() + ".exchange";
    private static final ScopedValue<Exchange> CONNECTING = ScopedValue.newInstance();

    private final ClientHttpConnector delegate;

    CancellableConnector(CloseableHttpAsyncClient client) {
        this.delegate = new HttpComponentsClientHttpConnector(new ExchangeKeepingAsyncClient(client),
                CancellableConnector::context);
    }

    @Override
    public Mono<ClientHttpResponse> connect(HttpMethod method, URI uri,
                                            Function<? super ClientHttpRequest, Mono<Void>> requestCallback) {
        return Mono.defer(() -> {
            Exchange exchange = new Exchange();
            return ScopedValue.where(CONNECTING, exchange).call(() -> delegate.connect(method, uri, requestCallback))
                    .doOnCancel(exchange::cancel)   // before the response's head has come
                    .map(response -> new CancellableResponse(response, exchange));
        });
    }

    private static HttpClientContext context(HttpMethod method, URI uri) {
        HttpClientContext context = HttpClientContext.create();
        // fails loudly, not with exchanges that silently cannot be cancelled, should Spring ever call this elsewhere
        context.setAttribute(EXCHANGE, CONNECTING.orElseThrow(() -> new IllegalStateException(
                "HttpComponentsClientHttpConnector asked for a context outside connect(): exchanges cannot be cancelled")));
        return context;
    }

    /** The response, whose body's cancellation (while it is still arriving) cancels the exchange. */
    private static final class CancellableResponse extends ClientHttpResponseDecorator {

        private final Exchange exchange;

        CancellableResponse(ClientHttpResponse delegate, Exchange exchange) {
            super(delegate);
            this.exchange = exchange;
        }

        @Override
        public Flux<DataBuffer> getBody() {
            return super.getBody().doOnCancel(exchange::cancel);
        }
    }

    /** One call's HTTP exchange, which may be cancelled before HttpClient has returned its {@code Future}. */
    static final class Exchange {

        private static final Future<?> CANCELLED = new java.util.concurrent.CompletableFuture<>();

        private final AtomicReference<@Nullable Future<?>> future = new AtomicReference<>();

        void set(Future<?> exchange) {
            if (future.getAndSet(exchange) == CANCELLED) {
                exchange.cancel(true);
            }
        }

        /** Aborts the exchange: HttpClient closes its connection (a half-read response cannot be reused). */
        void cancel() {
            Future<?> exchange = future.getAndSet(CANCELLED);
            if (exchange != null && exchange != CANCELLED) {
                exchange.cancel(true);
            }
        }
    }
}
