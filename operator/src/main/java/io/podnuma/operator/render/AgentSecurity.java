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

    private AgentSecurity() {}

    static SecurityContext containerContext() {
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
                .withAdd(CAPABILITIES_ADDED.isEmpty() ? null : CAPABILITIES_ADDED)
                .endCapabilities()
                .withNewSeccompProfile()
                .withType("RuntimeDefault")
                .endSeccompProfile()
                .build();
    }
}
