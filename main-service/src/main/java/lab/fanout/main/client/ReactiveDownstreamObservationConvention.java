package lab.fanout.main.client;

import io.micrometer.common.KeyValue;

import org.springframework.web.reactive.function.client.ClientHttpObservationDocumentation;
import org.springframework.web.reactive.function.client.ClientRequestObservationContext;
import org.springframework.web.reactive.function.client.DefaultClientRequestObservationConvention;

/**
 * {@link DownstreamObservationConvention} for WebClient, which has its own convention type: the same
 * {@code client_name} (the downstream's service name, from the request attribute
 * {@link DownstreamObservationConvention#DOWNSTREAM}) and the same path-only {@code uri}.
 */
public class ReactiveDownstreamObservationConvention extends DefaultClientRequestObservationConvention {

    @Override
    protected KeyValue clientName(ClientRequestObservationContext context) {
        if (context.getRequest() != null
                && context.getRequest().attributes().get(DownstreamObservationConvention.DOWNSTREAM) instanceof Downstream downstream) {
            return KeyValue.of(ClientHttpObservationDocumentation.LowCardinalityKeyNames.CLIENT_NAME, downstream.serviceName());
        }
        return super.clientName(context);
    }

    @Override
    protected KeyValue uri(ClientRequestObservationContext context) {
        return DownstreamObservationConvention.pathOnly(super.uri(context));
    }
}
