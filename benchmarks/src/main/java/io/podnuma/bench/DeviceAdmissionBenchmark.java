package io.podnuma.bench;

import io.podnuma.agent.engine.cpu.ReservedCpus;
import io.podnuma.agent.engine.cpu.StaticPolicyOptions;
import io.podnuma.agent.engine.device.Device;
import io.podnuma.agent.engine.device.PodDevices;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.node.AdmissionResult;
import io.podnuma.agent.engine.node.NodeAllocator;
import io.podnuma.agent.engine.node.NodeConfig;
import io.podnuma.agent.engine.pod.Container;
import io.podnuma.agent.engine.pod.ContainerType;
import io.podnuma.agent.engine.pod.Pod;
import io.podnuma.agent.engine.pod.PodRef;
import io.podnuma.agent.engine.pod.ResourceList;
import io.podnuma.agent.engine.pod.Resources;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.topology.TopologyManagerOptions;
import io.podnuma.agent.engine.topology.TopologyPolicyName;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What devices add to an admission (the budget: device-aligned admission adds less than 1 ms): a 4-CPU Guaranteed pod
 * admitted on the empty 384-CPU, 8-NUMA machine under single-numa-node, without devices and holding one accelerator
 * of the node's 16 (two per NUMA node). The kubelet's PodResources call that tells the agent the devices is not in
 * it: that is a call on the agent's loop, as for every other kubelet answer.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class DeviceAdmissionBenchmark {

    static final String NONE = "devices/none/4cpu";
    static final String ONE_ACCEL = "devices/accel-on-node-5/4cpu";

    @Param({NONE, ONE_ACCEL})
    public String scenario;

    private NodeAllocator allocator;
    private NodeState empty;
    private Pod pod;
    private PodDevices devices;

    @Setup
    public void setUp() {
        CpuTopology topo = BenchMachine.topology();
        allocator = NodeAllocator.create(
                topo,
                new NodeConfig(
                        NodeConfig.CpuPolicy.STATIC,
                        ReservedCpus.count(AllocationScenario.RESERVED_COUNT),
                        StaticPolicyOptions.NONE,
                        NodeConfig.MemoryPolicy.NONE,
                        null,
                        TopologyPolicyName.SINGLE_NUMA_NODE,
                        NodeConfig.TopologyScope.CONTAINER,
                        TopologyManagerOptions.defaults(),
                        false));
        empty = allocator.initialState();
        pod = new Pod(
                new PodRef("bench-infer", "default", "infer"),
                Optional.empty(),
                List.of(),
                List.of(new Container("m", ContainerType.APP, Resources.guaranteed(ResourceList.of(4000L, 1L << 30)))),
                List.of());
        List<Device> node = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            node.add(Device.of("example.com/accel", "accel-" + i, i / 2));
        }
        devices = scenario.equals(NONE) ? PodDevices.NONE : new PodDevices(Map.of("m", List.of(node.get(10))), node);
    }

    @Benchmark
    public AdmissionResult admit() {
        return allocator.admit(empty, pod, devices);
    }
}
