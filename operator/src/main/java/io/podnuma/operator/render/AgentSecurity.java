package io.podnuma.operator.render;

import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;
import java.util.List;

/**
 * What the agent's container may do, beyond its mounts. It is not privileged: every file it writes on the host (the
 * cgroup files of other containers, its checkpoint, its sockets) is owned by root and reached through an explicit
 * hostPath mount, so uid 0 with no capability at all is enough — file access by the owner needs no
 * {@code CAP_DAC_OVERRIDE}, and writing {@code cpuset.cpus}/{@code cpuset.mems} needs no capability on cgroup v1 or v2.
 * The real-node E2Es run the agent pod under exactly this context.
 */
public final class AgentSecurity {

    /** The Linux capabilities the agent keeps: none (see the README's "What it touches and why"). */
    public static final List<String> CAPABILITIES_ADDED = List.of();

    /**
     * The one capability an agent may get, and only for a policy with cpuset partitions where the operator is allowed
     * to grant it ({@code agentCpusetPartitions}): the kernel makes a partition below the root only for a task with
     * {@code CAP_SYS_ADMIN}.
     */
    public static final String PARTITIONS_CAPABILITY = "SYS_ADMIN";

    private AgentSecurity() {}

    static SecurityContext containerContext() {
        return containerContext(false);
    }

    /** @param partitions whether the agent makes cpuset partitions ({@link #PARTITIONS_CAPABILITY} added) */
    static SecurityContext containerContext(boolean partitions) {
        List<String> added = partitions ? List.of(PARTITIONS_CAPABILITY) : CAPABILITIES_ADDED;
        return new SecurityContextBuilder()
                .withPrivileged(false)
                .withAllowPrivilegeEscalation(false)
                .withReadOnlyRootFilesystem(true)
                // Root, because the host's cgroup files are root's and writable by their owner only.
                .withRunAsUser(0L)
                .withRunAsGroup(0L)
                .withRunAsNonRoot(false)
                .withNewCapabilities()
                .withDrop("ALL")
                .withAdd(added.isEmpty() ? null : added)
                .endCapabilities()
                .withNewSeccompProfile()
                .withType("RuntimeDefault")
                .endSeccompProfile()
                .build();
    }
}
