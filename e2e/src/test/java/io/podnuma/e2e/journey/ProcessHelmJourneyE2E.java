package io.podnuma.e2e.journey;

import java.nio.file.Path;

/**
 * The user journey through {@code helm install} with the operator and the agent as processes of this machine beside a
 * kwok node (no real node, no images): fast, and run where the real node cannot be.
 */
class ProcessHelmJourneyE2E extends HelmJourneyScenario {

    @Override
    protected JourneyDriver driver(Path workDir) {
        return new ProcessJourneyDriver(workDir);
    }
}
