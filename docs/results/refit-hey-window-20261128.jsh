// Re-reads the hey CSVs of a ./lab bench result with today's HeyDriver (its window of 2xx answers) and prints, per
// results.csv row with errors, the row's raw file and the new window and 2xx rate: a one-off for runs measured
// before that fix (docs/results/scale-netty-forks5-20261128.md). Run: jshell --enable-preview
//   --class-path bench/target/lab.jar -R-Dresult=DIR docs/results/refit-hey-window-20261128.jsh
import java.nio.file.*;
import java.lang.reflect.*;
var dir = Path.of(System.getProperty("result"));
Method parse = Class.forName("lab.fanout.bench.driver.HeyDriver").getDeclaredMethod("parseCsv", Path.class, long.class, int.class);
parse.setAccessible(true);
try (var files = Files.list(dir.resolve("raw"))) {
    for (Path f : files.filter(p -> p.toString().contains("-rep") && p.toString().endsWith(".hey.csv")).sorted().toList()) {
        String name = f.getFileName().toString();
        int clients = Integer.parseInt(name.replaceAll(".*-c(\\d+)-.*", "$1"));
        long lines = Files.lines(f).count() - 1;
        var run = (lab.fanout.bench.model.DriverRun) parse.invoke(null, f, lines, clients);
        System.out.printf(java.util.Locale.ROOT, "%s,%.3f,%.3f%n", name, run.windowSeconds(), run.throughput());
    }
}
/exit
