package io.podnuma.agent.badinput;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.podnuma.agent.kubelet.FakeKubelet;
import io.podnuma.agent.kubelet.KubeletCheck;
import io.podnuma.agent.kubelet.KubeletCheckCache;
import io.podnuma.agent.kubelet.KubeletFiles;
import io.podnuma.agent.report.ConditionBook;
import io.podnuma.podresources.DomainSocketServer;
import io.podnuma.testkit.badinput.BadInput;
import io.podnuma.testkit.badinput.BadInputDoc;
import io.podnuma.testkit.badinput.InputKind;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The catalogue's kubelet cases: what the coexistence check makes of a kubelet socket nobody answers on, a kubelet
 * that hangs or lacks {@code GetAllocatableResources}, a missing socket and a broken configuration file, shown as the
 * {@code KubeletConflict} condition of the node's NumaNodeState. The socket and the file are named as the DaemonSet
 * mounts them; the check runs against a real gRPC server on a real unix socket.
 */
class BadKubeletCasesTest {

    private static final InputKind KIND = InputKind.KUBELET;
    private static final String SOCKET_DIR = "/host/kubelet-pod-resources";
    private static final String CONFIG_DIR = "/host/kubelet-config";
    /** The hung kubelet's case waits this long: its answer names it. */
    private static final Duration TIMEOUT = Duration.ofMillis(300);
    /**
     * Every other case: an answer comes (or the connection is refused) at once, but a loaded host can take longer
     * than {@link #TIMEOUT} to set the first gRPC channel up, and then the case would read as a hung kubelet.
     */
    private static final Duration PROMPT = Duration.ofSeconds(20);

    private static final String NO_WRITES = "the pins as they are: no cpuset is written while it lasts; the agent runs"
            + " on, serves PodResources and asks the kubelet again every reconcile period";

    @TempDir
    Path dir;

    static List<BadInput> cases() {
        return List.of(
                BadInput.of(
                        "kubelet-socket-stale",
                        KIND,
                        "a stopped kubelet's socket: the file is there, nobody accepts on it",
                        SOCKET_DIR + "/kubelet.sock left by a killed kubelet",
                        "KubeletConflict Unknown KubeletFileUnreadable: " + SOCKET_DIR + "/kubelet.sock: no kubelet"
                                + " answers on it (UNAVAILABLE): the kubelet is stopped or restarting, or the socket"
                                + " is stale; its CPU and memory manager policies are unknown, so the agent writes no"
                                + " cpuset until the kubelet answers",
                        NO_WRITES),
                BadInput.of(
                        "kubelet-hung",
                        KIND,
                        "a kubelet that takes the call and never answers",
                        "GetAllocatableResources held, kubeletCallTimeout 300ms",
                        "KubeletConflict Unknown KubeletFileUnreadable: " + SOCKET_DIR + "/kubelet.sock: the kubelet"
                                + " did not answer GetAllocatableResources within PT0.3S (kubeletCallTimeout); its CPU"
                                + " and memory manager policies are unknown, so the agent writes no cpuset until the"
                                + " kubelet answers",
                        NO_WRITES + "; after the first answer a hung call holds a reconcile tick at most 250 ms"),
                BadInput.of(
                        "kubelet-no-allocatable",
                        KIND,
                        "a kubelet without GetAllocatableResources",
                        "a gRPC server on the socket that serves no PodResourcesLister",
                        "KubeletConflict Unknown KubeletFileUnreadable: " + SOCKET_DIR + "/kubelet.sock: the kubelet"
                                + " does not serve GetAllocatableResources (a kubelet before 1.23, or its feature gate"
                                + " KubeletPodResourcesGetAllocatable is off): enable the gate, or leave"
                                + " kubeletCheckSocket empty (operator: kubeletRootDir) and rely on kubeletConfigFile;"
                                + " its CPU and memory manager policies are unknown, so the agent writes no cpuset"
                                + " until the kubelet answers",
                        NO_WRITES),
                BadInput.of(
                        "kubelet-socket-absent",
                        KIND,
                        "no kubelet socket in the mounted directory",
                        SOCKET_DIR + " empty (a kubelet that has not started yet), no configuration file",
                        "KubeletConflict False NotChecked: not checked: none of " + SOCKET_DIR + "/kubelet.sock exists",
                        "the agent pins as usual: nothing says the kubelet manages CPUs or memory"),
                BadInput.of(
                        "kubelet-config-policy-list",
                        KIND,
                        "a configuration file with a list for a policy, beside a kubelet that answers",
                        CONFIG_DIR + "/config.yaml: cpuManagerPolicy: [static]",
                        "KubeletConflict Unknown KubeletFileUnreadable: " + CONFIG_DIR + "/config.yaml"
                                + " cpuManagerPolicy is [\"static\"]: expected a string such as \"none\"; the agent"
                                + " writes no cpuset until the file is fixed or removed",
                        NO_WRITES.replace("asks the kubelet", "reads the file")));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void answeredExactlyAndKept(BadInput c) throws Exception {
        Path sockets = Files.createDirectory(dir.resolve("pr"));
        Path socket = sockets.resolve(KubeletFiles.KUBELET_SOCKET);
        Path configs = Files.createDirectory(dir.resolve("cfg"));
        Path config = configs.resolve("config.yaml");
        KubeletFiles files = new KubeletFiles(
                Optional.of(socket),
                c.id().equals("kubelet-config-policy-list") ? Optional.of(config) : Optional.empty());
        KubeletCheck check;
        switch (c.id()) {
            case "kubelet-socket-stale" -> {
                try (ServerSocketChannel dead = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
                    dead.bind(UnixDomainSocketAddress.of(socket));
                }
                check = once(files);
            }
            case "kubelet-hung" -> {
                try (FakeKubelet kubelet = FakeKubelet.start(socket)) {
                    kubelet.hold();
                    check = once(files, TIMEOUT);
                }
            }
            case "kubelet-no-allocatable" -> {
                try (DomainSocketServer nothing = DomainSocketServer.start(socket, List.of())) {
                    check = once(files);
                }
            }
            case "kubelet-socket-absent" -> check = once(files);
            case "kubelet-config-policy-list" -> {
                Files.writeString(config, "cpuManagerPolicy: [static]\n");
                try (FakeKubelet kubelet = FakeKubelet.start(socket)) {
                    check = once(files);
                }
            }
            default -> throw new IllegalArgumentException(c.id());
        }
        Condition condition = ConditionBook.empty()
                .withKubelet(check, Instant.EPOCH)
                .conditions()
                .getFirst();
        c.assertAnswer(List.of((condition.getType() + " " + condition.getStatus() + " " + condition.getReason() + ": "
                        + condition.getMessage())
                .replace(sockets.toString(), SOCKET_DIR)
                .replace(configs.toString(), CONFIG_DIR)));
        assertThat(check.agentMayWrite()).isEqualTo(c.id().equals("kubelet-socket-absent"));
    }

    private static KubeletCheck once(KubeletFiles files) {
        return once(files, PROMPT);
    }

    private static KubeletCheck once(KubeletFiles files, Duration timeout) {
        try (KubeletCheckCache cache = new KubeletCheckCache(files, timeout)) {
            return cache.get();
        }
    }

    @Test
    void theDocIsUpToDate() {
        assertThat(BadInputDoc.check(KIND, cases(), "node-agent", getClass().getSimpleName()))
                .isNull();
    }
}
