package lab.fanout.deploy;

import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;

/**
 * ImagesRunTogetherTest is skipped without a Docker engine, as a laptop without Docker must still pass. This test
 * makes that skip visible, and a failure in CI (CI=true), where the images must be checked.
 */
class DockerOnCiTest {

    @Test
    void aDockerEngineAnswersSoThatTheImagesAreChecked() {
        if (!DockerClientFactory.instance().isDockerAvailable()) {
            Repo.missing("no Docker engine answers, so ImagesRunTogetherTest is skipped: start one "
                    + "(scripts/docker-engine.sh start; where no image can be pulled, docker/make-base-image.sh "
                    + "too) and run again");
        }
    }
}
