package io.podnuma.testkit.devices;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AccelPluginTest {

    @Test
    void itIsToldItsDirectoryResourceAndEachDeviceWithItsNumaNodeInOrder() {
        assertThat(AccelPlugin.onNumaNode(2, 1).arguments("/var/lib/kubelet/device-plugins"))
                .containsExactly(
                        "-dir",
                        "/var/lib/kubelet/device-plugins",
                        "-resource",
                        "example.com/accel",
                        "-devices",
                        "accel-0=1,accel-1=1");
        Map<String, Integer> mixed = new LinkedHashMap<>();
        mixed.put("gpu-b", 1);
        mixed.put("gpu-a", 0);
        assertThat(new AccelPlugin("example.com/gpu", mixed).arguments("/d"))
                .endsWith("example.com/gpu", "-devices", "gpu-b=1,gpu-a=0");
    }

    @Test
    void simulateIsToldTheSameDevices() {
        assertThat(AccelPlugin.onNumaNode(2, 1).simulateDevices())
                .isEqualTo("example.com/accel:\n  accel-0: [1]\n  accel-1: [1]\n");
    }

    @Test
    void aPluginWithoutDevicesIsRefused() {
        assertThatThrownBy(() -> new AccelPlugin("example.com/accel", Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a device plugin of example.com/accel without devices");
    }
}
