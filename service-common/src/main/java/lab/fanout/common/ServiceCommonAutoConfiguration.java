package lab.fanout.common;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.context.annotation.Import;

/**
 * Applies to every fan-out-lab service: bad input becomes 400 problem+json ({@link ProblemAdvice}), and the knobs
 * show at {@code /actuator/info} ({@link KnobsInfoContributor}).
 */
@AutoConfiguration
@Import({ProblemAdvice.class, KnobsInfoContributor.class})
public class ServiceCommonAutoConfiguration {
}
