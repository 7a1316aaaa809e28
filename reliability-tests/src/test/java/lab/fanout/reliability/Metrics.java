package lab.fanout.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** One service's {@code /actuator/prometheus} (on its management port), summed over the series of one metric whose labels contain a text. */
final class Metrics {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private Metrics() {
    }

    /**
     * @param service     the service's management base URL, e.g. {@code http://localhost:9082}
     * @param name        e.g. {@code downstream_requests_abandoned_total}
     * @param labelsMatch a text the series' label set must contain, e.g. {@code uri="/order/api/v1/orders"}; "" for all
     * @return the sum over the matching series, 0 if none
     */
    static double sum(URI service, String name, String labelsMatch) {
        String text;
        try {
            text = HTTP.send(HttpRequest.newBuilder(service.resolve("/actuator/prometheus")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        double sum = 0;
        for (String line : text.lines().toList()) {
            if (line.startsWith(name + "{") || line.startsWith(name + " ")) {
                int space = line.lastIndexOf(' ');
                if (line.substring(0, space).contains(labelsMatch)) {
                    sum += Double.parseDouble(line.substring(space + 1));
                }
            }
        }
        return sum;
    }
}
