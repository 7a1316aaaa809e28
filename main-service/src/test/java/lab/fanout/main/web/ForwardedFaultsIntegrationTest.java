package lab.fanout.main.web;

import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.matching.RequestPatternBuilder;
import lab.fanout.main.client.Downstream;
import lab.fanout.main.strategy.StrategyName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.http.HttpStatus;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static lab.fanout.main.client.Downstream.ACCOUNTS;
import static lab.fanout.main.client.Downstream.ORDERS;
import static lab.fanout.main.client.Downstream.PRODUCTS;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Faults asked of main-service: the fault knobs go to the {@code faultTarget} downstreams only, every call carries
 * its budget, and the failures they cause reach the caller as problems naming the service. The fakes answer each
 * knob the way the real downstreams do (see orders-service's DownstreamFaultsTest). Bad knobs are in
 * BackofficeIntegrationTest, a body dribbled past the deadline in DeadlineIntegrationTest.
 */
class ForwardedFaultsIntegrationTest extends FanoutIntegrationTest {

    @Test
    void faultKnobsReachOnlyTheTargetAndEveryCallCarriesItsBudget() {
        serveAll(0);

        assertThat(backoffice("concurrency=scopeFork&latencyMs=0&faultTarget=orders&errorRate=0&tailMs=0"))
                .hasStatusOk();

        orders.verify(1, catalogueCall(ORDERS).withQueryParam("latencyMs", equalTo("0"))
                .withQueryParam("errorRate", equalTo("0.0")).withQueryParam("tailMs", equalTo("0"))
                .withQueryParam("faultTarget", absent()));
        for (Downstream other : new Downstream[] {PRODUCTS, ACCOUNTS}) {
            server(other).verify(1, catalogueCall(other).withQueryParam("latencyMs", equalTo("0"))
                    .withQueryParam("errorRate", absent()).withQueryParam("tailMs", absent()));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"faultTarget=orders,accounts", "faultTarget=orders&faultTarget=accounts"})
    void targetsCanBeListedWithCommasOrRepeated(String targets) {
        serveAll(0);

        assertThat(backoffice("concurrency=sequential&errorRate=0&" + targets)).hasStatusOk();

        orders.verify(1, catalogueCall(ORDERS).withQueryParam("errorRate", equalTo("0.0")));
        accounts.verify(1, catalogueCall(ACCOUNTS).withQueryParam("errorRate", equalTo("0.0")));
        products.verify(1, catalogueCall(PRODUCTS).withQueryParam("errorRate", absent()));
    }

    /** As orders-service does for closeRate=1: the connection closes without a byte. */
    @ParameterizedTest
    @EnumSource(StrategyName.class)
    void closedConnectionIs502NamingTheService(StrategyName strategy) {
        serveAll(0);
        orders.stubFor(get(urlPathEqualTo(path(ORDERS))).withQueryParam("closeRate", equalTo("1.0"))
                .willReturn(aResponse().withFault(Fault.EMPTY_RESPONSE)));

        Answer answer = backoffice("concurrency=" + strategy + "&faultTarget=orders&closeRate=1");

        assertProblem(answer, HttpStatus.BAD_GATEWAY, "downstream-error", strategy, ORDERS);
        assertThat(answer).bodyJson().extractingPath("$.detail")
                .isEqualTo("orders-service closed the connection without a response");
    }

    private static RequestPatternBuilder catalogueCall(Downstream downstream) {
        return getRequestedFor(urlPathEqualTo(path(downstream))).withHeader("X-Fanout-Budget-Ms", matching("[0-9]{1,5}"));
    }
}
