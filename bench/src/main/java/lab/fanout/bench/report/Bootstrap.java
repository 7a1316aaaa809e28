package lab.fanout.bench.report;

import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.DoubleStream;

import org.apache.commons.statistics.descriptive.Median;
import org.apache.commons.statistics.descriptive.Quantile;

/**
 * The ratio of two approaches' medians, B ÷ A, with its 95 % confidence interval by hierarchical bootstrap, as
 * Kalibera and Jones recommend for forks × repetitions ("Rigorous benchmarking in reasonable time", ISMM 2013):
 * each resample draws a side's forks (JVM starts) with replacement, then within each drawn fork its repetitions
 * with replacement, and takes the median of all the values drawn (Saravanan et al. 2020, "Application of the
 * hierarchical bootstrap to multi-level data in neuroscience", NBDC 3(5)); the interval is the 2.5th and 97.5th
 * percentiles of the resampled ratios (Efron and Tibshirani 1993, An Introduction to the Bootstrap, §13.3). A fixed
 * seed makes the interval the same on every run. Against a band of practical equivalence (±{@code bandPct} %):
 * "decided" where the interval lies wholly outside the band, "~" wholly inside, "unclear" where it straddles an edge.
 *
 * @param resamples how many bootstrap resamples (10,000 by default; at least 1,000)
 * @param bandPct   the band of practical equivalence, % either side of a ratio of 1 (3 by default; above 0)
 */
public record Bootstrap(int resamples, double bandPct) {

    public static final Bootstrap DEFAULT = new Bootstrap(10_000, 3);
    /** The resamples' seed, fixed so that the same results give the same interval. */
    public static final long SEED = 20_130_619L;

    /** @throws IllegalArgumentException naming the valid range */
    public Bootstrap {
        if (resamples < 1_000 || !(bandPct > 0 && bandPct < 100)) {
            throw new IllegalArgumentException("the bootstrap needs at least 1000 resamples (not " + resamples
                    + ") and an equivalence band above 0 and below 100 % (not " + bandPct + ")");
        }
    }

    /** B's median ÷ A's and its interval; {@code word} is "decided", "~" or "unclear". */
    public record Ratio(double ratio, double low, double high, String word) {
        /** @return e.g. {@code 1.204 [1.151, 1.262] decided} */
        public String text() {
            return String.format(Locale.ROOT, "%.3f [%.3f, %.3f] %s", ratio, low, high, word);
        }
    }

    /**
     * @param a each of A's forks, the values of its repetitions (a figure's unit; NaN skipped by the caller)
     * @param b each of B's
     * @return the ratio of the medians of all of B's values to all of A's, its interval and word; null when a side
     *         has no value or A's median is 0 (no ratio)
     */
    public Ratio ratio(List<List<Double>> a, List<List<Double>> b) {
        double[] pooledA = a.stream().flatMap(List::stream).mapToDouble(Double::doubleValue).toArray();
        double[] pooledB = b.stream().flatMap(List::stream).mapToDouble(Double::doubleValue).toArray();
        if (pooledA.length == 0 || pooledB.length == 0 || Median.withDefaults().evaluate(pooledA) == 0) {
            return null;
        }
        SplittableRandom random = new SplittableRandom(SEED);
        double[] ratios = new double[resamples];
        for (int i = 0; i < resamples; i++) {
            ratios[i] = resampledMedian(b, random) / resampledMedian(a, random);
        }
        double[] ends = Quantile.withDefaults().evaluate(ratios, 0.025, 0.975);
        double band = bandPct / 100;
        String word = ends[0] > 1 + band || ends[1] < 1 - band ? "decided"
                : ends[0] >= 1 - band && ends[1] <= 1 + band ? "~" : "unclear";
        return new Ratio(Median.withDefaults().evaluate(pooledB) / Median.withDefaults().evaluate(pooledA),
                ends[0], ends[1], word);
    }

    /** @return the median of one hierarchical resample: forks with replacement, then repetitions within each */
    private static double resampledMedian(List<List<Double>> forks, SplittableRandom random) {
        DoubleStream.Builder drawn = DoubleStream.builder();
        for (int f = 0; f < forks.size(); f++) {
            List<Double> fork = forks.get(random.nextInt(forks.size()));
            for (int r = 0; r < fork.size(); r++) {
                drawn.add(fork.get(random.nextInt(fork.size())));
            }
        }
        return Median.withDefaults().evaluate(drawn.build().toArray());
    }
}
