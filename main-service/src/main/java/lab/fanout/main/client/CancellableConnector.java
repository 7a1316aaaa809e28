package lab.fanout.main.client;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import org.apache.hc.client5.http.async.AsyncExecCallback;
import org.apache.hc.client5.http.async.AsyncExecChain;
import org.apache.hc.client5.http.async.AsyncExecChainHandler;
import org.apache.hc.client5.http.impl.ChainElement;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClientBuilder;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.nio.AsyncEntityProducer;
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
 * {@code Flux}) aborts the HTTP exchange, closing its connection and returning it to the pool at once. With it,
 * {@code Mono.zip}'s cancellation of a failed call's siblings, and {@code Mono.timeout}'s at the deadline, free the
 * connections of the calls they abandon.
 * <p>
 * Why not the {@code Future} HttpClient's {@code execute} returns: Spring's connector drops it, and cancelling it
 * (with hard cancellation on) did not abort an exchange on a pooled, already open connection in HttpClient 5.6.4: the
 * exchange went on holding the connection until its response came (checked by hand and by
 * DownstreamFailureIntegrationTest). So the exchange is aborted the way HttpClient aborts a failed one: its exec
 * runtime's {@code discardEndpoint()}, reached through an exec-chain handler ({@link #abortable}) placed just before
 * the exchange is sent, when its connection is leased and open. A call cancelled earlier (waiting for a connection)
 * is aborted as it reaches that handler.
 * <p>
 * The call's {@link Exchange} reaches that handler in its {@link HttpClientContext}: Spring asks its context provider
 * for the context synchronously inside {@code connect} (spring-web 7.0), where {@link #CONNECTING} is bound.
 */
final class CancellableConnector implements ClientHttpConnector {

    private static final String EXCHANGE = CancellableConnector.class.getName() + ".exchange";
    private static final ScopedValue<Exchange> CONNECTING = ScopedValue.newInstance();

    private final ClientHttpConnector delegate;

    /** @param client built with {@link #abortable}, else cancelling a call frees nothing */
    CancellableConnector(CloseableHttpAsyncClient client) {
        this.delegate = new HttpComponentsClientHttpConnector(client, CancellableConnector::context);
    }

    /** @return {@code builder} with the exec-chain handler through which a cancelled call aborts its exchange */
    static HttpAsyncClientBuilder abortable(HttpAsyncClientBuilder builder) {
        return builder.addExecInterceptorBefore(ChainElement.MAIN_TRANSPORT.name(), "fanout-abort", new Abort());
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

    /** The response, whose body's cancellation (while it is still arriving) aborts the exchange. */
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

    /** Registers each exchange's abort with its call's {@link Exchange}, or aborts it if the call is already cancelled. */
    private static final class Abort implements AsyncExecChainHandler {

        @Override
        public void execute(HttpRequest request, AsyncEntityProducer entityProducer, AsyncExecChain.Scope scope,
                            AsyncExecChain chain, AsyncExecCallback callback) throws HttpException, IOException {
            if (scope.clientContext.getAttribute(EXCHANGE) instanceof Exchange exchange
                    && !exchange.abortWith(scope.execRuntime::discardEndpoint)) {
                callback.failed(new InterruptedIOException("cancelled before it was sent"));
                return;
            }
            chain.proceed(request, entityProducer, scope, callback);
        }
    }

    /** One call's HTTP exchange, which may be cancelled before it can be aborted: then it is aborted as it registers. */
    private static final class Exchange {

        private static final Runnable CANCELLED = () -> { };

        private final AtomicReference<@Nullable Runnable> abort = new AtomicReference<>();

        /** @return false if the call was cancelled already: then {@code discard} has run */
        boolean abortWith(Runnable discard) {
            if (abort.compareAndExchange(null, discard) == CANCELLED) {
                discard.run();
                return false;
            }
            return true;
        }

        /** Closes the exchange's connection and returns it to the pool (a half-read response cannot be reused). */
        void cancel() {
            Runnable discard = abort.getAndSet(CANCELLED);
            if (discard != null && discard != CANCELLED) {
                discard.run();
            }
        }
    }
}
