package io.podnuma.e2e.pinning;

import io.podnuma.controlplane.ControlPlane;
import java.nio.file.Path;

/** The pinning scenario with the agent in the test JVM. */
class InProcessPinningE2E extends PinningScenario {

    @Override
    protected PinningDriver driver(ControlPlane cp, Path workDir) {
        return new InProcessDriver(cp, workDir);
    }
}
