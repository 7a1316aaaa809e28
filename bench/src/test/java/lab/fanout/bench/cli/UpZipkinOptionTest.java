package lab.fanout.bench.cli;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 42, item 2: {@code ./lab up --with-zipkin [--trace-sampling P]}; a bad value is refused before anything
 * starts (this runs in bench's folder, where no ./lab up runs).
 */
class UpZipkinOptionTest {

    @Test
    void helpSaysWhatSamplingOneIsForAndThatBenchmarksRunWithoutIt() {
        String[] help = LabCli.run("up", "--help");
        assertThat(help[1].replaceAll("\\s+", " ")).contains("--with-zipkin", "127.0.0.1:9411",
                "Sampling 1.0 records every request",
                "./lab bench refuses these services: it runs at sampling 0", "--trace-sampling=P");
    }

    @Test
    void traceSamplingWithoutZipkinIsRefusedWithTheFix() {
        String[] result = LabCli.run("up", "--trace-sampling", "0.5");
        assertThat(result[0]).isEqualTo("2");
        assertThat(result[1]).contains("--trace-sampling sets what the services report to Zipkin: add --with-zipkin");
    }

    @Test
    void aSamplingOutsideZeroToOneIsRefused() {
        String[] result = LabCli.run("up", "--with-zipkin", "--trace-sampling", "1.5");
        assertThat(result[0]).isEqualTo("2");
        assertThat(result[1]).contains("the sampling probability must be in 0.0..1.0, was 1.5");
    }
}
