package io.podnuma.agent.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.sysfs.SysfsException;
import io.podnuma.agent.sysfs.SysfsTopologyReader;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code topology}: discovers the machine from a sysfs root and prints it. */
@Command(
        name = "topology",
        mixinStandardHelpOptions = true,
        description = "Print the machine's CPUs, sockets, NUMA nodes, L3 groups, memory and hugepages.")
final class TopologyCommand implements Callable<Integer> {

    enum Output {
        table,
        json
    }

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--sysfs",
            paramLabel = "DIR",
            defaultValue = "/sys",
            description = "sysfs root to read (default: ${DEFAULT-VALUE}).")
    private Path sysfs;

    @Option(
            names = "--output",
            paramLabel = "FORMAT",
            defaultValue = "table",
            description = "table or json (default: ${DEFAULT-VALUE}); the JSON schema is documented in the README.")
    private Output output;

    @Override
    public Integer call() throws JsonProcessingException {
        CpuTopology topo;
        try {
            topo = new SysfsTopologyReader(sysfs).read();
        } catch (SysfsException e) {
            spec.commandLine().getErr().println("error: cannot read the machine topology: " + e.getMessage());
            return 1;
        }
        var out = spec.commandLine().getOut();
        if (output == Output.json) {
            ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
            out.println(mapper.writeValueAsString(TopologyView.toJson(topo)));
        } else {
            out.print(TopologyView.toTable(topo));
        }
        out.flush();
        return 0;
    }
}
