package lab.fanout.main.client;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FanoutExceptionTest {

    // gh-15 item 3: an Error is not a downstream's failure, and no 5xx body names a Java type
    @Test
    void anErrorPropagatesInsteadOfBecomingA502() {
        OutOfMemoryError error = new OutOfMemoryError("Java heap space");
        assertThatThrownBy(() -> FanoutException.from(error)).isSameAs(error);
    }

    @Test
    void anyOtherFailureIsA502WithAFixedDetail() {
        FanoutException e = FanoutException.from(new IllegalStateException("Endpoint not acquired"));
        assertThat(e.kind()).isEqualTo(FanoutException.Kind.DOWNSTREAM_ERROR);
        assertThat(e.detail()).isEqualTo("A downstream call failed");
    }

    /** gh-23 item 3: only the JVM's refusal of a thread is a 503 thread-limit; any other OutOfMemoryError stays one. */
    @Test
    void aRefusedThreadIs503ThreadLimitNamingTheCauseAndTheCall() {
        OutOfMemoryError refused = new OutOfMemoryError("unable to create native thread: possibly out of memory or"
                + " process/resource limits reached");

        FanoutException problem = FanoutException.threadLimit(refused, Downstream.PRODUCTS);

        assertThat(problem.kind()).isEqualTo(FanoutException.Kind.THREAD_LIMIT);
        assertThat(problem.kind().status()).isEqualTo(503);
        assertThat(problem.kind().type()).hasToString("https://fanout-lab.dev/problems/thread-limit");
        assertThat(problem.detail()).contains("products-service", "unable to create native thread");
        assertThat(problem.properties()).containsEntry("downstream", "products-service");
        assertThat(problem).hasCause(refused);
    }

    @Test
    void aFullHeapIsRethrown() {
        OutOfMemoryError heap = new OutOfMemoryError("Java heap space");

        assertThatThrownBy(() -> FanoutException.threadLimit(heap, Downstream.ORDERS)).isSameAs(heap);
        assertThatThrownBy(() -> FanoutException.threadLimit(new OutOfMemoryError(), Downstream.ORDERS))
                .isInstanceOf(OutOfMemoryError.class);
    }
}
