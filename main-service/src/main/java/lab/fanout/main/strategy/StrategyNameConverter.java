package lab.fanout.main.strategy;

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
