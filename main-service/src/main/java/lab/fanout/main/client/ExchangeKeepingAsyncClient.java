package lab.fanout.main.client;

import java.io.IOException;
import java.util.concurrent.Future;

import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.function.Supplier;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.nio.AsyncPushConsumer;
import org.apache.hc.core5.http.nio.AsyncRequestProducer;
import org.apache.hc.core5.http.nio.AsyncResponseConsumer;
import org.apache.hc.core5.http.nio.HandlerFactory;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.reactor.IOReactorStatus;
import org.apache.hc.core5.util.TimeValue;

/**
 * The async client, handing each exchange's {@code Future} to the {@link CancellableConnector.Exchange} its context
 * carries, so that a cancelled call can abort it. Everything else is the wrapped client's.
 */
final class ExchangeKeepingAsyncClient extends CloseableHttpAsyncClient {

    private final CloseableHttpAsyncClient client;

    ExchangeKeepingAsyncClient(CloseableHttpAsyncClient client) {
        this.client = client;
    }

    @Override
    protected <T> Future<T> doExecute(HttpHost target, AsyncRequestProducer requestProducer,
                                      AsyncResponseConsumer<T> responseConsumer,
                                      HandlerFactory<AsyncPushConsumer> pushHandlerFactory, HttpContext context,
                                      FutureCallback<T> callback) {
        Future<T> future = client.execute(target, requestProducer, responseConsumer, pushHandlerFactory, context, callback);
        if (context != null && context.getAttribute(CancellableConnector.EXCHANGE) instanceof CancellableConnector.Exchange exchange) {
            exchange.set(future);
        }
        return future;
    }

    @Override
    public void start() {
        client.start();
    }

    @Override
    public IOReactorStatus getStatus() {
        return client.getStatus();
    }

    @Override
    public void awaitShutdown(TimeValue waitTime) throws InterruptedException {
        client.awaitShutdown(waitTime);
    }

    @Override
    public void initiateShutdown() {
        client.initiateShutdown();
    }

    @Override
    @SuppressWarnings("deprecation")
    public void register(String hostname, String uriPattern, Supplier<AsyncPushConsumer> supplier) {
        client.register(hostname, uriPattern, supplier);
    }

    @Override
    public void close(CloseMode closeMode) {
        client.close(closeMode);
    }

    @Override
    public void close() throws IOException {
        client.close();
    }
}
