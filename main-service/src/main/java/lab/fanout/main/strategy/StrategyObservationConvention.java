package lab.fanout.main.strategy;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.server.observation.DefaultServerRequestObservationConvention;
import org.springframework.http.server.observation.ServerRequestObservationContext;

/**
 * Adds {@code strategy} and {@code width} tags to {@code http.server.requests}: the {@code uri} tag is the path
 * pattern, so without them every strategy and width of {@code /backoffice/api/v1/backoffice/orders?concurrency=...}
 * would share one series.
 * <p>
 * The values are bounded: the strategy's canonical name ({@code seq} counts as {@code sequential}) and the width,
 * 1..{@value FanoutCalls#MAX_WIDTH} ({@code 1} when not given); {@value #NONE} for both when the request has no
 * {@code concurrency} parameter (actuator, 404s), {@value #INVALID} for anything else. The raw input never becomes a
 * tag value: one client sending random strings would otherwise create a series each.
 */
class StrategyObservationConvention extends DefaultServerRequestObservationConvention {

    static final String TAG = "strategy";
    static final String WIDTH_TAG = "width";
    static final String NONE = "none";
    static final String INVALID = "invalid";

    @Override
    public KeyValues getLowCardinalityKeyValues(ServerRequestObservationContext context) {
        HttpServletRequest request = context.getCarrier();
        return super.getLowCardinalityKeyValues(context)
                .and(KeyValue.of(TAG, strategy(request)), KeyValue.of(WIDTH_TAG, width(request)));
    }

    static String width(HttpServletRequest request) {
        String concurrency = request.getParameter("concurrency");
        if (concurrency == null || concurrency.isBlank()) {
            return NONE;
        }
        String value = request.getParameter(WIDTH_TAG);
        if (value == null) {
            return "1";
        }
        try {
            int width = Integer.parseInt(value.strip());
            return width >= 1 && width <= FanoutCalls.MAX_WIDTH ? String.valueOf(width) : INVALID;
        } catch (NumberFormatException e) {
            return INVALID;
        }
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
