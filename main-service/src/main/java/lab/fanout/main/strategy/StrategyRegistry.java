package lab.fanout.main.strategy;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.springframework.stereotype.Component;

/**
 * Every {@link FanoutStrategy} bean by its {@link StrategyName}. Checks at start-up that each name has exactly one
 * strategy, so a missing strategy stops the application instead of failing a request.
 */
@Component
public class StrategyRegistry {

    private final Map<StrategyName, FanoutStrategy> byName = new EnumMap<>(StrategyName.class);

    StrategyRegistry(List<FanoutStrategy> strategies) {
        for (FanoutStrategy strategy : strategies) {
            if (byName.putIfAbsent(strategy.name(), strategy) != null) {
                throw new IllegalStateException("two strategies are named " + strategy.name());
            }
        }
        List<StrategyName> missing = Arrays.stream(StrategyName.values()).filter(n -> !byName.containsKey(n)).toList();
        if (!missing.isEmpty()) {
            throw new IllegalStateException("no strategy bean for " + missing);
        }
    }

    public FanoutStrategy get(StrategyName name) {
        return byName.get(name);
    }
}
