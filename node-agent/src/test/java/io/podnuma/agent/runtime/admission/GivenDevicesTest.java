package io.podnuma.agent.runtime.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.engine.device.Device;
import io.podnuma.agent.engine.device.PodDevices;
import io.podnuma.agent.engine.pod.PodRef;
import io.podnuma.agent.podresources.ContainerKey;
import io.podnuma.agent.podresources.DeviceAssignments;
import io.podnuma.agent.pods.DeviceRequests;
import io.podnuma.podresources.v1.ContainerDevices;
import io.podnuma.podresources.v1.NUMANode;
import io.podnuma.podresources.v1.TopologyInfo;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GivenDevicesTest {

    private static final String ACCEL = "example.com/accel";
    private static final PodRef POD = new PodRef("uid-1", "ml", "infer");

    private static ContainerDevices listed(String resource, List<String> ids, Integer... nodes) {
        TopologyInfo.Builder t = TopologyInfo.newBuilder();
        for (Integer n : nodes) {
            t.addNodes(NUMANode.newBuilder().setID(n));
        }
        return ContainerDevices.newBuilder()
                .setResourceName(resource)
                .addAllDeviceIds(ids)
                .setTopology(t)
                .build();
    }

    @Test
    void eachListedIdIsADeviceWithTheNumaNodesOfItsEntryAndOnlyTheAskingContainersAreRead() {
        DeviceRequests asks = new DeviceRequests(Map.of("m", Map.of(ACCEL, 2L)));
        DeviceAssignments kubelet = new DeviceAssignments(Map.of(
                new ContainerKey("ml", "infer", "m"),
                new DeviceAssignments.Assigned(List.of(listed(ACCEL, List.of("a", "b"), 1)), List.of()),
                new ContainerKey("ml", "other", "m"),
                new DeviceAssignments.Assigned(List.of(listed(ACCEL, List.of("c"), 0)), List.of())));

        PodDevices given = GivenDevices.of(
                POD, asks, kubelet, List.of(listed(ACCEL, List.of("a", "b"), 1), listed(ACCEL, List.of("c"), 0)));

        assertThat(given.of("m")).containsExactly(Device.of(ACCEL, "a", 1), Device.of(ACCEL, "b", 1));
        assertThat(given.node()).hasSize(3).contains(Device.of(ACCEL, "c", 0));
        assertThat(GivenDevices.missing(asks, given)).isEmpty();
    }

    @Test
    void whatTheKubeletHasNotGivenYetIsNamedByContainerResourceAndCount() {
        DeviceRequests asks = new DeviceRequests(Map.of("m", Map.of(ACCEL, 2L), "log", Map.of("example.com/nic", 1L)));
        DeviceAssignments kubelet = new DeviceAssignments(Map.of(
                new ContainerKey("ml", "infer", "m"),
                new DeviceAssignments.Assigned(List.of(listed(ACCEL, List.of("a"), 1)), List.of())));

        PodDevices given = GivenDevices.of(POD, asks, kubelet, List.of());

        assertThat(GivenDevices.missing(asks, given))
                .contains("container log: example.com/nic 0 of 1, container m: example.com/accel 1 of 2");
    }
}
