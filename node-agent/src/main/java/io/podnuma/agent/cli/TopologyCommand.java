package io.podnuma.agent.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.picture.CpuMarks;
import io.podnuma.agent.engine.picture.MachinePicture;
import io.podnuma.agent.sysfs.SysfsException;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code topology}: discovers the machine from a sysfs root and prints it. */
@Command(
        name = "topology",
        mixinStandardHelpOptions = true,
        description = "Print the machine's CPUs, sockets, NUMA nodes, L3 groups, memory and hugepages.")
final class TopologyCommand implements Callable<Integer> {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Mixin
    private SysfsOption sysfs;

    @Mixin
    private OutputOption output;

    @Mixin
    private SvgOption svg;

    @Override
    public Integer call() throws JsonProcessingException {
        CpuTopology topo;
        try {
            topo = sysfs.read();
        } catch (SysfsException e) {
            spec.commandLine().getErr().println("error: cannot read the machine topology: " + e.getMessage());
            return 1;
        }
        if (!svg.write(
                () -> MachinePicture.svg("Machine " + sysfs.root, topo, CpuMarks.none(topo)),
                spec.commandLine().getErr())) {
            return 1;
        }
        output.print(spec.commandLine().getOut(), () -> TopologyView.toJson(topo), () -> TopologyView.toTable(topo));
        return 0;
    }
}
