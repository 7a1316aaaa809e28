package lab.fanout.main.strategy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.mock.web.MockHttpServletRequest;

import static org.assertj.core.api.Assertions.assertThat;

class StrategyObservationConventionTest {

    @ParameterizedTest(name = "concurrency={0} -> strategy={1}")
    @CsvSource(nullValues = "null", value = {
            "scopeFork, scopeFork",
            "seq, sequential",                // an alias counts as its strategy
            "' VIRTUAL ', completableFutureWithVirtualTaskExecutor",
            "null, none",                      // actuator, 404s
            "'', none",
            "fast, invalid",                   // never the raw input: one series per random string otherwise
            "'<script>', invalid"})
    void tagsTheCanonicalStrategyNameOrABoundedFallback(String parameter, String tag) {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/backoffice/api/v1/backoffice/orders");
        if (parameter != null) {
            request.setParameter("concurrency", parameter);
        }
        assertThat(StrategyObservationConvention.strategy(request)).isEqualTo(tag);
    }
}
