package io.podnuma.agent.cgroup;

import static io.podnuma.agent.cgroup.InvalidCgroupNameException.quote;

import io.podnuma.agent.engine.pod.PodQos;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The kubelet's and the runtimes' cgroup names, both ways: a container's identity to its cgroup
 * directory, and a directory seen on the host back to the container it belongs to.
 *
 * <p>cgroupfs: {@code kubepods/[burstable|besteffort/]pod<uid>/<id>} (containerd) or {@code .../crio-<id>}
 * (CRI-O, which prefixes its container cgroups under both drivers). systemd:
 * {@code kubepods.slice/[kubepods-<qos>.slice/]kubepods[-<qos>]-pod<uid, - as _>.slice/<prefix><id>.scope}
 * with prefix {@code cri-containerd-} or {@code crio-}. Guaranteed pods sit directly under kubepods.
 *
 * @param driver the kubelet's cgroup driver
 */
public record CgroupNaming(CgroupDriver driver) {

    private static final String CONMON_PREFIX = "crio-conmon-";

    public CgroupNaming {
        Objects.requireNonNull(driver, "driver");
    }

    /** The container's cgroup directory, relative to a hierarchy root. */
    public CgroupPath containerPath(ContainerCgroup c) {
        CgroupPath pod = podPath(c.qos(), c.podUid());
        ContainerId id = c.containerId();
        return switch (driver) {
            case CGROUPFS ->
                pod.child(id.runtime() == ContainerRuntime.CRIO ? id.runtime().scopePrefix() + id.id() : id.id());
            case SYSTEMD -> pod.child(id.runtime().scopePrefix() + id.id() + ".scope");
        };
    }

    /** The pod's cgroup directory, relative to a hierarchy root. */
    public CgroupPath podPath(PodQos qos, String podUid) {
        PodUids.check(podUid);
        List<String> s = new ArrayList<>();
        s.add(driver.kubepodsName());
        switch (driver) {
            case CGROUPFS -> {
                if (qos != PodQos.GUARANTEED) {
                    s.add(qosName(qos));
                }
                s.add("pod" + podUid);
            }
            case SYSTEMD -> {
                if (qos != PodQos.GUARANTEED) {
                    s.add("kubepods-" + qosName(qos) + ".slice");
                }
                s.add(systemdPodPrefix(qos) + podUid.replace('-', '_') + ".slice");
            }
        }
        return new CgroupPath(s);
    }

    /**
     * The container whose cgroup {@code path} is. Empty when the path is not a container's cgroup:
     * outside kubepods, a QoS or pod level, CRI-O's conmon scope, or a directory inside a container.
     *
     * @throws InvalidCgroupNameException when a name inside kubepods is not one the kubelet or a
     *     runtime would create (the message names the segment and what was expected)
     */
    public Optional<ContainerCgroup> parse(CgroupPath path) {
        List<String> s = path.segments();
        if (s.isEmpty() || !s.get(0).equals(driver.kubepodsName())) {
            return Optional.empty();
        }
        return driver == CgroupDriver.CGROUPFS ? parseCgroupfs(path, s) : parseSystemd(path, s);
    }

    private Optional<ContainerCgroup> parseCgroupfs(CgroupPath path, List<String> s) {
        int i = 1;
        PodQos qos = PodQos.GUARANTEED;
        if (s.size() > i && (s.get(i).equals("burstable") || s.get(i).equals("besteffort"))) {
            qos = s.get(i).equals("burstable") ? PodQos.BURSTABLE : PodQos.BEST_EFFORT;
            i++;
        }
        if (s.size() <= i) {
            return Optional.empty();
        }
        String podDir = s.get(i);
        if (!podDir.startsWith("pod")) {
            throw unexpected(
                    path,
                    podDir,
                    qos == PodQos.GUARANTEED && i == 1 ? "burstable, besteffort or pod<uid>" : "pod<uid>");
        }
        String uid = checkedUid(path, podDir.substring(3));
        if (s.size() <= i + 1 || s.size() > i + 2) {
            return Optional.empty();
        }
        String name = s.get(i + 1);
        if (name.startsWith(CONMON_PREFIX)) {
            return Optional.empty();
        }
        ContainerRuntime runtime = ContainerRuntime.CONTAINERD;
        String id = name;
        if (name.startsWith(ContainerRuntime.CRIO.scopePrefix())) {
            runtime = ContainerRuntime.CRIO;
            id = name.substring(ContainerRuntime.CRIO.scopePrefix().length());
        }
        return Optional.of(new ContainerCgroup(qos, uid, containerId(path, runtime, id)));
    }

    private Optional<ContainerCgroup> parseSystemd(CgroupPath path, List<String> s) {
        int i = 1;
        PodQos qos = PodQos.GUARANTEED;
        if (s.size() > i && s.get(i).equals("kubepods-burstable.slice")) {
            qos = PodQos.BURSTABLE;
            i++;
        } else if (s.size() > i && s.get(i).equals("kubepods-besteffort.slice")) {
            qos = PodQos.BEST_EFFORT;
            i++;
        }
        if (s.size() <= i) {
            return Optional.empty();
        }
        String podDir = s.get(i);
        String prefix = systemdPodPrefix(qos);
        if (!podDir.startsWith(prefix) || !podDir.endsWith(".slice") || podDir.length() < prefix.length() + 6) {
            String expected = prefix + "<uid with _>.slice";
            if (qos == PodQos.GUARANTEED) {
                expected = "kubepods-burstable.slice, kubepods-besteffort.slice or " + expected;
            }
            throw unexpected(path, podDir, expected);
        }
        String escapedUid = podDir.substring(prefix.length(), podDir.length() - ".slice".length());
        if (escapedUid.indexOf('-') >= 0) {
            // In a systemd unit name "-" separates parent slices, so the kubelet writes the UID's dashes as "_".
            throw unexpected(path, podDir, prefix + "<uid with every - written as _>.slice");
        }
        String uid = checkedUid(path, escapedUid.replace('_', '-'));
        if (s.size() <= i + 1 || s.size() > i + 2) {
            return Optional.empty();
        }
        String name = s.get(i + 1);
        if (name.startsWith(CONMON_PREFIX)) {
            return Optional.empty();
        }
        for (ContainerRuntime r : ContainerRuntime.values()) {
            if (name.startsWith(r.scopePrefix()) && name.endsWith(".scope")) {
                String id = name.substring(r.scopePrefix().length(), name.length() - ".scope".length());
                return Optional.of(new ContainerCgroup(qos, uid, containerId(path, r, id)));
            }
        }
        throw unexpected(path, name, "cri-containerd-<64 hex digits>.scope or crio-<64 hex digits>.scope");
    }

    private static String checkedUid(CgroupPath path, String uid) {
        try {
            PodUids.check(uid);
            return uid;
        } catch (InvalidCgroupNameException e) {
            throw new InvalidCgroupNameException("cgroup " + quote(path.toString()) + ": " + e.getMessage());
        }
    }

    private static ContainerId containerId(CgroupPath path, ContainerRuntime runtime, String id) {
        try {
            return new ContainerId(runtime, id);
        } catch (InvalidCgroupNameException e) {
            throw new InvalidCgroupNameException("cgroup " + quote(path.toString()) + ": " + e.getMessage());
        }
    }

    private static InvalidCgroupNameException unexpected(CgroupPath path, String segment, String expected) {
        return new InvalidCgroupNameException(
                "cgroup " + quote(path.toString()) + ": segment " + quote(segment) + " is not " + expected);
    }

    private static String systemdPodPrefix(PodQos qos) {
        return qos == PodQos.GUARANTEED ? "kubepods-pod" : "kubepods-" + qosName(qos) + "-pod";
    }

    private static String qosName(PodQos qos) {
        return switch (qos) {
            case GUARANTEED -> "guaranteed";
            case BURSTABLE -> "burstable";
            case BEST_EFFORT -> "besteffort";
        };
    }
}
