package io.podnuma.operator.render;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the agent's files are on the node (host paths; the container sees them at fixed places).
 *
 * @param sys the host's sysfs, read for the topology
 * @param cgroup the host's cgroup mount, written for the pins
 * @param stateDir the agent's checkpoint; survives the agent pod
 * @param kubeletRootDir the kubelet's {@code --root-dir}: only its {@code pod-resources} directory is mounted, where the
 *     coexistence check asks the kubelet's PodResources socket for its CPU and memory manager policies (the root itself
 *     holds the kubelet's client key and every pod's volumes); empty: not mounted
 * @param kubeletConfigFile the kubelet's configuration file, read for the same check; empty: not read
 * @param podResourcesSocket where the agent's PodResources socket appears on the node; its directory is mounted
 * @param nriSocket the container runtime's NRI socket on the node; its directory is mounted unless the agents pin
 *     by cgroup only
 */
public record AgentHostPaths(
        String sys,
        String cgroup,
        String stateDir,
        Optional<String> kubeletRootDir,
        Optional<String> kubeletConfigFile,
        String podResourcesSocket,
        String nriSocket) {

    /** The default socket: in the state directory's {@code pod-resources}, where it has always been. */
    public static final String DEFAULT_POD_RESOURCES_SOCKET = "/var/lib/podnuma/pod-resources/podnuma.sock";
    /** Where containerd and CRI-O put their NRI socket by default. */
    public static final String DEFAULT_NRI_SOCKET = "/var/run/nri/nri.sock";

    /** {@code sun_path} holds 108 bytes with the terminating NUL. */
    static final int MAX_SOCKET_PATH = 107;
    /** The container sees the socket in {@code AgentRender.SOCKET_DIR} (27 bytes with the '/'), within 107 too. */
    static final int MAX_SOCKET_NAME = 80;

    public static final String SOCKET_RULE = "an absolute path of a socket file in a directory other than /, ending in"
            + " .sock, without '.', '..' or empty segments, at most " + MAX_SOCKET_PATH + " bytes with a file name"
            + " of at most " + MAX_SOCKET_NAME + " (e.g. " + DEFAULT_POD_RESOURCES_SOCKET + ")";

    public static final String NRI_SOCKET_RULE = "an absolute path of a socket file in a directory other than /,"
            + " without '.', '..' or empty segments, at most " + MAX_SOCKET_PATH + " bytes with a file name of at most "
            + MAX_SOCKET_NAME + " (e.g. " + DEFAULT_NRI_SOCKET + ")";

    public AgentHostPaths {
        for (String p : new String[] {sys, cgroup, stateDir}) {
            requireAbsolute(p);
        }
        kubeletRootDir.ifPresent(AgentHostPaths::requireAbsolute);
        kubeletConfigFile.ifPresent(AgentHostPaths::requireAbsolute);
        Objects.requireNonNull(podResourcesSocket, "podResourcesSocket");
        socketProblem(podResourcesSocket).ifPresent(p -> {
            throw new IllegalArgumentException("podResourcesSocket '" + podResourcesSocket + "': allowed " + p);
        });
        Objects.requireNonNull(nriSocket, "nriSocket");
        nriSocketProblem(nriSocket).ifPresent(p -> {
            throw new IllegalArgumentException("nriSocket '" + nriSocket + "': allowed " + p);
        });
        if (socketDir(nriSocket).equals(socketDir(podResourcesSocket))) {
            // One directory would be two mounts at two places, one of them writable for the agent's own socket.
            throw new IllegalArgumentException("nriSocket '" + nriSocket + "' and podResourcesSocket '"
                    + podResourcesSocket + "' are in one directory: allowed two different directories");
        }
    }

    /** A kubeadm-style node: {@code /var/lib/kubelet} with its {@code config.yaml}. */
    public static AgentHostPaths defaults() {
        return new AgentHostPaths(
                "/sys",
                "/sys/fs/cgroup",
                "/var/lib/podnuma",
                Optional.of("/var/lib/kubelet"),
                Optional.of("/var/lib/kubelet/config.yaml"),
                DEFAULT_POD_RESOURCES_SOCKET,
                DEFAULT_NRI_SOCKET);
    }

    /** The kubelet's PodResources socket directory on the node, the one part of its root directory mounted. */
    public Optional<String> kubeletPodResourcesDir() {
        return kubeletRootDir.map(d -> d.replaceAll("/+$", "") + "/pod-resources");
    }

    /** The directory of the socket on the node: the host path mounted into the agent container. */
    public String podResourcesSocketDir() {
        return socketDir(podResourcesSocket);
    }

    /** The socket's file name. */
    public String podResourcesSocketName() {
        return socketName(podResourcesSocket);
    }

    /** The directory of the NRI socket on the node: the host path mounted into the agent container. */
    public String nriSocketDir() {
        return socketDir(nriSocket);
    }

    /** The NRI socket's file name. */
    public String nriSocketName() {
        return socketName(nriSocket);
    }

    /** Empty when {@code path} can be the agent's socket on the node, else {@link #SOCKET_RULE}. */
    public static Optional<String> socketProblem(String path) {
        boolean ok = path.endsWith(".sock") && socketName(path).length() > ".sock".length() && isSocketFile(path);
        return ok ? Optional.empty() : Optional.of(SOCKET_RULE);
    }

    /**
     * Empty when {@code path} can be the runtime's NRI socket on the node, else {@link #NRI_SOCKET_RULE}. The runtime
     * may name it as it likes, so no {@code .sock} is asked for.
     */
    public static Optional<String> nriSocketProblem(String path) {
        return isSocketFile(path) ? Optional.empty() : Optional.of(NRI_SOCKET_RULE);
    }

    private static String socketDir(String path) {
        return path.substring(0, path.lastIndexOf('/'));
    }

    private static String socketName(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /** A file below a directory other than {@code /}, normal (no '.', '..', '//'), short enough for sun_path. */
    private static boolean isSocketFile(String path) {
        int slash = path.lastIndexOf('/');
        String name = path.substring(slash + 1);
        return path.startsWith("/")
                && slash > 0
                && !name.isEmpty()
                && name.getBytes(StandardCharsets.UTF_8).length <= MAX_SOCKET_NAME
                && path.getBytes(StandardCharsets.UTF_8).length <= MAX_SOCKET_PATH
                && path.indexOf('\0') < 0
                && !path.contains("//")
                && !(path + "/").contains("/./")
                && !(path + "/").contains("/../");
    }

    private static void requireAbsolute(String path) {
        Objects.requireNonNull(path, "host path");
        if (!path.startsWith("/")) {
            throw new IllegalArgumentException("host path '" + path + "' must be absolute");
        }
    }
}
