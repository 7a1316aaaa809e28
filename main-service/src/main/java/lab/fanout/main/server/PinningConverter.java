package lab.fanout.main.server;

import lab.fanout.main.strategy.Pinning;

import org.springframework.core.convert.converter.Converter;
import org.springframework.stereotype.Component;

/** Binds {@code ?pinning=}; a bad value becomes a 400 naming the valid ones ({@link Pinning#fromParameter}). */
@Component
class PinningConverter implements Converter<String, Pinning> {

    @Override
    public Pinning convert(String source) {
        return Pinning.fromParameter(source.strip());
    }
}
