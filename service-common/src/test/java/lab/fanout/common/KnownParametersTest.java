package lab.fanout.common;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SequencedSet;
import java.util.stream.Stream;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import org.junit.jupiter.api.Test;

import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The names read from a handler's binding, and the 400 for any other (gh-23 item 6; through MVC: main-service). */
class KnownParametersTest {

    private static final List<String> KNOBS = List.of("latencyMs", "jitterMs", "errorRate", "errorStatus",
            "tailRate", "tailMs", "closeRate", "dribbleMs", "faultTarget");

    @Test
    void knowsEachRequestParamTheSimulationKnobsAndUnannotatedSimpleParameters() {
        assertThat(KnownParameters.of(handler("fanout"))).hasValueSatisfying(known -> assertThat(known)
                .containsExactlyElementsOf(concat(List.of("concurrency"), KNOBS,
                        List.of("hedgeAfterMs", "slice", "width"))));
    }

    /** The list is the resolver's: every name it gives is one the Simulation record forwards, and no other. */
    @Test
    void theSimulationKnobsAreTheNamesTheRecordBindsAndForwards() {
        Simulation every = new Simulation(1, 2, 0.5, 503, 0.1, 3, 0.2, 4, List.of("orders"));
        assertThat(SimulationBinding.parameterNames()).containsExactlyElementsOf(KNOBS)
                .containsExactlyElementsOf(every.asQueryParameters().keySet());
    }

    @Test
    void aHandlerThatCanBindAnyNameIsNotChecked() {
        assertThat(KnownParameters.of(handler("anyName"))).isEmpty();
        assertThat(KnownParameters.of(handler("modelAttribute"))).isEmpty();
        assertThat(KnownParameters.of(handler("unannotatedObject"))).isEmpty();
    }

    @Test
    void refusesAnUnknownNameNamingItTheNameItDiffersFromInCaseAndTheKnownOnes() {
        SequencedSet<String> known = KnownParameters.of(handler("fanout")).orElseThrow();

        assertThatThrownBy(() -> KnownParameters.refuseUnknown(List.of("concurrency", "latencyms", "widht"), known))
                .isInstanceOfSatisfying(BadParameterException.class, e -> {
                    assertThat(e.getStatusCode().value()).isEqualTo(400);
                    assertThat(e.getBody().getType()).isEqualTo(Problems.BAD_PARAMETER);
                    assertThat(e.getBody().getDetail()).isEqualTo("latencyms: not a parameter of this endpoint"
                            + " (did you mean latencyMs?); widht: not a parameter of this endpoint; it takes "
                            + known);
                });
    }

    @Test
    void letsKnownNamesThrough() {
        SequencedSet<String> known = KnownParameters.of(handler("fanout")).orElseThrow();

        KnownParameters.refuseUnknown(List.of("concurrency", "latencyMs", "faultTarget", "width"), known);
        KnownParameters.refuseUnknown(List.of(), known);
    }

    private static List<String> concat(List<String> first, List<String> second, List<String> third) {
        return Stream.of(first, second, third).flatMap(List::stream).toList();
    }

    private static Method handler(String name) {
        return Arrays.stream(Handlers.class.getDeclaredMethods()).filter(m -> m.getName().equals(name)).findFirst()
                .orElseThrow();
    }

    /** Handler signatures as the lab's controllers write them; never called. */
    @SuppressWarnings("unused")
    private static final class Handlers {

        void fanout(@RequestParam String concurrency, @Valid Simulation simulation,
                    @RequestParam(name = "hedgeAfterMs", required = false) String hedging,
                    @RequestParam("slice") int index, int width, @PathVariable String id,
                    @RequestHeader(name = "X-Budget", required = false) Long budgetMs, HttpServletRequest request) {
        }

        void anyName(@RequestParam Map<String, String> all) {
        }

        void modelAttribute(@ModelAttribute Simulation simulation) {
        }

        void unannotatedObject(Slice slice) {
        }
    }
}
