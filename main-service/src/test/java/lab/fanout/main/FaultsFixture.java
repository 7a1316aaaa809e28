package lab.fanout.main;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Executors;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import lab.fanout.main.client.Downstream;

import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;

/**
 * What the fault, leak and shutdown tests of main-service share: WireMock fakes of the three downstreams with tiny
 * catalogues (one order joined to one account and one product) and a caller on virtual threads; the thread
 * check is {@link LiveThreads}.
 */
public final class FaultsFixture {

    public static final String ENDPOINT = "/backoffice/api/v1/backoffice/orders";

    private FaultsFixture() {
    }

    /**
     * A fake downstream on a free port. Gzip off, as on the real downstreams: HttpClient asks for gzip, and WireMock's
     * gzip stream would hold a dribbled body back until its end.
     */
    public static WireMockExtension fakeDownstream() {
        return WireMockExtension.newInstance().options(wireMockConfig().dynamicPort().gzipDisabled(true)
                .containerThreads(WIREMOCK_THREADS)).failOnUnmatchedRequests(true).build();
    }

    /** Jetty threads per fake: enough for every call of the leak test's concurrent requests. */
    public static final int WIREMOCK_THREADS = 200;

    /** @return the catalogue path main-service calls on this downstream, written out */
    public static String path(Downstream downstream) {
        return switch (downstream) {
            case ORDERS -> "/order/api/v1/orders";
            case PRODUCTS -> "/product/api/v1/products";
            case ACCOUNTS -> "/account/api/v1/accounts";
        };
    }

    public static String catalogue(Downstream downstream) {
        return switch (downstream) {
            case ORDERS -> """
                    [{"id":"ord-1","accountId":"acc-1","status":"PLACED","placedAt":"2026-10-01T09:00:00Z",
                      "items":[{"productId":"prd-1","quantity":2}]}]""";
            case PRODUCTS -> """
                    [{"id":"prd-1","sku":"SKU-1","name":"Lamp","price":{"amount":12.50,"currency":"EUR"},"inStock":true}]""";
            case ACCOUNTS -> """
                    [{"id":"acc-1","name":"Ada","email":"ada@example.org","country":"GB","tier":"GOLD"}]""";
        };
    }

    /** Every request to the downstream's path answers its catalogue at once (more specific stubs may win). */
    public static void serveCatalogue(WireMockExtension server, Downstream downstream) {
        server.stubFor(get(urlPathEqualTo(path(downstream))).atPriority(10).willReturn(okJson(catalogue(downstream))));
    }

    /** HTTP/1.1, its work on virtual threads: no platform thread of the caller's own joins the thread counts. */
    public static HttpClient caller() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .executor(Executors.newVirtualThreadPerTaskExecutor()).build();
    }

    public static HttpResponse<String> call(HttpClient caller, int port, String query) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + ENDPOINT + "?" + query))
                .timeout(Duration.ofSeconds(30)).build();
        try {
            return caller.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
