package io.podnuma.agent.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.node.AdmissionResult;
import io.podnuma.agent.engine.node.NodeAllocator;
import io.podnuma.agent.engine.pod.Pod;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.pods.PodMapper;
import io.podnuma.agent.policy.NodeConfigMapper;
import io.podnuma.agent.sysfs.SysfsException;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code simulate}: admits and deletes pods from manifests on a machine and policy, and prints the result. */
@Command(
        name = "simulate",
        mixinStandardHelpOptions = true,
        description = "Run the allocation engine over pod manifests (applied in file-name order) and print each"
                + " pod's and container's CPUs, NUMA nodes, memory and assignment kind, rejections, and the node"
                + " shared pool.")
final class SimulateCommand implements Callable<Integer> {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Mixin
    private SysfsOption sysfs;

    @Option(names = "--policy", paramLabel = "FILE", required = true, description = "NumaResourcePolicy YAML.")
    private Path policyFile;

    @Option(
            names = "--pods",
            paramLabel = "DIR",
            required = true,
            description = "Directory of Pod manifests (*.yaml, *.yml), applied in file-name order; a pod annotated"
                    + " podnuma.io/simulate: delete is removed instead.")
    private Path podsDir;

    @Option(
            names = "--devices",
            paramLabel = "FILE",
            description = "The node's devices (YAML: resource -> device id -> NUMA nodes, e.g. example.com/accel:"
                    + " {accel-0: [1]}); a pod annotated " + SimulationDevices.GIVEN_ANNOTATION + ":"
                    + " '<container>=<id>[,<id>...][;...]' holds those the kubelet gave it, and its CPUs and memory go"
                    + " where they are.")
    private Path devicesFile;

    @Mixin
    private OutputOption output;

    @Mixin
    private SvgOption svg;

    /** What happened to one manifest. */
    record Step(String file, String action, String namespace, String name, String outcome) {}

    /** A refused pod and why. */
    record Rejection(String file, String namespace, String name, String reason, String message) {}

    /** Everything simulate prints. */
    record Result(
            String policy,
            CpuTopology topology,
            NodeAllocator allocator,
            NodeState state,
            List<Step> steps,
            List<Rejection> rejections) {}

    @Override
    public Integer call() throws JsonProcessingException {
        var err = spec.commandLine().getErr();
        Result result;
        try {
            result = run();
        } catch (SimulationInputs.InputException e) {
            err.println("error: " + e.getMessage());
            return 1;
        }
        if (result == null) {
            return 1;
        }
        Result printed = result;
        if (!svg.write(() -> SimulateView.toSvg(printed, sysfs.root.toString()), err)) {
            return 1;
        }
        output.print(
                spec.commandLine().getOut(), () -> SimulateView.toJson(printed), () -> SimulateView.toTable(printed));
        return 0;
    }

    private Result run() {
        var err = spec.commandLine().getErr();
        CpuTopology topo;
        try {
            topo = sysfs.read();
        } catch (SysfsException e) {
            err.println("error: cannot read the machine topology from " + sysfs.root + ": " + e.getMessage());
            return null;
        }
        NumaResourcePolicy policy = SimulationInputs.policy(policyFile);
        NodeConfigMapper.Mapped mapped;
        NodeAllocator allocator;
        try {
            mapped = NodeConfigMapper.map(policy.getSpec());
            allocator = NodeAllocator.create(topo, mapped.config());
        } catch (IllegalArgumentException e) {
            throw new SimulationInputs.InputException(
                    policyFile + ": the policy does not fit machine " + sysfs.root + ": " + e.getMessage());
        }
        SimulationDevices devices =
                devicesFile == null ? SimulationDevices.none() : SimulationDevices.read(devicesFile);
        PodMapper mapper = new PodMapper(mapped.budgetAnnotation());
        NodeState state = allocator.initialState();
        List<Step> steps = new ArrayList<>();
        List<Rejection> rejections = new ArrayList<>();
        for (SimulationInputs.PodManifest m : SimulationInputs.pods(podsDir)) {
            var meta = m.pod().getMetadata();
            if (meta == null || meta.getName() == null) {
                throw new SimulationInputs.InputException(m.file() + ": metadata.name is missing");
            }
            String ns = meta.getNamespace() == null ? "default" : meta.getNamespace();
            String name = meta.getName();
            if (m.delete()) {
                PodAssignment known = find(state, ns, name);
                if (known == null) {
                    steps.add(new Step(m.file(), "delete", ns, name, "not-found"));
                } else {
                    state = allocator.remove(state, known.ref().uid());
                    steps.add(new Step(m.file(), "delete", ns, name, "deleted"));
                }
                continue;
            }
            Pod pod;
            try {
                pod = mapper.map(m.pod());
            } catch (IllegalArgumentException e) {
                throw new SimulationInputs.InputException(m.file() + ": " + e.getMessage());
            }
            if (state.pods().containsKey(pod.ref().uid())) {
                // Same uid again: the engine keeps its first answer; say so rather than "admitted".
                steps.add(new Step(m.file(), "admit", ns, name, "already-admitted"));
                continue;
            }
            switch (allocator.admit(state, pod, devices.given(m.file(), m.pod()))) {
                case AdmissionResult.Admitted a -> {
                    state = a.state();
                    steps.add(new Step(m.file(), "admit", ns, name, "admitted"));
                }
                case AdmissionResult.Rejected r -> {
                    steps.add(new Step(m.file(), "admit", ns, name, "rejected"));
                    rejections.add(new Rejection(m.file(), ns, name, r.reason().wire(), r.message()));
                }
            }
        }
        String policyName =
                policy.getMetadata() == null ? "" : policy.getMetadata().getName();
        return new Result(policyName, topo, allocator, state, steps, rejections);
    }

    private static PodAssignment find(NodeState state, String namespace, String name) {
        for (PodAssignment p : state.pods().values()) {
            if (p.ref().namespace().equals(namespace) && p.ref().name().equals(name)) {
                return p;
            }
        }
        return null;
    }
}
