package lab.fanout.main.config;

import io.micrometer.common.KeyValue;

import lab.fanout.main.client.Downstream;

import org.springframework.http.client.observation.ClientHttpObservationDocumentation;
import org.springframework.http.client.observation.ClientRequestObservationContext;
import org.springframework.http.client.observation.DefaultClientRequestObservationConvention;

/**
 * Sets {@code client_name} of {@code http.client.requests} to the downstream service's name
 * ({@code orders-service}, ...). Spring's default is the URL's host, {@code localhost} for all three when they run
 * on one machine, so the dashboard could not tell which downstream is slow.
 * <p>
 * The caller names the downstream in the request attribute {@link #DOWNSTREAM} (RestClient copies request attributes
 * to the {@code ClientHttpRequest}); a call without it keeps Spring's default.
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
}
