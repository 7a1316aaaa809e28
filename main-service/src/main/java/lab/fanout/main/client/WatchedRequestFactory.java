package lab.fanout.main.client;

import java.net.URI;

import org.apache.hc.client5.http.classic.HttpClient;
import org.apache.hc.core5.concurrent.Cancellable;
import org.apache.hc.core5.http.ClassicHttpRequest;

import org.springframework.http.HttpMethod;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;

/** Spring's request factory for Apache HttpClient, handing each request to its call's {@link Deadline}, whose alarm may cancel it. */
public class WatchedRequestFactory extends HttpComponentsClientHttpRequestFactory {

    public WatchedRequestFactory(HttpClient client) {
        super(client);
    }

    @Override
    protected ClassicHttpRequest createHttpUriRequest(HttpMethod method, URI uri) {
        ClassicHttpRequest request = super.createHttpUriRequest(method, uri);
        if (request instanceof Cancellable cancellable) {
            Deadline.register(cancellable);
        }
        return request;
    }
}
