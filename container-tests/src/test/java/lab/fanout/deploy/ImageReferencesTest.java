package lab.fanout.deploy;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import lab.fanout.deploy.Manifests.Workload;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Check 3, images: the manifests name exactly the images scripts/build-images.sh produces (fanout-lab/*), with
 * the project version as tag, and every other image by a fixed tag. A kind node has only what
 * `kind load docker-image` put there; anything else it tries to pull. The overlays of the real cluster
 * (k8s/tests/cluster*) may also name the images scripts/cluster/images.sh builds from source (its Prometheus).
 */
class ImageReferencesTest {

    private static Set<String> built() {
        return listed("scripts/build-images.sh");
    }

    /** @return the images the script at {@code path} builds, from its {@code --list} */
    private static Set<String> listed(String path) {
        return new TreeSet<>(Repo.run(List.of("bash", path, "--list"), "bash is needed").lines().toList());
    }

    private static Set<String> imagesIn(String entryPoint, boolean ours) {
        Set<String> images = new TreeSet<>();
        for (Workload workload : Manifests.of(entryPoint).workloads()) {
            for (Map<String, Object> container : workload.containers()) {
                String image = Y.str(container, "image");
                if (image.startsWith("fanout-lab/") == ours) {
                    images.add(image);
                }
            }
        }
        return images;
    }

    @Test
    void manifestsUseOnlyImagesTheBuildProducesAndEveryOneOfThem() {
        Set<String> built = built();
        Set<String> builtForCluster = new TreeSet<>(built);
        builtForCluster.addAll(listed("scripts/cluster/images.sh"));
        Set<String> used = new TreeSet<>();
        for (String entryPoint : Repo.entryPoints()) {
            Set<String> ours = imagesIn(entryPoint, true);
            if (entryPoint.startsWith("k8s/tests/cluster")) {
                assertThat(builtForCluster).as("%s: its fanout-lab images are built by scripts/build-images.sh or"
                        + " scripts/cluster/images.sh", entryPoint).containsAll(ours);
            } else {
                assertThat(built).as("%s: its fanout-lab images are built by scripts/build-images.sh", entryPoint).containsAll(ours);
            }
            ours.retainAll(built);
            used.addAll(ours);
        }
        assertThat(used).as("every image scripts/build-images.sh builds is deployed by some entry point").isEqualTo(built);
    }

    @Test
    void serviceImagesAreTaggedWithTheProjectVersion() {
        for (String image : built()) {
            String module = image.substring("fanout-lab/".length(), image.indexOf(':'));
            if (Repo.path(module + "/pom.xml").toFile().isFile()) {
                assertThat(image).as("the image of module %s", module).isEqualTo("fanout-lab/" + module + ":" + Repo.VERSION);
            }
        }
    }

    @Test
    void everyImageHasAFixedTagAndOursAreNeverPulled() {
        for (String entryPoint : Repo.entryPoints()) {
            for (Workload workload : Manifests.of(entryPoint).workloads()) {
                for (Map<String, Object> container : workload.containers()) {
                    String image = Y.str(container, "image");
                    String tag = image.contains(":") ? image.substring(image.lastIndexOf(':') + 1) : "";
                    assertThat(tag).as("%s: %s has a fixed tag", workload, image).isNotBlank().isNotEqualTo("latest");
                    if (image.startsWith("fanout-lab/")) {
                        assertThat(Y.str(container, "imagePullPolicy")).as("%s: %s is loaded into kind, never pulled",
                                workload, image).isIn("IfNotPresent", "Never");
                    }
                }
            }
        }
    }
}
