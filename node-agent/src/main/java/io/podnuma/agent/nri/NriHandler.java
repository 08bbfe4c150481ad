package io.podnuma.agent.nri;

import io.podnuma.nri.v1alpha1.Container;
import io.podnuma.nri.v1alpha1.ContainerUpdate;
import io.podnuma.nri.v1alpha1.LinuxResources;
import io.podnuma.nri.v1alpha1.PodSandbox;
import java.util.List;
import java.util.Optional;

/**
 * What the agent does with the runtime's requests; implemented by the agent's runtime, called by {@link NriPlugin}.
 *
 * <p>Calls come on the plugin's virtual threads, one per request; the runtime holds one node-wide lock across each
 * call, so in practice they come one at a time, but an implementation must be thread-safe. Answer fast: every call
 * is inside the runtime's request timeout (2 s by default, {@link RuntimeInfo#requestTimeout}); past it the runtime
 * closes the connection and creates the container as if we had answered nothing. A handler is interrupted when the
 * request's deadline passes. An exception fails the request (for CreateContainer, the runtime fails the container's
 * creation and the kubelet retries). Never call {@link NriPlugin#updateContainers} from a handler: the runtime's lock
 * is held, so it would wait for us while we wait for it; return updates instead (the plugin refuses such a call).
 */
public interface NriHandler {

    /** The runtime configured us (after registration, before Synchronize). */
    void connected(RuntimeInfo runtime);

    /** The runtime's whole state (a split Synchronize is re-assembled first); updates for existing containers. */
    SynchronizeResult synchronize(List<PodSandbox> pods, List<Container> containers);

    /** A container is being created: its adjustment (cpuset) and updates of other containers. */
    CreateResult createContainer(PodSandbox pod, Container container);

    /** The kubelet updates a container's resources to {@code resources}; an update for it rewrites the request. */
    List<ContainerUpdate> updateContainer(PodSandbox pod, Container container, LinuxResources resources);

    /** A container is stopping: updates of other containers (a growing shared pool). */
    List<ContainerUpdate> stopContainer(PodSandbox pod, Container container);

    /**
     * Any other event: REMOVE_CONTAINER, REMOVE_POD_SANDBOX, ... (from StateChange before NRI v0.12 and from the
     * dedicated methods since); {@code container} is empty for pod events.
     */
    void event(NriEvent event, PodSandbox pod, Optional<Container> container);

    /** The connection ended (the runtime went away, a protocol error, Shutdown); the plugin reconnects. */
    void disconnected(String reason);
}
