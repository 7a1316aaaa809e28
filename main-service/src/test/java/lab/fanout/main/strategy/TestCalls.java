package lab.fanout.main.strategy;

import lab.fanout.main.client.Downstream;

/** Shorthands for tests that make a request's calls by hand. */
final class TestCalls {

    private TestCalls() {
    }

    /** @return the request's first call to {@code downstream} (its only one at width 1) */
    static FanoutCall<?> call(FanoutCalls calls, Downstream downstream) {
        return calls.all().stream().filter(call -> call.downstream() == downstream).findFirst().orElseThrow();
    }
}
