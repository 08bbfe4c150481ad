package io.podnuma.agent.podresources;

import io.podnuma.podresources.v1.ContainerDevices;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The kubelet's devices as the PodResources server answers with them: read from the kubelet at most once per
 * {@code maxAge} and shared by every call meanwhile (callers during a read wait for that one read), so a client that
 * polls {@code List} costs the kubelet one call per {@code maxAge}, and most calls are answered from memory. A device
 * the kubelet has just given shows within {@code maxAge}; admission asks the kubelet itself, as it needs the devices
 * of the pod it places now. Closing it leaves the kubelet's source to its owner.
 */
public final class CachedDeviceSource implements DeviceSource {

    private final DeviceSource kubelet;
    private final long maxAgeNanos;
    private final LongSupplier nanoTime;
    private Read<DeviceAssignments> all;
    private Read<List<ContainerDevices>> allocatable;

    private record Read<T>(T value, long at) {}

    public CachedDeviceSource(DeviceSource kubelet, Duration maxAge) {
        this(kubelet, maxAge, System::nanoTime);
    }

    CachedDeviceSource(DeviceSource kubelet, Duration maxAge, LongSupplier nanoTime) {
        this.kubelet = Objects.requireNonNull(kubelet, "kubelet");
        if (maxAge.isNegative() || maxAge.isZero()) {
            throw new IllegalArgumentException("device cache age " + maxAge + " must be positive, e.g. PT1S");
        }
        this.maxAgeNanos = maxAge.toNanos();
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
    }

    @Override
    public Wait waits() {
        return kubelet.waits();
    }

    @Override
    public boolean knowsDevices() {
        return kubelet.knowsDevices();
    }

    @Override
    public synchronized DeviceAssignments all() {
        all = fresh(all, kubelet::all);
        return all.value();
    }

    /** The pod's containers of {@link #all}: the kubelet's {@code List} holds what its {@code Get} would answer. */
    @Override
    public DeviceAssignments pod(String namespace, String name) {
        Map<ContainerKey, DeviceAssignments.Assigned> mine = new LinkedHashMap<>();
        all().containers().forEach((key, assigned) -> {
            if (key.namespace().equals(namespace) && key.pod().equals(name)) {
                mine.put(key, assigned);
            }
        });
        return mine.isEmpty() ? DeviceAssignments.NONE : new DeviceAssignments(mine);
    }

    @Override
    public synchronized List<ContainerDevices> allocatable() {
        allocatable = fresh(allocatable, kubelet::allocatable);
        return allocatable.value();
    }

    /** {@code last} while it is younger than the age, else a new read of the kubelet. */
    private <T> Read<T> fresh(Read<T> last, Supplier<T> kubeletRead) {
        long now = nanoTime.getAsLong();
        return last != null && now - last.at() < maxAgeNanos ? last : new Read<>(kubeletRead.get(), now);
    }

    @Override
    public void close() {}
}
