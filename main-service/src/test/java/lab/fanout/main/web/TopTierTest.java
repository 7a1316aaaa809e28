package lab.fanout.main.web;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** TopTier reads HotSpot's code list: a method never called has no C2 code, a hot one gets it. */
class TopTierTest {

    private static long cold(long x) {
        return x * 31 + 7;
    }

    private static long hot(long x) {
        return x * 31 + 7;
    }

    @Test
    void aMethodNeverCalledIsNotAtTheTopTierAndAHotOneGetsThere() throws InterruptedException {
        assertThat(TopTier.compiled(TopTierTest.class, "hot")).as("hot, before its calls").isFalse();
        long sum = 0;
        // C2 compiles it in the background once it is hot: calls, then a pause for the compiler, at most 10 s
        for (int round = 0; round < 500 && !TopTier.compiled(TopTierTest.class, "hot"); round++) {
            for (int i = 0; i < 20_000; i++) {
                sum += hot(i);
            }
            Thread.sleep(20);
        }
        assertThat(TopTier.compiled(TopTierTest.class, "hot")).as("hot, after %d", sum).isTrue();
        assertThat(TopTier.compiled(TopTierTest.class, "cold")).as("cold, never called").isFalse();
        assertThat(cold(1)).isEqualTo(38);
    }
}
