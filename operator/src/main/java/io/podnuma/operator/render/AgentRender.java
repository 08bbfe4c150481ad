package io.podnuma.operator.render;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.DaemonSetBuilder;
import io.podnuma.crds.agent.v1alpha1.NodeAgentConfig;
import io.podnuma.crds.agent.v1alpha1.NodeAgentConfigYaml;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.crds.v1alpha1.policy.CpuPartition;
import io.podnuma.crds.v1alpha1.policy.PolicyHash;
import io.podnuma.crds.v1alpha1.policy.validation.PolicyValidator;
import io.podnuma.logging.LogFormat;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A policy and the rollout settings → the agent's ConfigMap, DaemonSet, headless metrics Service and ServiceMonitor.
 * The config file is the one {@code node-agent run} reads ({@link NodeAgentConfig}), with the paths as the container
 * sees its host mounts; the node name comes from the downward API. The policy's {@code nodeSelector} and
 * {@code priority} are left out of the file: they decide which nodes run the agent, not what it does there, so
 * changing them rolls no agent.
 */
public final class AgentRender {

    /** The node label that puts a node under a policy: the DaemonSet selects nodes by it. */
    public static final String POLICY_LABEL = "podnuma.io/policy";
    /** On the pod template: a new config file makes a new template, and the DaemonSet rolls. */
    public static final String CONFIG_HASH_ANNOTATION = "podnuma.io/config-hash";

    public static final String CONFIG_KEY = "agent.yaml";
    static final String CONFIG_DIR = "/etc/podnuma";
    static final String SYS = "/host/sys";
    static final String CGROUP = "/host/cgroup";
    static final String STATE = "/var/lib/podnuma";
    /** The directory of the PodResources socket, a host directory of its own (so the socket can be anywhere). */
    static final String SOCKET_DIR = "/run/podnuma/pod-resources";
    /**
     * The directory of the runtime's NRI socket in the container, a host directory of its own: the runtime makes the
     * socket there when it starts (or never, with NRI off), so the directory is mounted, not the socket.
     */
    static final String NRI_DIR = "/var/run/podnuma-nri";

    static final String TMP = "/tmp";

    /** Where the agent reads the serving certificate of {@code /metrics} over https, when a Secret is given. */
    static final String METRICS_TLS_DIR = "/run/podnuma/metrics-tls";

    /** The token Prometheus sends when it scrapes an https agent: its own ServiceAccount's. */
    static final String SCRAPER_TOKEN_FILE = "/var/run/secrets/kubernetes.io/serviceaccount/token";

    /**
     * The kubelet's PodResources socket directory in the container. Only this directory of the kubelet's root is
     * mounted: the root also holds the kubelet's client key ({@code pki/}), the device plugin socket
     * ({@code device-plugins/kubelet.sock}) and every pod's volumes. A single-file mount of the kubelet's state files
     * would not do either: the kubelet replaces them by a rename and the mount keeps the old file.
     */
    static final String KUBELET_POD_RESOURCES = "/host/kubelet-pod-resources";

    static final String KUBELET_SOCKET = "kubelet.sock";
    static final String KUBELET_CONFIG_DIR = "/host/kubelet-config";
    static final String KUBELET_CONFIG = KUBELET_CONFIG_DIR + "/config.yaml";
    static final String NAME_PREFIX = "podnuma-agent-";
    /** A Service name is a DNS-1035 label of at most 63 characters. */
    static final int MAX_POLICY_NAME = 63 - NAME_PREFIX.length();

    private static final Pattern DNS_1035 = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");

    private AgentRender() {}

    /** The objects for policy {@code name}; refuses a spec the agent would refuse, with the agent's messages. */
    public static RenderedAgent render(String name, NumaResourcePolicySpec spec, AgentRollout rollout) {
        NumaResourcePolicySpec inForce = new NumaResourcePolicySpec(
                null,
                null,
                spec.topologyManager(),
                spec.cpuManager(),
                spec.memoryManager(),
                spec.podLevelResources(),
                spec.admission(),
                spec.exportNodeResourceTopology());
        // Every problem at once: the name first, then the spec's in the validator's order.
        List<String> problems = new ArrayList<>();
        nameProblem(name).ifPresent(problems::add);
        problems.addAll(PolicyValidator.validate(inForce, "spec"));
        if (problems.size() == 1 && nameProblem(name).isPresent()) {
            throw new IllegalArgumentException(problems.getFirst());
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(
                    "policy " + name + " cannot be rendered: " + String.join("; ", problems));
        }
        String file = NodeAgentConfigYaml.write(agentConfig(name, inForce, rollout));
        String configHash = sha256(file);
        // The hash of the policy as the agent will read it back from the file, so both sides hash the same value.
        String policyHash = PolicyHash.of(NodeAgentConfigYaml.read(file).policy());
        Map<String, String> labels = labels(name, rollout.podLabels());
        ConfigMap configMap = new ConfigMapBuilder()
                .withMetadata(meta(name, rollout, labels))
                .withData(Map.of(CONFIG_KEY, file))
                .build();
        return new RenderedAgent(
                configMap,
                daemonSet(
                        name,
                        rollout,
                        labels,
                        configHash,
                        rollout.cpusetPartitions() && inForce.cpuManager().partition() != CpuPartition.NONE),
                service(name, rollout, labels),
                rollout.serviceMonitor()
                        .map(monitor -> serviceMonitor(name, rollout, labels(name, monitor.extraLabels()))),
                configHash,
                policyHash);
    }

    /** The name of every object of policy {@code name}. */
    public static String objectName(String name) {
        return NAME_PREFIX + name;
    }

    /** The labels that select policy {@code name}'s agent pods. */
    public static Map<String, String> selector(String name) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put(AgentLabels.NAME, "podnuma-agent");
        s.put(POLICY_LABEL, name);
        return s;
    }

    static NodeAgentConfig agentConfig(String name, NumaResourcePolicySpec inForce, AgentRollout rollout) {
        AgentHostPaths host = rollout.hostPaths();
        NodeAgentConfig.Builder b = NodeAgentConfig.builder()
                .policy(inForce)
                .policyName(name)
                .sysfsRoot(SYS)
                .cgroupRoot(CGROUP)
                .stateDir(STATE)
                .podResourcesSocket(SOCKET_DIR + "/" + host.podResourcesSocketName())
                .metricsPort(rollout.metricsPort())
                .healthPort(rollout.healthPort())
                .logLevel(rollout.logLevel().wireName())
                .pinning(rollout.pinning().wire());
        if (rollout.pinning().usesNri()) {
            // With cgroup the agent never reads these: leaving them out keeps a change of them from rolling it.
            b.nriSocket(NRI_DIR + "/" + host.nriSocketName()).nriPluginIndex(rollout.nriPluginIndex());
        }
        // One socket, two readers: the coexistence check, and the devices the kubelet gave (a pod's placement follows
        // its devices; the agent's PodResources answers show them).
        host.kubeletRootDir()
                .ifPresent(d -> b.kubeletCheckSocket(KUBELET_POD_RESOURCES + "/" + KUBELET_SOCKET)
                        .kubeletPodResourcesSocket(KUBELET_POD_RESOURCES + "/" + KUBELET_SOCKET));
        host.kubeletConfigFile().ifPresent(f -> b.kubeletConfigFile(KUBELET_CONFIG));
        if (rollout.logFormat() != LogFormat.TEXT) {
            // Like the NRI keys: an agent's default left out of the file, so an operator upgrade that brings the key
            // does not roll every agent of the cluster.
            b.logFormat(rollout.logFormat().wireName());
        }
        rollout.reconcilePeriod().ifPresent(d -> b.reconcilePeriod(duration(d)));
        rollout.statusMinInterval().ifPresent(d -> b.statusMinInterval(duration(d)));
        rollout.secureMetrics().ifPresent(secure -> {
            b.metricsSecurity("https");
            secure.certSecret()
                    .ifPresent(s -> b.metricsCertFile(METRICS_TLS_DIR + "/tls.crt")
                            .metricsKeyFile(METRICS_TLS_DIR + "/tls.key"));
            secure.cacheTtl().ifPresent(d -> b.metricsAuthCacheTtl(duration(d)));
        });
        return b.build();
    }

    private static DaemonSet daemonSet(
            String name, AgentRollout rollout, Map<String, String> labels, String configHash, boolean partitions) {
        boolean hostNetwork = rollout.network() == PodNetwork.HOST;
        return new DaemonSetBuilder()
                .withMetadata(meta(name, rollout, labels))
                .withNewSpec()
                .withNewSelector()
                .withMatchLabels(selector(name))
                .endSelector()
                .withNewUpdateStrategy()
                .withType("RollingUpdate")
                .withNewRollingUpdate()
                .withMaxUnavailable(intOrPercent(rollout.maxUnavailable()))
                .withMaxSurge(new IntOrString(0))
                .endRollingUpdate()
                .endUpdateStrategy()
                .withRevisionHistoryLimit(10)
                .withNewTemplate()
                .withNewMetadata()
                .withLabels(labels)
                .withAnnotations(podAnnotations(rollout, configHash))
                .endMetadata()
                .withNewSpec()
                .withServiceAccountName(rollout.serviceAccountName())
                // Service links would put variables such as PODNUMA_METRICS_PORT=tcp://... (a Service named
                // podnuma-metrics) into the environment, where the agent reads its settings.
                .withEnableServiceLinks(false)
                .withPriorityClassName(rollout.priorityClassName().orElse(null))
                .withHostNetwork(hostNetwork ? true : null)
                .withDnsPolicy(hostNetwork ? "ClusterFirstWithHostNet" : "ClusterFirst")
                .withNodeSelector(nodeSelector(name, rollout))
                .withTolerations(tolerations(rollout))
                .withAffinity(rollout.extras().affinity().orElse(null))
                .withTerminationGracePeriodSeconds(30L)
                .withRestartPolicy("Always")
                .withSchedulerName("default-scheduler")
                .withContainers(container(rollout, partitions))
                .withVolumes(volumes(name, rollout))
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
    }

    /** The extra annotations and the config hash (the rollout refuses an extra one of the hash's key). */
    private static Map<String, String> podAnnotations(AgentRollout rollout, String configHash) {
        Map<String, String> annotations = new TreeMap<>(rollout.podAnnotations());
        annotations.put(CONFIG_HASH_ANNOTATION, configHash);
        return annotations;
    }

    private static Map<String, String> nodeSelector(String name, AgentRollout rollout) {
        Map<String, String> terms = new TreeMap<>(rollout.nodeSelector());
        terms.put(POLICY_LABEL, name);
        return terms;
    }

    private static List<Toleration> tolerations(AgentRollout rollout) {
        return rollout.tolerations().stream()
                .map(t -> new TolerationBuilder()
                        .withKey(t.key().orElse(null))
                        .withOperator(t.operator().wire())
                        .withValue(t.value().orElse(null))
                        .withEffect(t.effect().map(TaintEffect::wire).orElse(null))
                        .withTolerationSeconds(t.tolerationSeconds().orElse(null))
                        .build())
                .toList();
    }

    private static Container container(AgentRollout rollout, boolean partitions) {
        List<EnvVar> env = new ArrayList<>();
        env.add(new EnvVarBuilder()
                .withName("PODNUMA_NODE_NAME")
                .withNewValueFrom()
                .withNewFieldRef()
                .withApiVersion("v1")
                .withFieldPath("spec.nodeName")
                .endFieldRef()
                .endValueFrom()
                .build());
        rollout.apiServer().ifPresent(api -> {
            env.add(new EnvVar("KUBERNETES_SERVICE_HOST", api.host(), null));
            env.add(new EnvVar("KUBERNETES_SERVICE_PORT", Integer.toString(api.port()), null));
        });
        rollout.extras().env().forEach(e -> env.add(new EnvVar(e.name(), e.value(), null)));
        List<String> args = new ArrayList<>(List.of("run", "--config", CONFIG_DIR + "/" + CONFIG_KEY));
        args.addAll(rollout.extras().args());
        return new ContainerBuilder()
                .withName("agent")
                .withImage(rollout.image())
                .withImagePullPolicy(rollout.pullPolicy().wire())
                .withArgs(args)
                .withEnv(env)
                .addNewPort()
                .withName("metrics")
                .withContainerPort(rollout.metricsPort())
                .withProtocol("TCP")
                .endPort()
                .addNewPort()
                .withName("health")
                .withContainerPort(rollout.healthPort())
                .withProtocol("TCP")
                .endPort()
                .withNewResources()
                .withRequests(rollout.requests().isEmpty() ? null : rollout.requests())
                .withLimits(rollout.limits().isEmpty() ? null : rollout.limits())
                .endResources()
                // Each probe is a connection and a request on every node, all the time, so readiness and liveness
                // run at the kubelet's default period. Ready comes at once anyway: /startupz succeeds when the agent
                // is ready (or after its 30 s start grace, so an agent that cannot sync is not restarted), asked
                // every second, and the kubelet runs the readiness probe as soon as the startup probe succeeds.
                // A hung agent restarted after 30 s rather than 12 s costs no pin (the cpusets stay as written).
                // Two minutes for the JVM to serve /startupz at all: on a starved node (an emulated one took over a
                // minute) a shorter window restarts the agent before it ever answers, and every restart starts over.
                .withStartupProbe(probe("/startupz", rollout.healthPort(), 1, 120))
                .withReadinessProbe(probe("/readyz", rollout.healthPort(), 10, 3))
                .withLivenessProbe(probe("/healthz", rollout.healthPort(), 10, 3))
                .withSecurityContext(AgentSecurity.containerContext(partitions))
                .withVolumeMounts(mounts(rollout))
                .withTerminationMessagePath("/dev/termination-log")
                .withTerminationMessagePolicy("FallbackToLogsOnError")
                .build();
    }

    private static Probe probe(String path, int port, int periodSeconds, int failureThreshold) {
        return new ProbeBuilder()
                .withNewHttpGet()
                .withPath(path)
                .withPort(new IntOrString(port))
                .withScheme("HTTP")
                .endHttpGet()
                .withPeriodSeconds(periodSeconds)
                .withTimeoutSeconds(1)
                .withSuccessThreshold(1)
                .withFailureThreshold(failureThreshold)
                .build();
    }

    private static List<VolumeMount> mounts(AgentRollout rollout) {
        List<VolumeMount> m = new ArrayList<>();
        m.add(mount("config", CONFIG_DIR, true));
        m.add(mount("host-sys", SYS, true));
        // Read-write as a whole (issue 31). A read-only cgroup root plus a read-write mount of only the subtree the
        // agent writes cannot be rendered safely here:
        // - the subtree differs per node, and one DaemonSet serves all of a policy's nodes: v1 or v2, kubepods or
        //   kubepods.slice (the kubelet's cgroup driver), the kubelet's --cgroup-root, and on v1 two hierarchies with
        //   per-node mount names (cpuset, and cpu,cpuacct or cpu for the quota). The agent finds them at start; the
        //   operator knows none of them.
        // - a hostPath for a directory a node lacks either keeps the pod from starting (Directory) or is made by mkdir
        //   (DirectoryOrCreate), and mkdir on a cgroup file system creates a cgroup.
        // - on v2 the agent passes cpuset down from the hierarchy root (+cpuset in the root's cgroup.subtree_control),
        //   outside kubepods.
        // - on v1 the node's /sys/fs/cgroup is a tmpfs with one mount per hierarchy below it: readOnly makes only the
        //   tmpfs read-only, the hierarchies stay writable (recursiveReadOnly needs Kubernetes 1.30+ and a runtime and
        //   kernel that support it).
        // The agent confines its writes instead: HostCgroupFiles writes only the WritableCgroupFile files, inside the
        // hierarchies it detected, links resolved (operator README, "The cgroup mount").
        m.add(mount("host-cgroup", CGROUP, false));
        m.add(mount("state", STATE, false));
        m.add(mount("pod-resources", SOCKET_DIR, false));
        // The root filesystem is read-only: temporary files of the JVM and its libraries go here.
        m.add(mount("tmp", TMP, false));
        if (rollout.pinning().usesNri()) {
            // Read-only is enough: connecting to a unix socket needs write permission on the socket file, which a
            // read-only mount does not take away; the agent makes nothing there.
            m.add(mount("nri", NRI_DIR, true));
        }
        if (certSecret(rollout).isPresent()) {
            m.add(mount("metrics-tls", METRICS_TLS_DIR, true));
        }
        // Read-only is enough to dial the kubelet's socket (as for NRI above).
        rollout.hostPaths()
                .kubeletRootDir()
                .ifPresent(d -> m.add(mount("kubelet-pod-resources", KUBELET_POD_RESOURCES, true)));
        rollout.hostPaths().kubeletConfigFile().ifPresent(f -> m.add(mount("kubelet-config", KUBELET_CONFIG, true)));
        return m;
    }

    private static VolumeMount mount(String volume, String path, boolean readOnly) {
        return new VolumeMountBuilder()
                .withName(volume)
                .withMountPath(path)
                .withReadOnly(readOnly ? true : null)
                .build();
    }

    private static List<Volume> volumes(String name, AgentRollout rollout) {
        AgentHostPaths host = rollout.hostPaths();
        List<Volume> v = new ArrayList<>();
        v.add(new VolumeBuilder()
                .withName("config")
                .withNewConfigMap()
                .withName(objectName(name))
                .withDefaultMode(0444)
                .endConfigMap()
                .build());
        v.add(hostPath("host-sys", host.sys(), "Directory"));
        v.add(hostPath("host-cgroup", host.cgroup(), "Directory"));
        v.add(hostPath("state", host.stateDir(), "DirectoryOrCreate"));
        v.add(hostPath("pod-resources", host.podResourcesSocketDir(), "DirectoryOrCreate"));
        v.add(new VolumeBuilder()
                .withName("tmp")
                .withNewEmptyDir()
                .withSizeLimit(new Quantity("16Mi"))
                .endEmptyDir()
                .build());
        if (rollout.pinning().usesNri()) {
            // DirectoryOrCreate: a runtime with NRI off has no such directory, and the pod must start anyway.
            v.add(hostPath("nri", host.nriSocketDir(), "DirectoryOrCreate"));
        }
        certSecret(rollout)
                .ifPresent(secret -> v.add(new VolumeBuilder()
                        .withName("metrics-tls")
                        .withNewSecret()
                        .withSecretName(secret)
                        .withDefaultMode(0400)
                        .endSecret()
                        .build()));
        host.kubeletPodResourcesDir().ifPresent(d -> v.add(hostPath("kubelet-pod-resources", d, "Directory")));
        host.kubeletConfigFile().ifPresent(f -> v.add(hostPath("kubelet-config", f, "File")));
        return v;
    }

    private static java.util.Optional<String> certSecret(AgentRollout rollout) {
        return rollout.secureMetrics().flatMap(AgentSecureMetrics::certSecret);
    }

    /**
     * The kubelet's files must exist (type Directory or File): the agent never creates them, and a missing one keeps
     * the pod from starting. The agent's own directories are made when missing (DirectoryOrCreate).
     */
    private static Volume hostPath(String volume, String path, String type) {
        return new VolumeBuilder()
                .withName(volume)
                .withNewHostPath()
                .withPath(path)
                .withType(type)
                .endHostPath()
                .build();
    }

    private static Service service(String name, AgentRollout rollout, Map<String, String> labels) {
        return new ServiceBuilder()
                .withMetadata(meta(name, rollout, labels))
                .withNewSpec()
                .withClusterIP("None")
                .withSelector(selector(name))
                .addNewPort()
                .withName("metrics")
                .withPort(rollout.metricsPort())
                .withTargetPort(new IntOrString("metrics"))
                .withProtocol("TCP")
                .withAppProtocol(rollout.secureMetrics().isPresent() ? "https" : null)
                .endPort()
                .endSpec()
                .build();
    }

    private static GenericKubernetesResource serviceMonitor(
            String name, AgentRollout rollout, Map<String, String> labels) {
        return new GenericKubernetesResourceBuilder()
                .withApiVersion("monitoring.coreos.com/v1")
                .withKind("ServiceMonitor")
                .withMetadata(meta(name, rollout, labels))
                .addToAdditionalProperties(
                        "spec",
                        Map.of(
                                "selector", Map.of("matchLabels", selector(name)),
                                "namespaceSelector", Map.of("matchNames", List.of(rollout.namespace())),
                                "endpoints", List.of(endpoint(rollout))))
                .build();
    }

    /**
     * Plain: the port and path. Secure: https with the token of the scrape token Secret (the chart's metrics-scraper
     * ServiceAccount, bound to its metrics-reader ClusterRole), else Prometheus's own ServiceAccount token; a
     * self-signed agent certificate cannot be verified, so it is only
     * encrypted, while a Secret's certificate is verified against the Secret's {@code ca.crt} for the name
     * {@code podnuma-agent.<namespace>.svc}.
     */
    private static Map<String, Object> endpoint(AgentRollout rollout) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("port", "metrics");
        e.put("path", "/metrics");
        // The agent exports no label naming its node or policy: its target's pod says both, as the chart's PodMonitor
        // relabels them, so the dashboard's node and policy variables select agents on either path.
        e.put(
                "relabelings",
                List.of(
                        Map.of("sourceLabels", List.of("__meta_kubernetes_pod_node_name"), "targetLabel", "node"),
                        Map.of(
                                "sourceLabels",
                                List.of("__meta_kubernetes_pod_label_podnuma_io_policy"),
                                "targetLabel",
                                "policy")));
        if (rollout.secureMetrics().isPresent()) {
            e.put("scheme", "https");
            rollout.secureMetrics()
                    .flatMap(AgentSecureMetrics::scrapeTokenSecret)
                    .ifPresentOrElse(
                            secret -> e.put(
                                    "authorization",
                                    Map.of("type", "Bearer", "credentials", Map.of("name", secret, "key", "token"))),
                            () -> e.put("bearerTokenFile", SCRAPER_TOKEN_FILE));
            e.put(
                    "tlsConfig",
                    certSecret(rollout)
                            .<Map<String, Object>>map(secret -> Map.of(
                                    "ca",
                                    Map.of("secret", Map.of("name", secret, "key", "ca.crt")),
                                    "serverName",
                                    "podnuma-agent." + rollout.namespace() + ".svc"))
                            .orElse(Map.of("insecureSkipVerify", true)));
        }
        return e;
    }

    private static ObjectMeta meta(String name, AgentRollout rollout, Map<String, String> labels) {
        return new ObjectMetaBuilder()
                .withName(objectName(name))
                .withNamespace(rollout.namespace())
                .withLabels(labels)
                .build();
    }

    /**
     * The operator's labels with {@code extra} ones; an extra label may replace the informational instance, component
     * and part-of labels, never those the operator selects by ({@link AgentLabels#RESERVED}, refused earlier).
     */
    private static Map<String, String> labels(String name, Map<String, String> extra) {
        Map<String, String> l = new LinkedHashMap<>();
        l.put(AgentLabels.NAME, "podnuma-agent");
        l.put("app.kubernetes.io/instance", name);
        l.put("app.kubernetes.io/component", "node-agent");
        l.put("app.kubernetes.io/part-of", "podnuma");
        l.put(AgentLabels.MANAGED_BY, "podnuma-operator");
        l.put(POLICY_LABEL, name);
        l.putAll(extra);
        return l;
    }

    private static java.util.Optional<String> nameProblem(String name) {
        if (name == null
                || name.length() > MAX_POLICY_NAME
                || !DNS_1035.matcher(name).matches()) {
            return java.util.Optional.of("policy name '" + name + "' cannot name its agents' objects:"
                    + " allowed at most " + MAX_POLICY_NAME + " characters of a-z, 0-9 and '-', starting with a"
                    + " letter and ending with a letter or digit (it becomes the Service " + NAME_PREFIX
                    + "<name> and the node label value)");
        }
        return java.util.Optional.empty();
    }

    private static IntOrString intOrPercent(String budget) {
        return budget.endsWith("%") ? new IntOrString(budget) : new IntOrString(Integer.parseInt(budget));
    }

    static String duration(Duration d) {
        long millis = d.toMillis();
        return millis % 1000 == 0 ? (millis / 1000) + "s" : millis + "ms";
    }

    private static String sha256(String text) {
        try {
            return "sha256:"
                    + java.util.HexFormat.of()
                            .formatHex(
                                    MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("no SHA-256", e);
        }
    }
}
