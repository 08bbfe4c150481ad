package io.podnuma.agent.engine.device;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.engine.topology.NumaMask;
import io.podnuma.agent.engine.topology.TopologyHint;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeviceHintsTest {

    private static final String ACCEL = "example.com/accel";
    private static final NumaMask TWO = NumaMask.of(0, 1);
    private static final NumaMask FOUR = NumaMask.of(0, 1, 2, 3);

    @Test
    void aDeviceOnOneNodeIsPreferredThereAndAcceptedInEveryWiderMaskHoldingIt() {
        Device a = Device.of(ACCEL, "a", 1);
        Map<String, List<TopologyHint>> hints = DeviceHints.of(List.of(a), List.of(a, Device.of(ACCEL, "b", 1)), TWO);

        assertThat(hints).containsOnlyKeys(ACCEL);
        assertThat(hints.get(ACCEL))
                .containsExactly(TopologyHint.preferred(NumaMask.of(1)), TopologyHint.notPreferred(TWO));
    }

    @Test
    void twoDevicesOnTwoNodesNeedBothAndArePreferredThereOnlyIfNoNodeHoldsTwoOfTheNodesDevices() {
        Device a = Device.of(ACCEL, "a", 0);
        Device b = Device.of(ACCEL, "b", 1);
        assertThat(DeviceHints.of(List.of(a, b), List.of(a, b), TWO).get(ACCEL))
                .as("the node has no narrower pair")
                .containsExactly(TopologyHint.preferred(TWO));

        Device c = Device.of(ACCEL, "c", 1);
        assertThat(DeviceHints.of(List.of(a, b), List.of(a, b, c), TWO).get(ACCEL))
                .as("node 1 holds two of the node's devices: the kubelet could have given a narrower pair")
                .containsExactly(TopologyHint.notPreferred(TWO));
    }

    @Test
    void onFourNodesEveryMaskHoldingTheDeviceIsAHintAndOnlyItsOwnNodeIsPreferred() {
        Device a = Device.of(ACCEL, "a", 2);
        List<TopologyHint> hints = DeviceHints.of(List.of(a), List.of(a), FOUR).get(ACCEL);

        assertThat(hints).hasSize(8).allMatch(h -> h.numaMask().contains(2));
        assertThat(hints.stream().filter(TopologyHint::preferred).map(TopologyHint::numaMask))
                .containsExactly(NumaMask.of(2));
        assertThat(hints.getFirst()).isEqualTo(TopologyHint.preferred(NumaMask.of(2)));
    }

    @Test
    void aDeviceAttachedToTwoNodesMatchesEitherOfThem() {
        Device a = Device.of(ACCEL, "a", 0, 1);
        assertThat(DeviceHints.of(List.of(a), List.of(a), TWO).get(ACCEL))
                .containsExactly(
                        TopologyHint.preferred(NumaMask.of(0)),
                        TopologyHint.preferred(NumaMask.of(1)),
                        TopologyHint.notPreferred(TWO));
    }

    @Test
    void aResourceWithoutTopologyHasNoPreference() {
        Device a = Device.of("example.com/nic", "a");
        Map<String, List<TopologyHint>> hints = DeviceHints.of(List.of(a), List.of(a), TWO);
        assertThat(hints).containsOnlyKeys("example.com/nic");
        assertThat(hints.get("example.com/nic")).isNull();
    }

    @Test
    void aGivenDeviceWithoutTopologyOfAResourceWhoseOthersHaveItFitsNoMask() {
        Device bare = Device.of(ACCEL, "bare");
        assertThat(DeviceHints.of(List.of(bare), List.of(bare, Device.of(ACCEL, "b", 0)), TWO)
                        .get(ACCEL))
                .as("no possible placement, as the kubelet's device manager says of it")
                .isEmpty();
    }

    @Test
    void eachResourceHasItsOwnHintsAndADeviceGivenTwiceCountsOnce() {
        Device a = Device.of(ACCEL, "a", 1);
        Device nic = Device.of("example.com/nic", "n", 0);
        PodDevices pod = new PodDevices(Map.of("init", List.of(a), "app", List.of(a, nic)), List.of(a, nic));

        assertThat(pod.ofPod()).containsExactlyInAnyOrder(a, nic);
        Map<String, List<TopologyHint>> hints = DeviceHints.of(pod.ofPod(), pod.node(), TWO);
        assertThat(hints.get(ACCEL).getFirst()).isEqualTo(TopologyHint.preferred(NumaMask.of(1)));
        assertThat(hints.get("example.com/nic").getFirst()).isEqualTo(TopologyHint.preferred(NumaMask.of(0)));
    }
}
