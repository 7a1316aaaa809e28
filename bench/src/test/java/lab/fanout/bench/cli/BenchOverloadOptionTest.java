package lab.fanout.bench.cli;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code ./lab bench --preset overload}: cells of its own, so only the options that fit them. */
class BenchOverloadOptionTest {

    @Test
    void theDryRunListsTheCellsOfTheProfileAsked() {
        String[] all = LabCli.run("bench", "--preset", "overload", "--dry-run");
        assertThat(all[0]).isEqualTo("0");
        assertThat(all[1]).contains("240 cells x 1 fork, about ").contains("virtual admission=off reactive 10x")
                .contains("platform admission=adaptive thread-per-task 2x")
                .contains("netty admission=fixed reactive 5x").contains("platform admission=fixed-200 bounded pool 10x")
                .contains("virtual admission=littles-law reactive spike");
        String[] platform = LabCli.run("bench", "--preset", "overload", "--profile", "platform", "--dry-run");
        assertThat(platform[1]).contains("80 cells").doesNotContain("virtual admission").doesNotContain("netty");
        String[] netty = LabCli.run("bench", "--preset", "overload", "--profile", "netty", "--forks", "3", "--dry-run");
        assertThat(netty[0]).isEqualTo("0");
        assertThat(netty[1]).contains("80 cells x 3 forks").contains("bound 50 req/s").doesNotContain("platform");
    }

    @Test
    void optionsOfAMatrixAreRefusedWithWhatItTakes() {
        String[] rate = LabCli.run("bench", "--preset", "overload", "--rate", "100", "--dry-run");
        assertThat(rate[0]).isNotEqualTo("0");
        assertThat(rate[1]).contains("--preset overload takes only --forks, --profile, --out and --dry-run");
        String[] unknown = LabCli.run("bench", "--preset", "overlaod", "--dry-run");
        assertThat(unknown[1]).contains("overload").contains("faults");
    }
}
