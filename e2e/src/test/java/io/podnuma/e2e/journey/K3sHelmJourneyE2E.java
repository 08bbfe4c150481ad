package io.podnuma.e2e.journey;

import java.nio.file.Path;

/**
 * The user journey through {@code helm install} on k3s in a container (Testcontainers), where a Docker engine exists;
 * skipped with the reason printed elsewhere.
 */
class K3sHelmJourneyE2E extends HelmJourneyScenario {

    @Override
    protected JourneyDriver driver(Path workDir) {
        return new K3sJourneyDriver(workDir);
    }
}
