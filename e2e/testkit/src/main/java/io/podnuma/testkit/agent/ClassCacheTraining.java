package io.podnuma.testkit.agent;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.crds.agent.v1alpha1.NodeAgentConfig;
import io.podnuma.nri.v1alpha1.PodSandbox;
import io.podnuma.podresources.DomainSocketChannels;
import io.podnuma.podresources.v1.AllocatableResourcesRequest;
import io.podnuma.podresources.v1.ListPodResourcesRequest;
import io.podnuma.podresources.v1.PodResourcesListerGrpc;
import io.podnuma.testkit.GeneratedCrds;
import io.podnuma.testkit.host.CgroupDriverName;
import io.podnuma.testkit.host.KubeletLikeHost;
import io.podnuma.testkit.nri.HarnessOptions;
import io.podnuma.testkit.nri.NriMessages;
import io.podnuma.testkit.nri.NriRuntimeHarness;
import io.podnuma.testkit.pods.RunningPods;
import io.podnuma.testkit.pods.SamplePods;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The workload a cache of the agent's classes is trained on (the JDK's AOT cache, or a dynamic CDS archive): what a
 * node makes an agent load and run. The agent on a node of its own with {@link Workload#pods()} Running pods (kwok
 * runs them; their cgroups are real, on a {@link KubeletLikeHost}), through start-up, the informer's list over TLS,
 * full sync, pinning, {@code /metrics} and PodResources calls, then SIGTERM: a JVM started with a training flag
 * writes the cache as it exits. With {@link Pinning#NRI} the agent is also the NRI plugin of a runtime (the test
 * kit's harness of the upstream adaptation library), as the chart runs it on a node with containerd: registered,
 * synchronized, and asked for the containers of a few pods. Used by the agent bench and by the agent image's build.
 */
public final class ClassCacheTraining {

    /** How the trained agent pins: its cgroup writer only, or also as the runtime's NRI plugin. */
    public enum Pinning {
        CGROUP,
        NRI
    }

    /** The pods on the node, the containers of each, how many {@code List} + {@code GetAllocatableResources}. */
    public record Workload(int pods, int containersPerPod, int podResourcesCalls, Pinning pinning) {
        /** A full node as the chart runs the agent there: 110 pods (the kubelet's limit) of 3 containers, NRI. */
        public static final Workload NODE = new Workload(110, 3, 500, Pinning.NRI);

        /** Containers announced over NRI when {@link Pinning#NRI}: enough to load that path, not every one. */
        static final int NRI_PODS = 10;

        public Workload {
            if (pods < 1 || containersPerPod < 1 || podResourcesCalls < 0) {
                throw new IllegalArgumentException(
                        "workload: pods and containers per pod at least 1, calls not negative: " + this);
            }
            java.util.Objects.requireNonNull(pinning, "pinning");
        }
    }

    /**
     * How the training run ended: the agent's exit code after SIGTERM, the time from start to exit, and why the NRI
     * path was left out when it was asked for but this machine has no harness (no Go).
     */
    public record Result(int exitCode, Duration took, Optional<String> nriLeftOut) {}

    private ClassCacheTraining() {}

    /**
     * Runs the workload on {@code cp} (with kwok for the node): {@code runtime}'s agent started with {@code jvmFlags},
     * which name the cache to write. Everything it created (namespace, node, cgroups, the NRI harness) is removed.
     *
     * @param policy the policy name the node's label and the agent's config carry
     */
    public static Result run(
            ControlPlane cp,
            AgentRuntime runtime,
            List<String> jvmFlags,
            Workload workload,
            String policy,
            Path workDir)
            throws Exception {
        cp.installCrds(GeneratedCrds.numaNodeStates());
        Optional<String> nriLeftOut = workload.pinning() == Pinning.NRI
                ? NriRuntimeHarness.whyUnavailable().map(why -> "no NRI runtime harness: " + why)
                : Optional.empty();
        boolean nri = workload.pinning() == Pinning.NRI && nriLeftOut.isEmpty();
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String ns = "cache-training-" + suffix;
        String node = null;
        NriRuntimeHarness harness = null;
        try (KubeletLikeHost host = KubeletLikeHost.create(CgroupDriverName.SYSTEMD, "training")) {
            Map<String, String> allocatable = Map.of(
                    "cpu",
                    String.valueOf(host.cpus().size()),
                    "memory",
                    "8Gi",
                    "pods",
                    String.valueOf(workload.pods()));
            node = cp.ensureNode("cache-training-" + suffix, Map.of("podnuma.io/policy", policy), allocatable);
            cp.kubectl("create", "namespace", ns).assertSuccess();
            List<Pod> pods = RunningPods.createAllRunning(
                    cp, ns, SamplePods.benchNode(node, workload.pods(), workload.containersPerPod()));
            for (Pod p : pods) {
                host.createPod(RunningPods.qos(p), p.getMetadata().getUid());
            }
            NodeAgentConfig.Builder config = SampleConfigs.benchNode(node, policy, host);
            if (nri) {
                Path socket = workDir.resolve("nri/nri.sock");
                harness = NriRuntimeHarness.start(
                        NriRuntimeHarness.build(workDir.resolve("nri-bin")),
                        socket,
                        HarnessOptions.CONTAINERD_DEFAULTS);
                config.pinning("auto").nriSocket(socket.toString());
            }
            try (AgentProcess agent =
                    AgentProcess.withConfig(workDir.resolve("agent"), config.build(), cp.kubeconfig())) {
                long t0 = System.nanoTime();
                agent.start(runtime, jvmFlags);
                agent.awaitReady(Duration.ofSeconds(120));
                if (harness != null) {
                    announce(harness, pods.subList(0, Math.min(Workload.NRI_PODS, pods.size())));
                }
                callPodResources(agent.socket(), workload.podResourcesCalls());
                agent.metrics();
                int exit = agent.terminate(Duration.ofMinutes(3));
                return new Result(exit, Duration.ofNanos(System.nanoTime() - t0), nriLeftOut);
            }
        } finally {
            if (harness != null) {
                harness.close();
            }
            cp.kubectl("delete", "namespace", ns, "--wait=false", "--ignore-not-found");
            if (node != null) {
                cp.kubectl("delete", "node", node, "--wait=false", "--ignore-not-found");
            }
        }
    }

    /** The runtime's events for {@code pods}' containers: the plugin's create, adjust and start paths run. */
    private static void announce(NriRuntimeHarness harness, List<Pod> pods) throws InterruptedException {
        harness.awaitPlugins(1, Duration.ofSeconds(60));
        for (Pod p : pods) {
            String sandboxId = "sandbox-" + p.getMetadata().getUid();
            PodSandbox sandbox = NriMessages.pod(
                    sandboxId,
                    p.getMetadata().getNamespace(),
                    p.getMetadata().getName(),
                    p.getMetadata().getUid());
            harness.runPodSandbox(sandbox);
            for (ContainerStatus s : p.getStatus().getContainerStatuses()) {
                String id = s.getContainerID().substring(s.getContainerID().indexOf("://") + 3);
                var container = NriMessages.container(id, sandboxId, s.getName());
                harness.createContainer(sandbox, container);
                harness.startContainer(sandbox, container);
            }
        }
    }

    private static void callPodResources(Path socket, int calls) {
        ManagedChannel channel = DomainSocketChannels.open(socket);
        try {
            var stub = PodResourcesListerGrpc.newBlockingStub(channel);
            for (int i = 0; i < calls; i++) {
                patiently(() -> stub.withDeadlineAfter(30, TimeUnit.SECONDS)
                        .list(ListPodResourcesRequest.getDefaultInstance()));
                patiently(() -> stub.withDeadlineAfter(30, TimeUnit.SECONDS)
                        .getAllocatableResources(AllocatableResourcesRequest.getDefaultInstance()));
            }
        } finally {
            channel.shutdownNow();
        }
    }

    /**
     * A training call, tried up to three times: it is there to run the agent's serving code, not to time it, and the
     * image is built beside the other modules' tests (a cold CI saw the JVM stall past a call's deadline).
     */
    private static void patiently(Runnable call) {
        for (int attempt = 1; ; attempt++) {
            try {
                call.run();
                return;
            } catch (StatusRuntimeException e) {
                Status.Code code = e.getStatus().getCode();
                if (attempt == 3 || (code != Status.Code.DEADLINE_EXCEEDED && code != Status.Code.UNAVAILABLE)) {
                    throw e;
                }
            }
        }
    }
}
