package io.podnuma.e2e.journey;

import java.nio.file.Path;

/** The user journey through {@code helm install} on the real worker node (kubelet + containerd). */
class RealNodeHelmJourneyE2E extends HelmJourneyScenario {

    @Override
    protected JourneyDriver driver(Path workDir) {
        return new RealNodeJourneyDriver();
    }
}
