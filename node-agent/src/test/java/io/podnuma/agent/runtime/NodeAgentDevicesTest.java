package io.podnuma.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.podresources.ContainerKey;
import io.podnuma.agent.podresources.DeviceSource;
import io.podnuma.agent.sysfs.SysfsTopologyReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pod asking for a device plugin's device, on the in-memory agent: it is decided only once the kubelet has given
 * the device, and then its exclusive CPUs go to the device's NUMA node (node 1 of the 2-socket fixture: CPUs 32-63
 * and 96-127), where the same pod without the device goes to node 0.
 */
class NodeAgentDevicesTest {

    private static final String ACCEL = "example.com/accel";

    @TempDir
    Path stateDir;

    private final FakePods pods = new FakePods();
    private final List<String> events = Collections.synchronizedList(new ArrayList<>());
    private final FakeKubeletDevices kubelet = new FakeKubeletDevices(ACCEL, List.of(0, 1, 1));
    private CpuTopology topo;
    private NodeAgent agent;

    @BeforeEach
    void start() throws Exception {
        topo = new SysfsTopologyReader(RuntimeFixtures.SYSFS).read();
        agent = started(kubelet);
    }

    private NodeAgent started(DeviceSource devices) throws InterruptedException {
        return InMemoryAgent.twoSocketPodScope(topo, stateDir, pods)
                .withDevices(devices)
                .withEvents(new RecordingEvents(events))
                .started();
    }

    @AfterEach
    void close() {
        agent.close();
    }

    /** Kind 1 of the fixtures (app with 4 CPUs, helper with 1), its app asking for one accelerator. */
    private static Pod inference(String name) {
        Pod p = RuntimeFixtures.podOfKind(1, name, name, "4");
        return new PodBuilder(p)
                .editSpec()
                .editFirstContainer()
                .editResources()
                .addToLimits(ACCEL, new Quantity("1"))
                .addToRequests(ACCEL, new Quantity("1"))
                .endResources()
                .endContainer()
                .endSpec()
                .build();
    }

    private CpuSet nodesOf(PodAssignment p, String container) {
        return topo.numaNodesOf(p.container(container).orElseThrow().cpus());
    }

    @Test
    void aPodIsDecidedOnceTheKubeletGaveItsDeviceAndItsCpusGoWhereTheDeviceIs() {
        Pod pod = inference("infer");
        String uid = pod.getMetadata().getUid();
        pods.put(pod); // bound; the kubelet has not admitted it yet
        agent.drain();
        assertThat(events).as("the usual course: nothing said").isEmpty();
        pods.put(RuntimeFixtures.withStatus(pod)); // its containers exist, and still no device
        agent.drain();
        agent.reconcileNow(); // asked again
        agent.drain();
        assertThat(agent.state().pods())
                .as("not decided before the device is given")
                .doesNotContainKey(uid);
        assertThat(events)
                .as("said once its containers exist, though asked at each change")
                .containsExactly("pod churn/infer Normal WaitingForDevices: not placed yet: the kubelet has not given"
                        + " it its devices yet (container app: example.com/accel 0 of 1); until then it runs on the"
                        + " node's shared pool");

        kubelet.give(new ContainerKey("churn", "infer", "app"), kubelet.device("accel-2", 1));
        agent.reconcileNow();
        agent.drain();

        PodAssignment admitted = agent.state().pods().get(uid);
        assertThat(admitted).as("decided once the device is given").isNotNull();
        assertThat(nodesOf(admitted, "app")).isEqualTo(CpuSet.of(1));

        Pod plain = RuntimeFixtures.withStatus(RuntimeFixtures.podOfKind(1, "plain", "plain", "4"));
        pods.put(plain);
        agent.drain();
        assertThat(nodesOf(agent.state().pods().get(plain.getMetadata().getUid()), "app"))
                .as("the same pod without the device")
                .isEqualTo(CpuSet.of(0));
    }

    @Test
    void withoutAKubeletSocketAPodAskingForADeviceIsDecidedAtOnceWithoutIt() throws Exception {
        agent.close();
        agent = started(DeviceSource.NONE);
        Pod pod = inference("blind");
        pods.put(pod);
        agent.drain();
        assertThat(nodesOf(agent.state().pods().get(pod.getMetadata().getUid()), "app"))
                .isEqualTo(CpuSet.of(0));
    }
}
