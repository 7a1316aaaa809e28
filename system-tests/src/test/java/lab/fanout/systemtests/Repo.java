package lab.fanout.systemtests;

import java.nio.file.Files;
import java.nio.file.Path;

/** Paths in the checkout these tests run in. */
final class Repo {

    /** The checkout's root: the first folder upward from the working directory that holds grafana/dashboards. */
    static final Path ROOT = findRoot();
    static final Path GRAFANA = ROOT.resolve("grafana");
    static final Path DASHBOARDS = GRAFANA.resolve("dashboards");

    private Repo() {
    }

    private static Path findRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("grafana/dashboards"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no grafana/dashboards above " + Path.of("").toAbsolutePath());
    }
}
