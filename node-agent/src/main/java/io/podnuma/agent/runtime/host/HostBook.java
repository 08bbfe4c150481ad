package io.podnuma.agent.runtime.host;

import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.runtime.core.Pin;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The container cgroups on the host and, per container, what the agent knows of its cpuset: the last pin read or
 * written, whether the agent has decided it, and the CPUs it still holds but must give up. Owned by the loop thread.
 */
public final class HostBook {

    private final Map<CgroupPath, HostContainer> host = new HashMap<>();
    /** Per container: CPUs it still holds but must give up (its write failed); nobody else gets them until then. */
    private final Map<CgroupPath, CpuSet> stale = new HashMap<>();
    /**
     * Containers whose cpuset the agent has decided (written, or found already right); a new cgroup holds its
     * parent's sets by inheritance until then, which is no claim on them.
     */
    private final Set<CgroupPath> written = new HashSet<>();

    public Optional<HostContainer> get(CgroupPath path) {
        return Optional.ofNullable(host.get(path));
    }

    public boolean contains(CgroupPath path) {
        return host.containsKey(path);
    }

    public int size() {
        return host.size();
    }

    /** The containers now, as a copy the caller may hold while the book changes. */
    public List<HostContainer> all() {
        return List.copyOf(host.values());
    }

    /** The containers now, without a copy: not to be held across changes. */
    public Collection<HostContainer> view() {
        return host.values();
    }

    public List<CgroupPath> paths() {
        return List.copyOf(host.keySet());
    }

    public void put(HostContainer hc) {
        host.put(hc.path(), hc);
    }

    public void forget(CgroupPath path) {
        host.remove(path);
        stale.remove(path);
        written.remove(path);
    }

    public boolean decided(CgroupPath path) {
        return written.contains(path);
    }

    public void decide(CgroupPath path) {
        written.add(path);
    }

    /** The CPUs each container still holds but must give up. */
    public Map<CgroupPath, CpuSet> stale() {
        return Map.copyOf(stale);
    }

    public void stale(CgroupPath path, CpuSet cpus) {
        if (cpus.isEmpty()) {
            stale.remove(path);
        } else {
            stale.put(path, cpus);
        }
    }

    /** Nothing is kept apart any more (every container gets everything back). */
    public void clearStale() {
        stale.clear();
    }

    /**
     * Per pod, the CPUs its containers hold on the host now, leaving out containers that hold every online CPU
     * or none yet (never pinned: they say nothing about where the pod was).
     */
    public Map<String, CpuSet> heldByPod(CpuSet online) {
        Map<String, CpuSet> held = new HashMap<>();
        for (HostContainer hc : host.values()) {
            hc.applied()
                    .map(Pin::cpus)
                    .filter(cpus -> !cpus.isEmpty() && !cpus.equals(online))
                    .ifPresent(cpus -> held.merge(hc.podUid(), cpus, CpuSet::union));
        }
        return held;
    }
}
