package io.podnuma.testkit.agent;

import io.fabric8.kubernetes.api.model.Pod;
import io.grpc.ManagedChannel;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.podresources.DomainSocketChannels;
import io.podnuma.podresources.v1.AllocatableResourcesRequest;
import io.podnuma.podresources.v1.ListPodResourcesRequest;
import io.podnuma.podresources.v1.PodResourcesListerGrpc;
import io.podnuma.testkit.GeneratedCrds;
import io.podnuma.testkit.host.CgroupDriverName;
import io.podnuma.testkit.host.KubeletLikeHost;
import io.podnuma.testkit.pods.RunningPods;
import io.podnuma.testkit.pods.SamplePods;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The workload a cache of the agent's classes is trained on (the JDK's AOT cache, or a dynamic CDS archive): what a
 * node makes an agent load and run. The agent on a node of its own with {@link Workload#pods()} Running pods (kwok
 * runs them; their cgroups are real, on a {@link KubeletLikeHost}), through start-up, the informer's list over TLS,
 * full sync, pinning, {@code /metrics} and PodResources calls, then SIGTERM: a JVM started with a training flag
 * writes the cache as it exits. Used by the agent bench and by the agent image's build.
 */
public final class ClassCacheTraining {

    /** The pods on the node, the containers of each, and how many {@code List} + {@code GetAllocatableResources}. */
    public record Workload(int pods, int containersPerPod, int podResourcesCalls) {
        /** The agent bench's node (110 pods, the kubelet's default limit) with two containers a pod. */
        public static final Workload NODE = new Workload(110, 2, 500);

        public Workload {
            if (pods < 1 || containersPerPod < 1 || podResourcesCalls < 0) {
                throw new IllegalArgumentException(
                        "workload: pods and containers per pod at least 1, calls not negative: " + this);
            }
        }
    }

    /** How the training run ended: the agent's exit code after SIGTERM and the time from start to exit. */
    public record Result(int exitCode, Duration took) {}

    private ClassCacheTraining() {}

    /**
     * Runs the workload on {@code cp} (with kwok for the node): {@code runtime}'s agent started with {@code jvmFlags},
     * which name the cache to write. Everything it created (namespace, node, cgroups) is removed again.
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
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String ns = "cache-training-" + suffix;
        String node = null;
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
            try (AgentProcess agent = AgentProcess.withConfig(
                    workDir.resolve("agent"), SampleConfigs.benchNode(node, policy, host), cp.kubeconfig())) {
                long t0 = System.nanoTime();
                agent.start(runtime, jvmFlags);
                agent.awaitReady(Duration.ofSeconds(120));
                callPodResources(agent.socket(), workload.podResourcesCalls());
                agent.metrics();
                int exit = agent.terminate(Duration.ofMinutes(3));
                return new Result(exit, Duration.ofNanos(System.nanoTime() - t0));
            }
        } finally {
            cp.kubectl("delete", "namespace", ns, "--wait=false", "--ignore-not-found");
            if (node != null) {
                cp.kubectl("delete", "node", node, "--wait=false", "--ignore-not-found");
            }
        }
    }

    private static void callPodResources(Path socket, int calls) {
        ManagedChannel channel = DomainSocketChannels.open(socket);
        try {
            var stub = PodResourcesListerGrpc.newBlockingStub(channel);
            for (int i = 0; i < calls; i++) {
                stub.withDeadlineAfter(5, TimeUnit.SECONDS).list(ListPodResourcesRequest.getDefaultInstance());
                stub.withDeadlineAfter(5, TimeUnit.SECONDS)
                        .getAllocatableResources(AllocatableResourcesRequest.getDefaultInstance());
            }
        } finally {
            channel.shutdownNow();
        }
    }
}
