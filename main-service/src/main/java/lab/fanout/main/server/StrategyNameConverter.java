package lab.fanout.main.server;

import lab.fanout.main.strategy.StrategyName;

import org.springframework.core.convert.converter.Converter;
import org.springframework.stereotype.Component;

/** Binds {@code ?concurrency=} by the seed's names and aliases; Boot registers Converter beans with Spring MVC. */
@Component
class StrategyNameConverter implements Converter<String, StrategyName> {

    @Override
    public StrategyName convert(String source) {
        return StrategyName.fromParameter(source.strip());
    }
}
