package lab.fanout.reliability;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import lab.fanout.bench.model.ServiceDefaults;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Garbage at every service (the four packaged jars): unknown paths, bad methods, malformed and huge query values,
 * bad percent-encoding, bad and huge headers, a broken request line. Every answer is a 4xx (two protocol cases
 * aside) with an application/problem+json body, never a 500, an HTML page or a stack trace; that includes what
 * Tomcat rejects before Spring MVC sees it (lab.fanout.common.ProblemErrorReportValve). The public port has no
 * actuator at all; the management port offers nothing but health, info and prometheus, none of which writes state.
 */
class ServicesGarbageInputIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * A garbage request, {@code {path}} and {@code {query}} standing for a path and a query the service answers 200 to.
     *
     * @param statuses        the statuses it may get
     * @param downstreamsOnly garbage in a header only the downstream services read
     */
    record Garbage(String name, String request, Set<Integer> statuses, boolean downstreamsOnly) {

        Garbage(String name, String request, Set<Integer> statuses) {
            this(name, request, statuses, false);
        }

        String forService(String service) {
            return request.replace("{path}", RunningServices.path(service))
                    .replace("{query}", RunningServices.validQuery(service));
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private static final String HEAD = " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n";

    static final List<Garbage> GARBAGE = List.of(
            new Garbage("unknown path", "GET /no/such/thing" + HEAD + "\r\n", Set.of(404)),
            new Garbage("unknown method", "FOO {path}?{query}" + HEAD + "\r\n", Set.of(405)),
            new Garbage("POST", "POST {path}?{query}" + HEAD + "Content-Length: 2\r\n\r\n{}", Set.of(405)),
            new Garbage("DELETE", "DELETE {path}?{query}" + HEAD + "\r\n", Set.of(405)),
            new Garbage("TRACE", "TRACE {path}?{query}" + HEAD + "\r\n", Set.of(405)),
            new Garbage("method not a token", "G(T {path}?{query}" + HEAD + "\r\n", Set.of(400)),
            new Garbage("binary request line", "\u0016\u0003\u0001\u0000\u00a5garbage\r\n\r\n", Set.of(400)),
            new Garbage("malformed number", "GET {path}?{query}&latencyMs=abc" + HEAD + "\r\n", Set.of(400)),
            new Garbage("number beyond long", "GET {path}?{query}&latencyMs=99999999999999999999999" + HEAD + "\r\n", Set.of(400)),
            new Garbage("number beyond limit", "GET {path}?{query}&latencyMs=3600000" + HEAD + "\r\n", Set.of(400)),
            new Garbage("probability beyond 1", "GET {path}?{query}&errorRate=7" + HEAD + "\r\n", Set.of(400)),
            new Garbage("NUL in value", "GET {path}?{query}&jitterMs=%00" + HEAD + "\r\n", Set.of(400)),
            new Garbage("7 KB query value", "GET {path}?{query}&tailMs=" + "9".repeat(7000) + HEAD + "\r\n", Set.of(400)),
            new Garbage("100 KB query", "GET {path}?{query}&tailMs=" + "9".repeat(100_000) + HEAD + "\r\n", Set.of(400)),
            new Garbage("bad percent-encoding in value", "GET {path}?{query}&latencyMs=%zz" + HEAD + "\r\n", Set.of(400)),
            new Garbage("bad percent-encoding in name", "GET {path}?{query}&%zz=1" + HEAD + "\r\n", Set.of(400)),
            new Garbage("bad percent-encoding in path", "GET /%zz" + HEAD + "\r\n", Set.of(400)),
            new Garbage("invalid UTF-8 in path", "GET /%c3%28" + HEAD + "\r\n", Set.of(400)),
            new Garbage("encoded slash", "GET /order%2Fapi" + HEAD + "\r\n", Set.of(400)),
            new Garbage("dot-dot path", "GET /../../etc/passwd" + HEAD + "\r\n", Set.of(400)),
            new Garbage("backslash in path", "GET /a\\b" + HEAD + "\r\n", Set.of(400)),
            new Garbage("header without colon", "GET {path}?{query}" + HEAD + "NoColonHere\r\n\r\n", Set.of(400)),
            new Garbage("control character in header", "GET {path}?{query}" + HEAD + "X-A\u0001b: 1\r\n\r\n", Set.of(400)),
            new Garbage("20 KB header", "GET {path}?{query}" + HEAD + "X-Big: " + "a".repeat(20_000) + "\r\n\r\n", Set.of(400)),
            new Garbage("missing Host", "GET {path}?{query} HTTP/1.1\r\nConnection: close\r\n\r\n", Set.of(400)),
            new Garbage("bad Host", "GET {path}?{query} HTTP/1.1\r\nHost: a b:c\r\nConnection: close\r\n\r\n", Set.of(400)),
            new Garbage("Content-Length not a number", "GET {path}?{query}" + HEAD + "Content-Length: lots\r\n\r\n", Set.of(400)),
            new Garbage("Accept not a media type", "GET {path}?{query}" + HEAD + "Accept: ///\r\n\r\n", Set.of(400)),
            new Garbage("Accept XML only", "GET {path}?{query}" + HEAD + "Accept: application/xml\r\n\r\n", Set.of(406)),
            new Garbage("budget header not a number", "GET {path}?{query}" + HEAD + "X-Fanout-Budget-Ms: soon\r\n\r\n",
                    Set.of(400), true),
            // RFC 9112 names these two answers: 501 for a transfer coding the server does not know, 505 for a version
            new Garbage("unknown transfer coding", "GET {path}?{query}" + HEAD + "Transfer-Encoding: zip\r\n\r\n", Set.of(501)),
            new Garbage("HTTP/9.9", "GET {path}?{query} HTTP/9.9\r\nHost: localhost\r\nConnection: close\r\n\r\n", Set.of(505)),
            // the actuator is on the management port only: its scrape costs CPU, its info shows the knobs
            new Garbage("actuator info", "GET /actuator/info" + HEAD + "\r\n", Set.of(404)),
            new Garbage("actuator prometheus", "GET /actuator/prometheus" + HEAD + "\r\n", Set.of(404)));

    /** Sent to the management port: it exposes health, info and prometheus only, nothing that writes or dumps. */
    static final List<Garbage> MANAGEMENT_GARBAGE = List.of(
            new Garbage("actuator env", "GET /actuator/env" + HEAD + "\r\n", Set.of(404)),
            new Garbage("actuator heapdump", "GET /actuator/heapdump" + HEAD + "\r\n", Set.of(404)),
            new Garbage("actuator loggers write", "POST /actuator/loggers/ROOT" + HEAD
                    + "Content-Type: application/json\r\nContent-Length: 27\r\n\r\n{\"configuredLevel\":\"TRACE\"}", Set.of(404)),
            new Garbage("actuator shutdown", "POST /actuator/shutdown" + HEAD + "Content-Length: 0\r\n\r\n", Set.of(404)),
            new Garbage("write to health", "POST /actuator/health" + HEAD + "Content-Length: 0\r\n\r\n", Set.of(405)));

    static Stream<Arguments> garbageAtEveryService() {
        List<Arguments> all = new ArrayList<>();
        for (String service : ServiceDefaults.SERVICES) {
            for (Garbage garbage : GARBAGE) {
                if (!garbage.downstreamsOnly() || !service.equals(ServiceDefaults.MAIN)) {
                    all.add(Arguments.of(service, garbage));
                }
            }
        }
        return all.stream();
    }

    static Stream<Arguments> managementGarbageAtEveryService() {
        return ServiceDefaults.SERVICES.stream().flatMap(s -> MANAGEMENT_GARBAGE.stream().map(g -> Arguments.of(s, g)));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource
    void garbageAtEveryService(String service, Garbage garbage) {
        assertProblem(RunningServices.get().ports().get(service), service, garbage);
    }

    @ParameterizedTest(name = "{0} management port: {1}")
    @MethodSource
    void managementGarbageAtEveryService(String service, Garbage garbage) {
        assertProblem(RunningServices.get().managementPorts().get(service), service, garbage);
    }

    private static void assertProblem(int port, String service, Garbage garbage) {
        RawHttp.Response response = RawHttp.exchange(port, garbage.forService(service));

        assertThat(response.status()).as("status").isIn(garbage.statuses());
        assertThat(response.contentType()).as("content type").startsWith("application/problem+json");
        JsonNode problem = JSON.readTree(response.body());
        assertThat(problem.path("status").asInt()).as("problem status").isEqualTo(response.status());
        assertThat(problem.path("title").asString()).as("problem title").isNotBlank();
        assertThat(response.body()).as("no stack trace, class name or HTML")
                .doesNotContain("Exception", "\tat ", "java.", "org.apache", "<html");
    }

    @ParameterizedTest
    @MethodSource("services")
    void actuatorOffersHealthInfoAndPrometheusOnly(String service) {
        RawHttp.Response response = RawHttp.exchange(RunningServices.get().managementPorts().get(service),
                "GET /actuator" + HEAD + "\r\n");

        assertThat(response.status()).isEqualTo(200);
        assertThat(JSON.readTree(response.body()).path("_links").propertyNames())
                .containsExactlyInAnyOrder("self", "health", "health-path", "info", "prometheus");
    }

    static List<String> services() {
        return ServiceDefaults.SERVICES;
    }
}
