package lab.fanout.common;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Marks a {@code @ConfigurationProperties} record whose values are experiment knobs: {@link KnobsInfoContributor}
 * shows it at {@code /actuator/info} under its prefix and logs it at start-up, so every figure can be traced to
 * the settings that produced it.
 */
public interface Knobs {

    /** @return the record's property prefix, e.g. {@code fanout} */
    default String prefix() {
        return getClass().getAnnotation(ConfigurationProperties.class).value();
    }
}
