package lab.fanout.main.web;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import lab.fanout.main.client.Downstream;
import lab.fanout.main.client.DownstreamClient;
import lab.fanout.main.client.RequestContext;
import lab.fanout.main.strategy.StrategyName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.LoggerFactory;
import zipkin2.reporter.brave.AsyncZipkinSpanHandler;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.test.web.servlet.client.assertj.RestTestClientResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The request context at each downstream call, per strategy (docs/strategies.md, "Which context reaches the calls"):
 * a request arrives with a known W3C {@code traceparent} and {@code X-Request-Id}; every call the downstreams receive
 * must carry a {@code traceparent} of the same trace with a span id of its own (a client span per call), and the
 * call's DEBUG line ({@link DownstreamClient}), written on the thread that makes the call, shows which of the MDC key,
 * the {@code ScopedValue} and the plain {@code ThreadLocal} bound by the controller reached it.
 */
class ContextPropagationIntegrationTest extends FanoutIntegrationTest {

    private static final String PARENT_SPAN_ID = "00f067aa0ba902b7";
    private static final Pattern TRACEPARENT = Pattern.compile("00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]");

    private final Logger callLog = (Logger) LoggerFactory.getLogger(DownstreamClient.class);
    private final ListAppender<ILoggingEvent> callLines = new ListAppender<>();
    private String traceId;
    private String requestId;

    @BeforeEach
    void captureCallLines() {
        callLines.start();
        callLog.addAppender(callLines);
        callLog.setLevel(Level.DEBUG);
        traceId = UUID.randomUUID().toString().replace("-", "");
        requestId = "test-" + UUID.randomUUID();
    }

    @AfterEach
    void stopCapturing() {
        callLog.detachAppender(callLines);
        callLog.setLevel(null);
    }

    @ParameterizedTest
    @EnumSource(StrategyName.class)
    void everyCallCarriesTheInboundTraceWithASpanOfItsOwn(StrategyName strategy) {
        serveAll(0);

        assertThat(tracedRequest("concurrency=" + strategy + "&width=2")).hasStatusOk();

        assertCallsCarryTheTrace(6);
    }

    /** Hedged copies too: each a client span of its own in the request's trace, whichever thread sends it. */
    @ParameterizedTest
    @EnumSource(value = StrategyName.class, mode = EnumSource.Mode.EXCLUDE,
            names = {"SEQUENTIAL", "COMPLETABLE_FUTURE"})   // no hedging; the common pool's one worker sends no copy
    void everyHedgedCopyCarriesTheInboundTrace(StrategyName strategy) {
        serveAll(300);

        assertThat(tracedRequest("concurrency=" + strategy + "&hedgeAfterMs=50")).hasStatusOk();

        assertCallsCarryTheTrace(6);   // three calls, each with its copy sent after 50 ms
    }

    /**
     * The table of docs/strategies.md: the trace id and the MDC key reach every call of every strategy; the
     * ScopedValue only the calls made on the request thread or on threads of a scope opened inside its binding; the
     * plain ThreadLocal only the calls made on the request thread.
     */
    @ParameterizedTest
    @EnumSource(StrategyName.class)
    void theCallsSeeTheContextTheTableSays(StrategyName strategy) {
        serveAll(0);

        assertThat(tracedRequest("concurrency=" + strategy + "&width=2")).hasStatusOk();

        List<ILoggingEvent> lines = callLines();
        assertThat(lines).hasSize(6);
        for (ILoggingEvent line : lines) {
            assertThat(line.getMDCPropertyMap()).as("MDC at " + line.getFormattedMessage())
                    .containsEntry("traceId", traceId).containsEntry(RequestContext.MDC_KEY, requestId);
            String seen = line.getFormattedMessage();
            assertThat(seen.contains("scopedValue=" + requestId)).as("ScopedValue at " + seen)
                    .isEqualTo(scopedValueReaches(strategy));
            assertThat(seen.contains("threadLocal=" + requestId)).as("ThreadLocal at " + seen)
                    .isEqualTo(strategy == StrategyName.SEQUENTIAL);
        }
    }

    /** The tests set no Zipkin endpoint: then nothing reports to Zipkin (ZipkinExportSwitch), sampled or not. */
    @Test
    void reportsNoSpansToZipkinWithoutAnEndpoint(@Autowired ApplicationContext context) {
        assertThat(context.getBeanNamesForType(AsyncZipkinSpanHandler.class)).isEmpty();
    }

    /** Inherited where the call runs on the binding thread itself, or in a scope forked inside the binding. */
    static boolean scopedValueReaches(StrategyName strategy) {
        return strategy == StrategyName.SEQUENTIAL || strategy == StrategyName.SCOPE_FORK;
    }

    private Answer tracedRequest(String query) {
        long start = System.nanoTime();
        var result = client.get().uri(ENDPOINT + "?" + query)
                .header("traceparent", "00-" + traceId + "-" + PARENT_SPAN_ID + "-01")
                .header(Backoffice.REQUEST_ID_HEADER, requestId)
                .exchange().returnResult();
        return new Answer(RestTestClientResponse.from(result), Duration.ofNanos(System.nanoTime() - start));
    }

    /** Asserts what the downstreams received: {@code calls} requests, each of this trace, no two of one span. */
    private void assertCallsCarryTheTrace(int calls) {
        List<String> spanIds = new ArrayList<>();
        for (Downstream downstream : Downstream.values()) {
            for (ServeEvent event : server(downstream).getAllServeEvents()) {
                String traceparent = event.getRequest().getHeader("traceparent");
                assertThat(traceparent).as("traceparent of a call to " + downstream).isNotNull().matches(TRACEPARENT);
                Matcher parsed = TRACEPARENT.matcher(traceparent);
                assertThat(parsed.matches()).isTrue();
                assertThat(parsed.group(1)).as("trace id of a call to " + downstream).isEqualTo(traceId);
                spanIds.add(parsed.group(2));
            }
        }
        assertThat(spanIds).as("span ids of the calls").hasSize(calls).doesNotHaveDuplicates()
                .doesNotContain(PARENT_SPAN_ID);
    }

    private List<ILoggingEvent> callLines() {
        return callLines.list.stream().filter(line -> line.getFormattedMessage().startsWith("GET ")).toList();
    }
}
