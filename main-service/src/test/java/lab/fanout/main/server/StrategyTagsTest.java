package lab.fanout.main.server;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.mock.web.MockHttpServletRequest;

import static org.assertj.core.api.Assertions.assertThat;

class StrategyTagsTest {

    @ParameterizedTest(name = "concurrency={0} -> strategy={1}")
    @CsvSource(nullValues = "null", value = {
            "scopeFork, scopeFork",
            "seq, sequential",                // an alias counts as its strategy
            "' VIRTUALTHREADPERTASK ', completableFutureWithVirtualTaskExecutor",
            "null, none",                      // actuator, 404s
            "'', none",
            "fast, invalid",                   // never the raw input: one series per random string otherwise
            "'<script>', invalid"})
    void tagsTheCanonicalStrategyNameOrABoundedFallback(String parameter, String tag) {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/backoffice/api/v1/backoffice/orders");
        if (parameter != null) {
            request.setParameter("concurrency", parameter);
        }
        assertThat(StrategyTags.strategy(request::getParameter)).isEqualTo(tag);
    }

    @ParameterizedTest(name = "concurrency={0}, width={1} -> width={2}")
    @CsvSource(nullValues = "null", value = {
            "scopeFork, 4, 4",
            "scopeFork, null, 1",             // the default
            "scopeFork, 32, 32",
            "scopeFork, 33, invalid",         // out of range: answered 400, never its own series
            "scopeFork, 0, invalid",
            "scopeFork, wide, invalid",
            "null, 4, none"})                 // not a fan-out request
    void tagsTheWidthOrABoundedFallback(String concurrency, String width, String tag) {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/backoffice/api/v1/backoffice/orders");
        if (concurrency != null) {
            request.setParameter("concurrency", concurrency);
        }
        if (width != null) {
            request.setParameter("width", width);
        }
        assertThat(StrategyTags.width(request::getParameter)).isEqualTo(tag);
    }
}
