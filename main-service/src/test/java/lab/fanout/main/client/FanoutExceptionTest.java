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
        assertThat(e.getBody().getDetail()).isEqualTo("A downstream call failed");
    }
}
