package lab.fanout.main.client;

import io.micrometer.common.KeyValue;

import org.springframework.http.client.observation.ClientHttpObservationDocumentation;
import org.springframework.http.client.observation.ClientRequestObservationContext;
import org.springframework.http.client.observation.DefaultClientRequestObservationConvention;

/**
 * Sets {@code client_name} of {@code http.client.requests} to the downstream service's name
 * ({@code orders-service}, ...). Spring's default is the URL's host, {@code localhost} for all three when they run
 * on one machine, so the dashboard could not tell which downstream is slow.
 * <p>
 * Sets {@code uri} to the template's path alone: Spring's default keeps the query template, and the simulation
 * knobs a caller forwards ({@code ?latencyMs={latencyMs}&...}) would make a new series per combination of knobs
 * (times every histogram bucket). The path is what the dashboards group by.
 * <p>
 * Names the call's span for its downstream, {@code GET orders-service} (Spring's default, {@code http get}, is the same
 * for all three calls of a waterfall); three names, so low-cardinality as a span name must be.
 * <p>
 * The caller names the downstream in the request attribute {@link #DOWNSTREAM} (RestClient copies request attributes
 * to the {@code ClientHttpRequest}); a call without it keeps Spring's defaults.
 */
public class DownstreamObservationConvention extends DefaultClientRequestObservationConvention {

    /** Request attribute holding the {@link Downstream} a call goes to. */
    public static final String DOWNSTREAM = DownstreamObservationConvention.class.getName() + ".downstream";

    @Override
    protected KeyValue clientName(ClientRequestObservationContext context) {
        if (context.getCarrier() != null
                && context.getCarrier().getAttributes().get(DOWNSTREAM) instanceof Downstream downstream) {
            return KeyValue.of(ClientHttpObservationDocumentation.LowCardinalityKeyNames.CLIENT_NAME, downstream.serviceName());
        }
        return super.clientName(context);
    }

    @Override
    public String getContextualName(ClientRequestObservationContext context) {
        if (context.getCarrier() != null
                && context.getCarrier().getAttributes().get(DOWNSTREAM) instanceof Downstream downstream) {
            return spanName(context.getCarrier().getMethod().name(), downstream);
        }
        return super.getContextualName(context);
    }

    /** @return the span name of a call to {@code downstream}, e.g. {@code GET orders-service} */
    static String spanName(String method, Downstream downstream) {
        return method + " " + downstream.serviceName();
    }

    @Override
    protected KeyValue uri(ClientRequestObservationContext context) {
        return pathOnly(super.uri(context));
    }

    /** @return the {@code uri} tag without its query template */
    static KeyValue pathOnly(KeyValue uri) {
        int query = uri.getValue().indexOf('?');
        return query < 0 ? uri : KeyValue.of(uri.getKey(), uri.getValue().substring(0, query));
    }
}
