package lab.fanout.main.client;

import java.net.URI;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.http.HttpMethod;
import org.springframework.http.client.observation.ClientRequestObservationContext;
import org.springframework.mock.http.client.MockClientHttpRequest;

import static org.assertj.core.api.Assertions.assertThat;

class DownstreamObservationConventionTest {

    // gh-15 item 7: the knobs a caller forwards must not become part of the uri tag (one series per combination)
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "http://localhost:8082/order/api/v1/orders, /order/api/v1/orders",
            "http://localhost:8082/order/api/v1/orders?latencyMs={latencyMs}, /order/api/v1/orders",
            "http://orders-service:8082/order/api/v1/orders?latencyMs={latencyMs}&jitterMs={jitterMs}, /order/api/v1/orders"})
    void uriTagIsTheTemplatesPathWithoutItsQuery(String template, String tag) {
        var context = new ClientRequestObservationContext(new MockClientHttpRequest(HttpMethod.GET, URI.create("http://localhost/")));
        context.setUriTemplate(template);
        assertThat(new DownstreamObservationConvention().getLowCardinalityKeyValues(context).stream()
                .filter(kv -> kv.getKey().equals("uri")).findFirst().orElseThrow().getValue()).isEqualTo(tag);
    }
}
