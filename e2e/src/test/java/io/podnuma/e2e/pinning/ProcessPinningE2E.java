package io.podnuma.e2e.pinning;

import io.podnuma.controlplane.ControlPlane;
import java.nio.file.Path;

/** The pinning scenario with {@code node-agent run} as a process, as the DaemonSet runs it. */
class ProcessPinningE2E extends PinningScenario {

    @Override
    protected PinningDriver driver(ControlPlane cp, Path workDir) {
        return new ProcessDriver(cp, workDir);
    }
}
