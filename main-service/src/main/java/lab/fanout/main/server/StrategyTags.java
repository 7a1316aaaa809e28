package lab.fanout.main.server;

import java.util.function.UnaryOperator;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import lab.fanout.main.strategy.FanoutCalls;
import lab.fanout.main.strategy.StrategyName;
import org.jspecify.annotations.Nullable;

/**
 * The {@code strategy} and {@code width} tags each server adds to {@code http.server.requests}: the {@code uri} tag is
 * the path pattern, so without them every strategy and width of
 * {@code /backoffice/api/v1/backoffice/orders?concurrency=...} would share one series.
 * <p>
 * The values are bounded: the strategy's canonical name ({@code seq} counts as {@code sequential}) and the width,
 * 1..{@value FanoutCalls#MAX_WIDTH} ({@code 1} when not given); {@value #NONE} for both when the request has no
 * {@code concurrency} parameter (actuator, 404s), {@value #INVALID} for anything else. The raw input never becomes a
 * tag value: one client sending random strings would otherwise create a series each.
 */
public final class StrategyTags {

    public static final String TAG = "strategy";
    public static final String WIDTH_TAG = "width";
    public static final String NONE = "none";
    public static final String INVALID = "invalid";

    private StrategyTags() {
    }

    /** @param parameter a query parameter's first value by name, or null */
    public static KeyValues tags(UnaryOperator<@Nullable String> parameter) {
        return KeyValues.of(KeyValue.of(TAG, strategy(parameter)), KeyValue.of(WIDTH_TAG, width(parameter)));
    }

    static String width(UnaryOperator<@Nullable String> parameter) {
        String concurrency = parameter.apply("concurrency");
        if (concurrency == null || concurrency.isBlank()) {
            return NONE;
        }
        String value = parameter.apply(WIDTH_TAG);
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

    static String strategy(UnaryOperator<@Nullable String> parameter) {
        String value = parameter.apply("concurrency");
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
