package lab.fanout.main.strategy;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.server.observation.DefaultServerRequestObservationConvention;
import org.springframework.http.server.observation.ServerRequestObservationContext;

/**
 * Adds a {@code strategy} tag to {@code http.server.requests}: the {@code uri} tag is the path pattern, so without it
 * every strategy of {@code /backoffice/api/v1/backoffice/orders?concurrency=...} would share one series.
 * <p>
 * The value is bounded: the strategy's canonical name ({@code seq} counts as {@code sequential}), {@value #NONE}
 * when the request has no {@code concurrency} parameter (actuator, 404s), {@value #INVALID} for anything else. The
 * raw input never becomes a tag value: one client sending random strings would otherwise create a series each.
 */
class StrategyObservationConvention extends DefaultServerRequestObservationConvention {

    static final String TAG = "strategy";
    static final String NONE = "none";
    static final String INVALID = "invalid";

    @Override
    public KeyValues getLowCardinalityKeyValues(ServerRequestObservationContext context) {
        return super.getLowCardinalityKeyValues(context).and(KeyValue.of(TAG, strategy(context.getCarrier())));
    }

    static String strategy(HttpServletRequest request) {
        String value = request.getParameter("concurrency");
        if (value == null || value.isBlank()) {
            return NONE;
        }
        try {
            return StrategyName.fromParameter(value.strip()).toString();
        } catch (IllegalArgumentException e) {
            return INVALID;
        }
    }
}
