package lab.fanout.main.strategy;

import io.micrometer.common.KeyValues;

import org.springframework.http.server.reactive.observation.DefaultServerRequestObservationConvention;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;

/**
 * WebFlux's {@code http.server.requests} with the same {@code strategy} and {@code width} tags as Spring MVC's
 * ({@link StrategyObservationConvention}), so that dashboards and the bench read every server alike.
 */
class ReactiveStrategyObservationConvention extends DefaultServerRequestObservationConvention {

    @Override
    public KeyValues getLowCardinalityKeyValues(ServerRequestObservationContext context) {
        var query = context.getCarrier().getQueryParams();
        return super.getLowCardinalityKeyValues(context).and(StrategyObservationConvention.tags(query::getFirst));
    }
}
