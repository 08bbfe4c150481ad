package io.podnuma.agent.cli;

import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.sysfs.SysfsException;
import io.podnuma.agent.sysfs.SysfsTopologyReader;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The {@code --sysfs DIR} option of every command that looks at a machine. */
final class SysfsOption {

    @Option(
            names = "--sysfs",
            paramLabel = "DIR",
            defaultValue = "/sys",
            description = "sysfs root of the machine (default: ${DEFAULT-VALUE}).")
    Path root;

    CpuTopology read() throws SysfsException {
        return new SysfsTopologyReader(root).read();
    }
}
