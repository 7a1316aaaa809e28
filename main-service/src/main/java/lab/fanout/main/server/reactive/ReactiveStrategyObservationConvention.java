package lab.fanout.main.server.reactive;

import io.micrometer.common.KeyValues;
import lab.fanout.main.server.StrategyTags;

import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.http.server.reactive.observation.DefaultServerRequestObservationConvention;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;
import org.springframework.stereotype.Component;

/**
 * WebFlux's {@code http.server.requests} with the same {@code strategy} and {@code width} tags as Spring MVC's
 * ({@link StrategyTags}), so that dashboards and the bench read every server alike.
 */
@Component
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
class ReactiveStrategyObservationConvention extends DefaultServerRequestObservationConvention {

    @Override
    public KeyValues getLowCardinalityKeyValues(ServerRequestObservationContext context) {
        var query = context.getCarrier().getQueryParams();
        return super.getLowCardinalityKeyValues(context).and(StrategyTags.tags(query::getFirst));
    }
}
