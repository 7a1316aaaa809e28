package lab.fanout.bench.system;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/** Small GETs against actuator endpoints: status and scraping, never the load itself (that is hey's or ab's job). */
public final class Http {

    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private Http() {
    }

    /** @return the body of a 200 answer within {@code timeout}, else empty (not listening, other status, timeout) */
    public static Optional<String> get(URI uri, Duration timeout) {
        try {
            HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(uri).timeout(timeout).build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? Optional.of(r.body()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** @param managementUrl a service's actuator base URL (its management port) */
    public static boolean ready(URI managementUrl) {
        return get(managementUrl.resolve("/actuator/health/readiness"), Duration.ofSeconds(2)).isPresent();
    }
}
