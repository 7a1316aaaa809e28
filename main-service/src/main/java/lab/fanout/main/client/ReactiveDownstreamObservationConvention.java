package lab.fanout.main.client;

import io.micrometer.common.KeyValue;

import org.springframework.web.reactive.function.client.ClientHttpObservationDocumentation;
import org.springframework.web.reactive.function.client.ClientRequestObservationContext;
import org.springframework.web.reactive.function.client.DefaultClientRequestObservationConvention;

/**
 * {@link DownstreamObservationConvention} for WebClient, which has its own convention type: the same
 * {@code client_name} (the downstream's service name, from the request attribute
 * {@link DownstreamObservationConvention#DOWNSTREAM}), the same path-only {@code uri} and the same span name.
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
    public String getContextualName(ClientRequestObservationContext context) {
        if (context.getRequest() != null && context.getRequest().attributes()
                .get(DownstreamObservationConvention.DOWNSTREAM) instanceof Downstream downstream) {
            return DownstreamObservationConvention.spanName(context.getRequest().method().name(), downstream);
        }
        return super.getContextualName(context);
    }

    @Override
    protected KeyValue uri(ClientRequestObservationContext context) {
        return DownstreamObservationConvention.pathOnly(super.uri(context));
    }
}
