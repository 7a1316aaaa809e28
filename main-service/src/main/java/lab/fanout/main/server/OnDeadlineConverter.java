package lab.fanout.main.server;

import lab.fanout.main.strategy.OnDeadline;

import org.springframework.core.convert.converter.Converter;
import org.springframework.stereotype.Component;

/** Binds {@code ?onDeadline=}; a bad value becomes a 400 naming the valid ones ({@link OnDeadline#fromParameter}). */
@Component
class OnDeadlineConverter implements Converter<String, OnDeadline> {

    @Override
    public OnDeadline convert(String source) {
        return OnDeadline.fromParameter(source.strip());
    }
}
