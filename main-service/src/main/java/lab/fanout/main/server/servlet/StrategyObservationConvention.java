package lab.fanout.main.server.servlet;

import io.micrometer.common.KeyValues;
import jakarta.servlet.http.HttpServletRequest;
import lab.fanout.main.server.StrategyTags;

import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.http.server.observation.DefaultServerRequestObservationConvention;
import org.springframework.http.server.observation.ServerRequestObservationContext;
import org.springframework.stereotype.Component;

/** Spring MVC's {@code http.server.requests} with the {@code strategy} and {@code width} tags ({@link StrategyTags}).
 */
@Component
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
class StrategyObservationConvention extends DefaultServerRequestObservationConvention {

    @Override
    public KeyValues getLowCardinalityKeyValues(ServerRequestObservationContext context) {
        HttpServletRequest request = context.getCarrier();
        return super.getLowCardinalityKeyValues(context).and(StrategyTags.tags(request::getParameter));
    }
}
