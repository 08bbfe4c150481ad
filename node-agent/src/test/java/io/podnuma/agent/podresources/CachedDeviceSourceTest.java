package io.podnuma.agent.podresources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podnuma.podresources.v1.ContainerDevices;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class CachedDeviceSourceTest {

    private static final Duration AGE = Duration.ofSeconds(1);

    private final AtomicLong now = new AtomicLong(1_000);
    private final Kubelet kubelet = new Kubelet();
    private final CachedDeviceSource cache = new CachedDeviceSource(kubelet, AGE, now::get);

    /** The kubelet's answers, changed by the test; every call counted by method. */
    private static final class Kubelet implements DeviceSource {
        final List<String> calls = new ArrayList<>();
        volatile DeviceAssignments assigned = DeviceAssignments.NONE;
        volatile List<ContainerDevices> node = List.of();

        @Override
        public Wait waits() {
            return Wait.REMOTE_CALL;
        }

        @Override
        public DeviceAssignments all() {
            calls.add("List");
            return assigned;
        }

        @Override
        public DeviceAssignments pod(String namespace, String name) {
            calls.add("Get");
            return assigned;
        }

        @Override
        public List<ContainerDevices> allocatable() {
            calls.add("GetAllocatableResources");
            return node;
        }

        @Override
        public void close() {
            calls.add("close");
        }
    }

    private static DeviceAssignments.Assigned accel(String id) {
        return new DeviceAssignments.Assigned(
                List.of(ContainerDevices.newBuilder()
                        .setResourceName("example.com/accel")
                        .addDeviceIds(id)
                        .build()),
                List.of());
    }

    @Test
    void callsWithinTheAgeShareOneKubeletCallAndAnAssignmentShowsOnceItIsThatOld() {
        DeviceAssignments first = new DeviceAssignments(Map.of(new ContainerKey("ns", "a", "app"), accel("accel-0")));
        kubelet.assigned = first;
        assertThat(cache.all()).isEqualTo(first);
        DeviceAssignments second = new DeviceAssignments(Map.of(
                new ContainerKey("ns", "a", "app"), accel("accel-0"),
                new ContainerKey("ns", "b", "app"), accel("accel-1")));
        kubelet.assigned = second;
        now.addAndGet(AGE.toNanos() - 1);
        assertThat(cache.all()).as("younger than the age: the same read").isEqualTo(first);
        assertThat(cache.pod("ns", "b")).as("Get from the same read").isEqualTo(DeviceAssignments.NONE);
        assertThat(kubelet.calls).containsExactly("List");

        now.incrementAndGet();
        assertThat(cache.all()).as("as old as the age: read again").isEqualTo(second);
        assertThat(kubelet.calls).containsExactly("List", "List");
    }

    @Test
    void getIsThePodsContainersOfTheKubeletsListOnly() {
        kubelet.assigned = new DeviceAssignments(Map.of(
                new ContainerKey("ns", "a", "app"), accel("accel-0"),
                new ContainerKey("ns", "a", "side"), accel("accel-1"),
                new ContainerKey("other", "a", "app"), accel("accel-2"),
                new ContainerKey("ns", "ab", "app"), accel("accel-3")));
        assertThat(cache.pod("ns", "a").containers())
                .containsOnlyKeys(new ContainerKey("ns", "a", "app"), new ContainerKey("ns", "a", "side"));
        assertThat(cache.pod("ns", "none")).isEqualTo(DeviceAssignments.NONE);
        assertThat(kubelet.calls).as("never the kubelet's Get").containsExactly("List");
    }

    @Test
    void allocatableIsReadOncePerAgeOnItsOwn() {
        List<ContainerDevices> node = accel("accel-0").devices();
        kubelet.node = node;
        assertThat(cache.allocatable()).isEqualTo(node);
        kubelet.node = List.of();
        assertThat(cache.allocatable()).isEqualTo(node);
        cache.all();
        now.addAndGet(AGE.toNanos());
        assertThat(cache.allocatable()).isEmpty();
        assertThat(kubelet.calls).containsExactly("GetAllocatableResources", "List", "GetAllocatableResources");
    }

    @Test
    void itWaitsAndKnowsAsTheKubeletSourceDoesAndLeavesItsClosingToItsOwner() {
        assertThat(cache.waits()).isEqualTo(DeviceSource.Wait.REMOTE_CALL);
        assertThat(cache.knowsDevices()).isTrue();
        assertThat(new CachedDeviceSource(DeviceSource.NONE, AGE).knowsDevices())
                .isFalse();
        cache.close();
        assertThat(kubelet.calls).isEmpty();
    }

    @Test
    void anAgeThatIsNotPositiveIsRefused() {
        assertThatThrownBy(() -> new CachedDeviceSource(kubelet, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("device cache age PT0S must be positive, e.g. PT1S");
    }
}
