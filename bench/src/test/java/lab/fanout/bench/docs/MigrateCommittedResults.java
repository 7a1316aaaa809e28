package lab.fanout.bench.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import lab.fanout.bench.model.CellResult;
import lab.fanout.bench.model.RunResult;
import lab.fanout.bench.report.ResultsCsv;
import lab.fanout.bench.report.ResultsJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Once (issue 71 item 1): each committed ./lab bench result's NAME.csv, read with the CSV read path of its day
 * ({@link ResultsCsv#read}), and its NAME.md's intro (command, machine, commit, load average per sitting) written as
 * NAME.json beside them. Run by {@code -Dtest=MigrateCommittedResults -Dmigrate=true}; deleted with that read path.
 */
@EnabledIfSystemProperty(named = "migrate", matches = "true")
class MigrateCommittedResults {

    private static final Pattern SITTING = Pattern.compile("Sitting \\d+, forks? (\\d+)(?:–(\\d+))?: "
            + "Command: `([^`]*)`; (Machine: .*); Load average \\(1/5/15 min\\) before: (.*), after: (.*)");
    private static final Pattern MACHINE = Pattern.compile("Machine: (.*), (\\d+) cores, (.*) RAM, (.*); JDK (.*);"
            + " git (.*)");
    private static final Pattern LOAD = Pattern.compile("Load average \\(1/5/15 min\\) before: (.*), after: (.*)");
    private static final String NOT_RECORDED = "not recorded";

    @Test
    void migrate() throws IOException {
        try (Stream<Path> files = Files.list(DocLinksTest.ROOT.resolve("docs/results"))) {
            for (Path csv : files.filter(f -> f.toString().endsWith(".csv")).sorted().toList()) {
                if (!Files.readString(csv).startsWith("block,")) {
                    continue;   // the overload preset's overload.csv: its own model (issue 71 item 2)
                }
                String name = csv.getFileName().toString().replaceFirst("\\.csv$", "");
                Path md = csv.resolveSibling(name + ".md");
                List<String> intro = Files.isRegularFile(md) ? Files.readAllLines(md).stream().skip(2)
                        .takeWhile(l -> !l.isBlank()).map(String::strip).toList() : List.of();
                List<CellResult> cells = ResultsCsv.read(csv);
                int forks = ResultsJson.forks(cells);
                String title = Files.isRegularFile(md) ? Files.readAllLines(md).getFirst() : "";
                String matrix = title.startsWith("# fanout-lab benchmark: ")
                        ? title.substring("# fanout-lab benchmark: ".length()) : NOT_RECORDED;
                String target = after(intro, "Target: ").replaceFirst("; driver: .*", "");
                String driver = after(intro, "Target: ").replaceFirst(".*; driver: (\\S+).*", "$1");
                RunResult run = new RunResult("2026-12-07 from " + name + ".csv and " + (intro.isEmpty()
                        ? "no markdown" : name + ".md's intro") + " by ResultsCsv.read: each repetition's latency"
                        + " histogram rebuilt from the CSV's five percentiles (source \"percentiles\"), its window"
                        + " from ok / throughput_req_per_s; not recorded: the run's main properties, JVM options,"
                        + " --aot, the lab's JVM flags, hey's and ab's versions" + (intro.isEmpty()
                        ? ", its command, commit and machine" : ""), sittings(intro, forks),
                        new RunResult.Knobs(matrix, target, driver, forks, Map.of(), List.of(), false, null), cells);
                ResultsJson.write(csv.getParent(), run);
                Files.move(csv.resolveSibling(ResultsJson.FILE), csv.resolveSibling(name + ".json"),
                        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                System.out.println(name + ".json: " + cells.size() + " cells, " + forks + " forks, "
                        + run.sittings().size() + " sittings");
            }
        }
    }

    private static List<RunResult.Sitting> sittings(List<String> intro, int forks) {
        List<RunResult.Sitting> sittings = new ArrayList<>();
        for (String line : intro) {
            Matcher m = SITTING.matcher(line);
            if (m.matches()) {
                int first = Integer.parseInt(m.group(1));
                sittings.add(sitting(first, m.group(2) == null ? first : Integer.parseInt(m.group(2)), m.group(3),
                        m.group(4), m.group(5), m.group(6)));
            }
        }
        if (sittings.isEmpty()) {
            Matcher load = LOAD.matcher(after(intro, "Load average (1/5/15 min) ").isEmpty() ? ""
                    : "Load average (1/5/15 min) " + after(intro, "Load average (1/5/15 min) "));
            boolean known = load.matches();
            sittings.add(sitting(1, forks, after(intro, "Command: ").replaceAll("^`|`$", ""),
                    "Machine: " + after(intro, "Machine: "), known ? load.group(1) : NOT_RECORDED,
                    known ? load.group(2) : NOT_RECORDED));
        }
        return sittings;
    }

    private static RunResult.Sitting sitting(int first, int last, String command, String machine, String before,
                                             String after) {
        Matcher m = MACHINE.matcher(machine);
        if (!m.matches()) {
            return new RunResult.Sitting(first, last, command.isEmpty() ? NOT_RECORDED : command, NOT_RECORDED,
                    new RunResult.Machine(NOT_RECORDED, 0, NOT_RECORDED, NOT_RECORDED, NOT_RECORDED, List.of(),
                            NOT_RECORDED, NOT_RECORDED, before, after));
        }
        return new RunResult.Sitting(first, last, command, m.group(6), new RunResult.Machine(m.group(1),
                Integer.parseInt(m.group(2)), m.group(3), m.group(4), m.group(5), List.of(), NOT_RECORDED,
                NOT_RECORDED, before, after));
    }

    private static String after(List<String> lines, String prefix) {
        return lines.stream().filter(l -> l.startsWith(prefix)).map(l -> l.substring(prefix.length())).findFirst()
                .orElse("");
    }
}
