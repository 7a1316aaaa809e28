package lab.fanout.main.server;

import lab.fanout.main.strategy.Hedging;

import org.springframework.core.convert.converter.Converter;
import org.springframework.stereotype.Component;

/** Binds {@code ?hedgeAfterMs=}; a bad value becomes a 400 naming what is valid ({@link Hedging#parse}). */
@Component
class HedgingConverter implements Converter<String, Hedging> {

    @Override
    public Hedging convert(String source) {
        return Hedging.parse(source);
    }
}
