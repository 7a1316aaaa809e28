package lab.fanout.main.server;

import lab.fanout.main.strategy.Recycler;

import org.springframework.core.convert.converter.Converter;
import org.springframework.stereotype.Component;

/** Binds {@code ?recycler=}; a bad value becomes a 400 naming the valid ones ({@link Recycler#fromParameter}). */
@Component
class RecyclerConverter implements Converter<String, Recycler> {

    @Override
    public Recycler convert(String source) {
        return Recycler.fromParameter(source.strip());
    }
}
