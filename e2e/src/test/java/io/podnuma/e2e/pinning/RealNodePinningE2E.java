package io.podnuma.e2e.pinning;

import io.podnuma.controlplane.ControlPlane;
import java.nio.file.Path;

/** The pinning journey on the real worker node: the operator rolls the agent out as a DaemonSet pod. */
class RealNodePinningE2E extends PinningScenario {

    @Override
    protected PinningDriver driver(ControlPlane cp, Path workDir) {
        return new RealNodeDriver(workDir);
    }
}
