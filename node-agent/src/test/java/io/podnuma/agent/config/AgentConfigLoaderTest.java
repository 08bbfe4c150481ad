package io.podnuma.agent.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.podnuma.agent.cgroup.CgroupDriver;
import io.podnuma.agent.engine.node.NodeConfig;
import io.podnuma.agent.engine.topology.TopologyPolicyName;
import io.podnuma.agent.kubelet.KubeletFiles;
import io.podnuma.crds.agent.v1alpha1.LogLevel;
import io.podnuma.crds.agent.v1alpha1.NodeAgentConfig;
import io.podnuma.crds.agent.v1alpha1.NodeAgentConfigYaml;
import io.podnuma.logging.LogFormat;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class AgentConfigLoaderTest {

    static final String HEADER = "apiVersion: podnuma.io/v1alpha1\nkind: NodeAgentConfig\n";
    static final String POLICY = "policy:\n  cpuManager:\n    policy: static\n    reservedCpuCount: 2\n";
    static final String MINIMAL = HEADER + "nodeName: worker-1\n" + POLICY;
    static final String FILE = "agent.yaml";

    @TempDir
    Path dir;

    private static AgentConfig parse(String yaml) {
        return AgentConfigLoader.parse(yaml, FILE, Map.of(), Map.of());
    }

    @Test
    void aMinimalFileTakesEveryDocumentedDefault() {
        AgentConfig c = parse(MINIMAL);
        assertThat(c.nodeName()).isEqualTo("worker-1");
        assertThat(c.sysfsRoot()).isEqualTo(Path.of("/sys"));
        assertThat(c.cgroupRoot()).isEqualTo(Path.of("/sys/fs/cgroup"));
        assertThat(c.stateDir()).isEqualTo(Path.of("/var/lib/podnuma"));
        assertThat(c.podResourcesSocket()).isEqualTo(Path.of("/var/lib/podnuma/pod-resources/podnuma.sock"));
        assertThat(c.podResourcesSocketMode()).isEqualTo(0600);
        assertThat(c.kubeletPodResourcesSocket()).isEmpty();
        assertThat(c.metricsPort()).isEqualTo(9464);
        assertThat(c.healthPort()).isEqualTo(8081);
        assertThat(c.logLevel()).isEqualTo(LogLevel.INFO);
        assertThat(c.logFormat()).isEqualTo(LogFormat.TEXT);
        assertThat(c.reconcilePeriod()).isEqualTo(Duration.ofSeconds(10));
        assertThat(c.kubeletCheckSocket()).isEmpty();
        assertThat(c.kubeletConfigFile()).isEmpty();
        assertThat(c.metricsBindAddress()).isEqualTo("0.0.0.0");
        assertThat(c.healthBindAddress()).isEqualTo("0.0.0.0");
        assertThat(c.podResourcesQps()).isEqualTo(100.0);
        assertThat(c.podResourcesBurst()).isEqualTo(10);
        assertThat(c.kubeletCallTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(c.cgroupDriver()).as("auto").isEmpty();
        assertThat(c.exclusiveCpuQuota()).isEqualTo(ExclusiveCpuQuota.KEEP);
        assertThat(c.pinning()).isEqualTo(PinningMode.AUTO);
        assertThat(c.nri()).isEqualTo(new NriSettings(Path.of("/var/run/nri/nri.sock"), "podnuma", "40"));
        assertThat(c.statusMinInterval()).isEqualTo(Duration.ofSeconds(2));
        assertThat(c.kubeletFiles()).isEqualTo(new KubeletFiles(Optional.empty(), Optional.empty()));
        assertThat(c.nodeConfig().cpuPolicy()).isEqualTo(NodeConfig.CpuPolicy.STATIC);
        assertThat(c.nodeConfig().topologyPolicy()).isEqualTo(TopologyPolicyName.NONE);
        assertThat(c.policyHash()).matches("sha256:[0-9a-f]{64}");
    }

    @Test
    void everySettingIsReadFromTheFile() {
        AgentConfig c = parse(HEADER + """
                nodeName: gpu-7.example.com
                sysfsRoot: /host/sys
                cgroupRoot: /host/sys/fs/cgroup/
                stateDir: /var/lib/podnuma/../podnuma-state
                podResourcesSocket: /run/podnuma/pr.sock
                podResourcesSocketMode: "0660"
                kubeletPodResourcesSocket: /var/lib/kubelet/pod-resources/kubelet.sock
                metricsPort: 9100
                healthPort: "9101"
                logLevel: DEBUG
                logFormat: json
                reconcilePeriod: 1m30s
                kubeletCheckSocket: /var/lib/kubelet/pod-resources/kubelet.sock
                kubeletConfigFile: /etc/kubernetes/kubelet.yaml
                metricsBindAddress: "::1"
                healthBindAddress: node-7.internal.
                podResourcesQps: 2.5
                podResourcesBurst: 3
                kubeletCallTimeout: 1500ms
                cgroupDriver: systemd
                exclusiveCpuQuota: disable
                pinning: nri
                nriSocket: /run/containerd/nri//nri.sock
                nriPluginName: Podnuma_2.0+test-x
                nriPluginIndex: "05"
                statusMinInterval: 1m
                policy:
                  topologyManager:
                    policy: single-numa-node
                    scope: pod
                  cpuManager:
                    policy: static
                    reservedCpus: "0,64"
                  podLevelResources:
                    enabled: true
                    budgetAnnotation: example.com/budget
                """);
        assertThat(c.nodeName()).isEqualTo("gpu-7.example.com");
        assertThat(c.sysfsRoot()).isEqualTo(Path.of("/host/sys"));
        assertThat(c.cgroupRoot()).isEqualTo(Path.of("/host/sys/fs/cgroup"));
        assertThat(c.stateDir()).isEqualTo(Path.of("/var/lib/podnuma-state"));
        assertThat(c.podResourcesSocket()).isEqualTo(Path.of("/run/podnuma/pr.sock"));
        assertThat(c.podResourcesSocketMode()).isEqualTo(0660);
        assertThat(c.kubeletPodResourcesSocket()).contains(Path.of("/var/lib/kubelet/pod-resources/kubelet.sock"));
        assertThat(c.metricsPort()).isEqualTo(9100);
        assertThat(c.healthPort()).isEqualTo(9101);
        assertThat(c.logLevel()).isEqualTo(LogLevel.DEBUG);
        assertThat(c.logFormat()).isEqualTo(LogFormat.JSON);
        assertThat(c.reconcilePeriod()).isEqualTo(Duration.ofSeconds(90));
        assertThat(c.kubeletCheckSocket()).contains(Path.of("/var/lib/kubelet/pod-resources/kubelet.sock"));
        assertThat(c.kubeletConfigFile()).contains(Path.of("/etc/kubernetes/kubelet.yaml"));
        assertThat(c.metricsBindAddress()).isEqualTo("::1");
        assertThat(c.healthBindAddress()).isEqualTo("node-7.internal.");
        assertThat(c.podResourcesQps()).isEqualTo(2.5);
        assertThat(c.podResourcesBurst()).isEqualTo(3);
        assertThat(c.kubeletCallTimeout()).isEqualTo(Duration.ofMillis(1500));
        assertThat(c.cgroupDriver()).contains(CgroupDriver.SYSTEMD);
        assertThat(c.exclusiveCpuQuota()).isEqualTo(ExclusiveCpuQuota.DISABLE);
        assertThat(c.pinning()).isEqualTo(PinningMode.NRI);
        assertThat(c.nri())
                .isEqualTo(new NriSettings(Path.of("/run/containerd/nri/nri.sock"), "Podnuma_2.0+test-x", "05"));
        assertThat(c.statusMinInterval()).isEqualTo(Duration.ofMinutes(1));
        assertThat(c.kubeletFiles())
                .isEqualTo(new KubeletFiles(
                        Optional.of(Path.of("/var/lib/kubelet/pod-resources/kubelet.sock")),
                        Optional.of(Path.of("/etc/kubernetes/kubelet.yaml"))));
        assertThat(c.nodeConfig().topologyPolicy()).isEqualTo(TopologyPolicyName.SINGLE_NUMA_NODE);
        assertThat(c.nodeConfig().topologyScope()).isEqualTo(NodeConfig.TopologyScope.POD);
        assertThat(c.budgetAnnotation()).isEqualTo(Optional.of("example.com/budget"));
    }

    @Test
    void flagBeatsEnvironmentBeatsFileBeatsDefault() {
        String file =
                HEADER + "nodeName: from-file\nmetricsPort: 1001\nlogLevel: warn\nreconcilePeriod: 20s\n" + POLICY;
        Map<String, String> env = Map.of(
                "PODNUMA_NODE_NAME", "from-env",
                "PODNUMA_METRICS_PORT", "2002",
                "PODNUMA_STATE_DIR", "/env/state");
        Map<String, String> flags = Map.of("node-name", "from-flag", "state-dir", "/flag/state");
        AgentConfig c = AgentConfigLoader.parse(file, FILE, flags, env);
        assertThat(c.nodeName()).as("flag > env > file").isEqualTo("from-flag");
        assertThat(c.stateDir()).as("flag > env > default").isEqualTo(Path.of("/flag/state"));
        assertThat(c.metricsPort()).as("env > file").isEqualTo(2002);
        assertThat(c.logLevel()).as("file > default").isEqualTo(LogLevel.WARN);
        assertThat(c.reconcilePeriod()).as("file > default").isEqualTo(Duration.ofSeconds(20));
        assertThat(c.healthPort()).as("default").isEqualTo(8081);

        // Each layer alone, for one setting.
        String noName = HEADER + POLICY;
        assertThat(AgentConfigLoader.parse(noName, FILE, Map.of(), Map.of("PODNUMA_NODE_NAME", "e"))
                        .nodeName())
                .isEqualTo("e");
        assertThat(AgentConfigLoader.parse(noName, FILE, Map.of("node-name", "f"), Map.of())
                        .nodeName())
                .isEqualTo("f");
        // An empty flag or variable unsets an optional path the file set.
        String withKubelet = MINIMAL + "kubeletCheckSocket: /var/lib/kubelet\n";
        assertThat(AgentConfigLoader.parse(withKubelet, FILE, Map.of(), Map.of("PODNUMA_KUBELET_CHECK_SOCKET", ""))
                        .kubeletCheckSocket())
                .isEmpty();
        // Variables that are not settings are left alone (Kubernetes injects service variables).
        assertThat(AgentConfigLoader.parse(MINIMAL, FILE, Map.of(), Map.of("PODNUMA_METRICS_SERVICE_HOST", "10.0.0.1"))
                        .metricsPort())
                .isEqualTo(9464);
    }

    @Test
    void theNewSettingsFollowThePrecedenceToo() {
        String file = MINIMAL + "cgroupDriver: cgroupfs\npodResourcesBurst: 20\nkubeletConfigFile: /k/config.yaml\n";
        AgentConfig c = AgentConfigLoader.parse(
                file,
                FILE,
                Map.of("cgroup-driver", "auto", "exclusive-cpu-quota", "disable"),
                Map.of(
                        "PODNUMA_CGROUP_DRIVER", "systemd",
                        "PODNUMA_POD_RESOURCES_BURST", "30",
                        "PODNUMA_KUBELET_CONFIG_FILE", "",
                        "PODNUMA_METRICS_BIND_ADDRESS", "10.1.2.3"));
        assertThat(c.cgroupDriver()).as("flag auto beats env and file").isEmpty();
        assertThat(c.exclusiveCpuQuota()).as("flag > default").isEqualTo(ExclusiveCpuQuota.DISABLE);
        assertThat(c.podResourcesBurst()).as("env > file").isEqualTo(30);
        assertThat(c.kubeletConfigFile()).as("empty env unsets the file's path").isEmpty();
        assertThat(c.metricsBindAddress()).as("env > default").isEqualTo("10.1.2.3");
        assertThat(c.healthBindAddress()).as("default").isEqualTo("0.0.0.0");
    }

    @Test
    void thePinningSettingsFollowThePrecedenceToo() {
        String file = MINIMAL + "pinning: nri\nnriSocket: /file/nri.sock\nnriPluginName: from-file\n"
                + "nriPluginIndex: \"10\"\n";
        AgentConfig c = AgentConfigLoader.parse(
                file,
                FILE,
                Map.of("nri-plugin-index", "99"),
                Map.of(
                        "PODNUMA_PINNING", "cgroup",
                        "PODNUMA_NRI_SOCKET", "/env/nri.sock",
                        "PODNUMA_NRI_PLUGIN_INDEX", "20"));
        assertThat(c.pinning()).as("env > file").isEqualTo(PinningMode.CGROUP);
        assertThat(c.nri().socket()).as("env > file").isEqualTo(Path.of("/env/nri.sock"));
        assertThat(c.nri().pluginName()).as("file > default").isEqualTo("from-file");
        assertThat(c.nri().pluginIndex()).as("flag > env > file").isEqualTo("99");
        assertThat(AgentConfigLoader.parse(MINIMAL, FILE, Map.of("pinning", "nri"), Map.of())
                        .pinning())
                .as("flag > default")
                .isEqualTo(PinningMode.NRI);
    }

    @ParameterizedTest
    @MethodSource("bindAddresses")
    void bindAddressesAreCheckedWithoutBeingResolved(String address, boolean valid) {
        String yaml = MINIMAL + "metricsBindAddress: \"" + address + "\"\n";
        if (valid) {
            assertThat(parse(yaml).metricsBindAddress()).isEqualTo(address);
        } else {
            assertThatThrownBy(() -> parse(yaml))
                    .isInstanceOf(AgentConfigException.class)
                    .hasMessageStartingWith(
                            "invalid agent configuration: agent.yaml: metricsBindAddress = \"" + address + "\": ");
        }
    }

    static Stream<Arguments> bindAddresses() {
        return Stream.of(
                Arguments.of("0.0.0.0", true),
                Arguments.of("127.0.0.1", true),
                Arguments.of("255.255.255.255", true),
                Arguments.of("::", true),
                Arguments.of("::1", true),
                Arguments.of("fd00:10:244::7", true),
                Arguments.of("::ffff:10.0.0.1", true),
                Arguments.of("localhost", true),
                Arguments.of("metrics.podnuma.svc.cluster.local", true),
                Arguments.of("a-b.example.com.", true),
                Arguments.of("256.0.0.1", false),
                Arguments.of("10.0.0", false),
                Arguments.of("01.2.3.4", false),
                Arguments.of("1.2.3.4.5", false),
                Arguments.of("12345", false),
                Arguments.of(":::", false),
                Arguments.of("1::2::3", false),
                Arguments.of("fe80::1%eth0", false),
                Arguments.of("[::1]", false),
                Arguments.of(".:1", false),
                Arguments.of("1.2.3.4:80", false),
                Arguments.of("", false),
                Arguments.of("host name", false),
                Arguments.of("-host", false),
                Arguments.of("host-", false),
                Arguments.of("a..b", false),
                Arguments.of("x".repeat(64) + ".example", false),
                Arguments.of("http://host", false));
    }

    @Test
    void theExampleFileLoads() throws IOException {
        Path example = Path.of("examples/agent.yaml");
        AgentConfig c = AgentConfigLoader.load(Map.of("config", example.toString()), Map.of());
        assertThat(c.nodeName()).isEqualTo("worker-1");
        assertThat(c.nodeConfig().topologyPolicy()).isEqualTo(TopologyPolicyName.SINGLE_NUMA_NODE);
        assertThat(c.kubeletFiles().kubeletConfig()).contains(Path.of("/var/lib/kubelet/config.yaml"));
        assertThat(c.budgetAnnotation()).contains("podnuma.io/pod-resources");
        // The file documents every setting, so a new one must be added to it.
        String text = Files.readString(example);
        for (Setting s : Setting.values()) {
            assertThat(text).as("examples/agent.yaml documents %s", s.key()).contains("\n" + s.key() + ": ");
        }
    }

    @Test
    void theExampleFileRoundTripsThroughTheType() {
        Path example = Path.of("examples/agent.yaml");
        NodeAgentConfig file = NodeAgentConfigYaml.read(example);
        String written = NodeAgentConfigYaml.write(file);
        assertThat(NodeAgentConfigYaml.read(written)).isEqualTo(file);
        assertThat(parse(written))
                .as("the agent reads the written file as it reads the example")
                .isEqualTo(AgentConfigLoader.load(Map.of("config", example.toString()), Map.of()));
    }

    @Test
    void everyKeyOfTheFileIsAComponentOfTheType() throws IOException {
        List<String> components = Arrays.stream(NodeAgentConfig.class.getRecordComponents())
                .map(RecordComponent::getName)
                .toList();
        List<String> keys = new ArrayList<>();
        new ObjectMapper(new YAMLFactory())
                .readTree(Path.of("examples/agent.yaml").toFile())
                .fieldNames()
                .forEachRemaining(keys::add);
        assertThat(keys).as("examples/agent.yaml").containsExactlyInAnyOrderElementsOf(components);
        List<String> settings = new ArrayList<>(List.of("apiVersion", "kind", "policy"));
        Arrays.stream(Setting.values()).map(Setting::key).forEach(settings::add);
        assertThat(settings).as("the agent's settings").containsExactlyInAnyOrderElementsOf(components);
    }

    @Test
    void aBuiltConfigLoadsWithEveryValueItGives() {
        NodeAgentConfig file = NodeAgentConfig.builder("n1", parse(MINIMAL).policy())
                .podResourcesSocketMode("0660")
                .podResourcesQps(new BigDecimal("0.5"))
                .metricsPort(9100)
                .metricsBindAddress("::1")
                .kubeletCheckSocket("")
                .cgroupDriver("systemd")
                .pinning("cgroup")
                .nriPluginIndex("07")
                .build();
        AgentConfig c = parse(NodeAgentConfigYaml.write(file));
        assertThat(c.podResourcesSocketMode()).isEqualTo(0660);
        assertThat(c.podResourcesQps()).isEqualTo(0.5);
        assertThat(c.metricsPort()).isEqualTo(9100);
        assertThat(c.metricsBindAddress()).isEqualTo("::1");
        assertThat(c.kubeletCheckSocket()).isEmpty();
        assertThat(c.cgroupDriver()).contains(CgroupDriver.SYSTEMD);
        assertThat(c.pinning()).isEqualTo(PinningMode.CGROUP);
        assertThat(c.nri().pluginIndex())
                .as("written quoted, read as two digits")
                .isEqualTo("07");
        assertThat(c.policyHash()).isEqualTo(parse(MINIMAL).policyHash());
    }

    @Test
    void aFlagWinsOverAFileValueThatCouldNotBeRead() {
        String file = MINIMAL + "metricsPort: [1, 2]\nhealthPort: nope\n";
        AgentConfig c = AgentConfigLoader.parse(
                file, FILE, Map.of("metrics-port", "9000"), Map.of("PODNUMA_HEALTH_PORT", "9001"));
        assertThat(c.metricsPort()).isEqualTo(9000);
        assertThat(c.healthPort()).isEqualTo(9001);
    }

    @Test
    void namesOfFlagsAndVariablesFollowTheKeys() {
        assertThat(Setting.POD_RESOURCES_SOCKET_MODE.flag()).isEqualTo("pod-resources-socket-mode");
        assertThat(Setting.POD_RESOURCES_SOCKET_MODE.env()).isEqualTo("PODNUMA_POD_RESOURCES_SOCKET_MODE");
        assertThat(Setting.KUBELET_CHECK_SOCKET.key()).isEqualTo("kubeletCheckSocket");
        assertThat(Setting.NRI_PLUGIN_INDEX.flag()).isEqualTo("nri-plugin-index");
        assertThat(Setting.NRI_PLUGIN_INDEX.env()).isEqualTo("PODNUMA_NRI_PLUGIN_INDEX");
        assertThat(Setting.PINNING.env()).isEqualTo("PODNUMA_PINNING");
    }

    @Test
    void metricsArePlainByDefaultAndHttpsTakesACertificatePairAndACacheTtl() {
        AgentConfig plain = parse(MINIMAL);
        assertThat(plain.metricsSecurity()).isEqualTo(io.podnuma.securemetrics.MetricsSecurity.HTTP);
        assertThat(plain.metricsTls().certFile()).isEmpty();
        assertThat(plain.metricsTls().cacheTtl()).isEqualTo(Duration.ofMinutes(1));

        AgentConfig selfSigned = parse(MINIMAL + "metricsSecurity: https\nmetricsAuthCacheTtl: 0s\n");
        assertThat(selfSigned.metricsSecurity()).isEqualTo(io.podnuma.securemetrics.MetricsSecurity.HTTPS);
        assertThat(selfSigned.metricsTls().certFile()).isEmpty();
        assertThat(selfSigned.metricsTls().cacheTtl())
                .as("0s: every scrape is reviewed")
                .isZero();

        AgentConfig files = AgentConfigLoader.parse(
                MINIMAL + "metricsSecurity: https\n",
                "agent.yaml",
                Map.of("metrics-cert-file", "/etc/tls/tls.crt"),
                Map.of("PODNUMA_METRICS_KEY_FILE", "/etc/tls/tls.key", "PODNUMA_METRICS_AUTH_CACHE_TTL", "10m"));
        assertThat(files.metricsTls().certFile()).contains(Path.of("/etc/tls/tls.crt"));
        assertThat(files.metricsTls().keyFile()).contains(Path.of("/etc/tls/tls.key"));
        assertThat(files.metricsTls().cacheTtl()).isEqualTo(Duration.ofMinutes(10));
    }

    static Stream<Arguments> badConfigs() {
        String all = "apiVersion, kind, nodeName, sysfsRoot, cgroupRoot, stateDir, podResourcesSocket,"
                + " podResourcesSocketMode, kubeletPodResourcesSocket, metricsPort, healthPort, logLevel,"
                + " logFormat, reconcilePeriod, kubeletCheckSocket, kubeletConfigFile, metricsBindAddress, healthBindAddress,"
                + " podResourcesQps, podResourcesBurst, kubeletCallTimeout, cgroupDriver, exclusiveCpuQuota,"
                + " pinning, nriSocket, nriPluginName, nriPluginIndex, statusMinInterval, kubeletCgroupRoot,"
                + " policyName, metricsSecurity, metricsCertFile, metricsKeyFile, metricsAuthCacheTtl, policy";
        return Stream.of(
                bad(
                        MINIMAL + "metricsPort: 70000\n",
                        "agent.yaml: metricsPort = \"70000\": allowed a TCP port 1..65535"),
                bad(MINIMAL + "metricPort: 9000\n", "agent.yaml: unknown key \"metricPort\": allowed " + all),
                bad(
                        MINIMAL.replace("kind: NodeAgentConfig", "kind: AgentConfig"),
                        "agent.yaml: kind \"AgentConfig\": allowed NodeAgentConfig"),
                bad(
                        MINIMAL.replace("apiVersion: podnuma.io/v1alpha1\n", ""),
                        "agent.yaml: apiVersion is missing: allowed podnuma.io/v1alpha1"),
                bad(
                        MINIMAL.replace("worker-1", "Worker_1"),
                        "agent.yaml: nodeName = \"Worker_1\": allowed a node name: at most 253 lowercase letters, digits,"
                                + " '-' and '.', starting and ending with a letter or digit"),
                bad(
                        MINIMAL + "sysfsRoot: host/sys\n",
                        "agent.yaml: sysfsRoot = \"host/sys\": allowed an absolute path (starting with /)"),
                bad(
                        MINIMAL + "podResourcesSocketMode: \"0666\"\n",
                        "agent.yaml: podResourcesSocketMode = \"0666\": the socket may not be writable by others (any"
                                + " local user could read every pod's assignment); allowed e.g. 0600 or 0660"),
                bad(
                        MINIMAL + "podResourcesSocketMode: \"rw-------\"\n",
                        "agent.yaml: podResourcesSocketMode = \"rw-------\": allowed an octal file mode such as 0600 or"
                                + " 0660"),
                bad(
                        MINIMAL + "podResourcesSocketMode: 0600\n",
                        "agent.yaml: podResourcesSocketMode is the YAML number 384: write the mode as a quoted string,"
                                + " e.g. \"0600\" (unquoted, YAML reads 0600 as octal 384)"),
                bad(
                        MINIMAL + "logLevel: verbose\n",
                        "agent.yaml: logLevel = \"verbose\": allowed trace, debug, info, warn, error"),
                bad(MINIMAL + "logFormat: logfmt\n", "agent.yaml: logFormat = \"logfmt\": allowed text, json"),
                bad(MINIMAL + "logFormat: JSON\n", "agent.yaml: logFormat = \"JSON\": allowed text, json"),
                bad(
                        MINIMAL + "reconcilePeriod: 10\n",
                        "agent.yaml: reconcilePeriod = \"10\": allowed a duration such as 500ms, 10s, 1m30s or 1h (units ms, s, m, h) from 1s to 1h"),
                bad(
                        MINIMAL + "reconcilePeriod: 2h\n",
                        "agent.yaml: reconcilePeriod = \"2h\": allowed a duration such as 500ms, 10s, 1m30s or 1h (units ms, s, m, h) from 1s to 1h"),
                bad(
                        MINIMAL + "reconcilePeriod: 500ms\n",
                        "agent.yaml: reconcilePeriod = \"500ms\": allowed a duration such as 500ms, 10s, 1m30s or 1h (units ms, s, m, h) from 1s to 1h"),
                bad(MINIMAL + "healthPort: 9464\n", "metricsPort and healthPort are both 9464: they must differ"),
                bad(
                        MINIMAL + "kubeletPodResourcesSocket: /var/lib/podnuma/pod-resources/podnuma.sock\n",
                        "podResourcesSocket and kubeletPodResourcesSocket are both"
                                + " /var/lib/podnuma/pod-resources/podnuma.sock: the kubelet's socket must be a"
                                + " different one (the agent would merge its own answers)"),
                bad(
                        MINIMAL + "metricsPort: ~\n",
                        "agent.yaml: metricsPort has no value: give one, or remove the key to use the default"
                                + " \"9464\""),
                bad(MINIMAL + "metricsPort:\n", "agent.yaml: metricsPort = \"\": allowed a TCP port 1..65535"),
                bad(
                        MINIMAL.replace("nodeName: worker-1", "nodeName: null"),
                        "agent.yaml: nodeName has no value: give one, it is required"),
                bad(MINIMAL + "stateDir: [/a, /b]\n", "agent.yaml: stateDir must be a single value, got a list"),
                bad(
                        HEADER + POLICY,
                        "nodeName is required (the Kubernetes node this agent runs on; in a DaemonSet, the downward API's"
                                + " spec.nodeName): set it in the file, with --node-name or with PODNUMA_NODE_NAME"),
                bad(
                        HEADER + "nodeName: n\n",
                        "agent.yaml: policy is missing: it holds the NumaResourcePolicy spec in force on this node"
                                + " (the operator renders it into the agent's ConfigMap)"),
                bad(
                        HEADER + "nodeName: n\npolicy: static\n",
                        "agent.yaml: policy must be a mapping (a NumaResourcePolicy spec), got the string \"static\""),
                bad(
                        MINIMAL.replace("policy: static", "policy: fast"),
                        "agent.yaml: policy.cpuManager.policy \"fast\": allowed none, static"),
                bad(
                        MINIMAL + "    reservedCPUs: \"0\"\n",
                        "agent.yaml: policy.cpuManager: unknown key \"reservedCPUs\": allowed options, partition, policy,"
                                + " reconcilePeriod, reservedCpuCount, reservedCpus"),
                bad(
                        MINIMAL.replace("reservedCpuCount: 2", "reservedCpuCount: two"),
                        "agent.yaml: policy.cpuManager.reservedCpuCount: expected an integer"),
                bad(
                        MINIMAL.replace("    reservedCpuCount: 2\n", ""),
                        "agent.yaml: policy.cpuManager.reservedCpus is missing: policy static needs CPUs reserved for"
                                + " the system, set reservedCpus (e.g. \"0,64\") or reservedCpuCount (e.g. 2)"),
                bad(
                        MINIMAL.replace("reservedCpuCount: 2", "reservedCpus: \"3-1\""),
                        "agent.yaml: policy.cpuManager.reservedCpus \"3-1\": CPU ranges must go upward (first-last"
                                + " with first <= last) and be listed in ascending order without overlap, e.g. 0-3,8"
                                + " rather than 8,0-3 or 3-0"),
                bad(
                        "nodeName: [\n",
                        "agent.yaml: not valid YAML: while parsing a flow node: expected the node content, but found"
                                + " '<stream end>' (line 1, column 12)"),
                bad(
                        MINIMAL + "  topologyManager: {policy: x}\n",
                        "agent.yaml: policy.topologyManager.policy \"x\": allowed none, best-effort, restricted,"
                                + " single-numa-node"),
                bad(
                        MINIMAL + "  memoryManager: {reservedMemory: [{numaNode: 0, limits: {memory: 1Xi}}]}\n",
                        "agent.yaml: policy.memoryManager.reservedMemory[0].limits.memory \"1Xi\": not a quantity:"
                                + " allowed a number with an optional suffix Ki, Mi, Gi, Ti, Pi, Ei, k, M, G, T, P, E or"
                                + " an exponent, e.g. 1Gi or 512Mi"),
                bad(
                        MINIMAL + "metricsBindAddress: 300.1.2.3\n",
                        "agent.yaml: metricsBindAddress = \"300.1.2.3\": not an IPv4 address (four numbers 0-255 without"
                                + " leading zeros); allowed an IPv4 address (0.0.0.0 for all), an IPv6 address without"
                                + " brackets (:: for all) or a host name"),
                bad(
                        MINIMAL + "healthBindAddress: \"[::1]\"\n",
                        "agent.yaml: healthBindAddress = \"[::1]\": not an IPv6 address; allowed an IPv4 address (0.0.0.0"
                                + " for all), an IPv6 address without brackets (:: for all) or a host name"),
                bad(
                        MINIMAL + "healthBindAddress: -bad-.example\n",
                        "agent.yaml: healthBindAddress = \"-bad-.example\": not a host name (labels of letters, digits"
                                + " and '-', at most 63 characters, separated by dots); allowed an IPv4 address"
                                + " (0.0.0.0 for all), an IPv6 address without brackets (:: for all) or a host name"),
                bad(
                        MINIMAL + "podResourcesQps: 0\n",
                        "agent.yaml: podResourcesQps = \"0\": allowed a number of calls per second above 0 and at most"
                                + " 1000000, e.g. 100 or 0.5"),
                bad(
                        MINIMAL + "podResourcesQps: NaN\n",
                        "agent.yaml: podResourcesQps = \"NaN\": allowed a number of calls per second above 0 and at most"
                                + " 1000000, e.g. 100 or 0.5"),
                bad(
                        MINIMAL + "podResourcesBurst: 0\n",
                        "agent.yaml: podResourcesBurst = \"0\": allowed a whole number of calls from 1 to 1000000"),
                bad(
                        MINIMAL + "kubeletCallTimeout: 10\n",
                        "agent.yaml: kubeletCallTimeout = \"10\": allowed a duration such as 500ms, 10s, 1m30s or 1h (units ms, s, m, h) from 100ms to 5m"),
                bad(
                        MINIMAL + "kubeletCallTimeout: 1h\n",
                        "agent.yaml: kubeletCallTimeout = \"1h\": allowed a duration such as 500ms, 10s, 1m30s or 1h (units ms, s, m, h) from 100ms to 5m"),
                bad(
                        MINIMAL + "kubeletConfigFile: config.yaml\n",
                        "agent.yaml: kubeletConfigFile = \"config.yaml\": allowed an absolute path (starting with /)"),
                bad(
                        MINIMAL + "cgroupDriver: Systemd\n",
                        "agent.yaml: cgroupDriver = \"Systemd\": allowed auto, cgroupfs, systemd"),
                bad(
                        MINIMAL + "exclusiveCpuQuota: none\n",
                        "agent.yaml: exclusiveCpuQuota = \"none\": allowed keep, disable"),
                bad(MINIMAL + "pinning: NRI\n", "agent.yaml: pinning = \"NRI\": allowed auto, nri, cgroup"),
                bad(MINIMAL + "pinning: \"\"\n", "agent.yaml: pinning = \"\": allowed auto, nri, cgroup"),
                bad(MINIMAL + "pinning: cgroups\n", "agent.yaml: pinning = \"cgroups\": allowed auto, nri, cgroup"),
                bad(
                        MINIMAL + "pinning: ~\n",
                        "agent.yaml: pinning has no value: give one, or remove the key to use the default \"auto\""),
                bad(
                        MINIMAL + "nriSocket: run/nri/nri.sock\n",
                        "agent.yaml: nriSocket = \"run/nri/nri.sock\": allowed an absolute path (starting with /)"),
                bad(
                        MINIMAL + "nriSocket: /var/lib/podnuma/pod-resources/podnuma.sock\n",
                        "podResourcesSocket and nriSocket are both /var/lib/podnuma/pod-resources/podnuma.sock: the"
                                + " runtime's NRI socket must be a different one (the agent serves one and dials the"
                                + " other)"),
                bad(
                        MINIMAL + "nriPluginName: pod numa\n",
                        "agent.yaml: nriPluginName = \"pod numa\": allowed letters, digits, '_', '.', '+' and '-' (the"
                                + " runtime refuses any other name), e.g. podnuma"),
                bad(
                        MINIMAL + "nriPluginName: \"\"\n",
                        "agent.yaml: nriPluginName = \"\": allowed letters, digits, '_', '.', '+' and '-' (the runtime"
                                + " refuses any other name), e.g. podnuma"),
                bad(
                        MINIMAL + "nriPluginName: podnuma/agent\n",
                        "agent.yaml: nriPluginName = \"podnuma/agent\": allowed letters, digits, '_', '.', '+' and '-'"
                                + " (the runtime refuses any other name), e.g. podnuma"),
                bad(
                        MINIMAL + "nriPluginIndex: \"4\"\n",
                        "agent.yaml: nriPluginIndex = \"4\": allowed exactly two digits 00 to 99, quoted (lower runs"
                                + " first; nri-plugins' resource policies use 90), e.g. \"40\""),
                bad(
                        MINIMAL + "nriPluginIndex: \"100\"\n",
                        "agent.yaml: nriPluginIndex = \"100\": allowed exactly two digits 00 to 99, quoted (lower runs"
                                + " first; nri-plugins' resource policies use 90), e.g. \"40\""),
                bad(
                        MINIMAL + "nriPluginIndex: \"4a\"\n",
                        "agent.yaml: nriPluginIndex = \"4a\": allowed exactly two digits 00 to 99, quoted (lower runs"
                                + " first; nri-plugins' resource policies use 90), e.g. \"40\""),
                bad(
                        MINIMAL + "nriPluginIndex: 40\n",
                        "agent.yaml: nriPluginIndex is the YAML number 40: write the index as a quoted string of two"
                                + " digits, e.g. \"40\" (unquoted, YAML reads 05 as 5)"),
                bad(
                        MINIMAL + "nriPluginIndex: 05\n",
                        "agent.yaml: nriPluginIndex is the YAML number 5: write the index as a quoted string of two"
                                + " digits, e.g. \"40\" (unquoted, YAML reads 05 as 5)"),
                bad(
                        MINIMAL + "statusMinInterval: 0ms\n",
                        "agent.yaml: statusMinInterval = \"0ms\": allowed a duration such as 500ms, 10s, 1m30s or 1h (units ms, s, m, h) from 100ms to 10m"),
                bad(
                        "a: \"\\q\"\n",
                        "agent.yaml: not valid YAML: while scanning a double-quoted scalar: found unknown escape"
                                + " character q(113) (line 1, column 2)"),
                bad(
                        MINIMAL + "  memoryManager: {reservedMemory: [{numaNode: 0, limits: {memory: ~}}]}\n",
                        "agent.yaml: policy.memoryManager.reservedMemory[0]: holds an empty (null) entry or value;"
                                + " give it a value or remove it"),
                bad("- a\n- b\n", "agent.yaml: must be a YAML mapping of settings, got a list"),
                bad(
                        "",
                        "agent.yaml: the file is empty; it needs at least apiVersion: podnuma.io/v1alpha1, kind:"
                                + " NodeAgentConfig, nodeName (or PODNUMA_NODE_NAME) and policy"),
                bad(
                        MINIMAL + "---\n" + MINIMAL,
                        "agent.yaml: holds more than one YAML document; the agent configuration is one document"),
                bad(
                        MINIMAL + "nodeName: again\n",
                        "agent.yaml: not valid YAML: Duplicate field 'nodeName' (line 8, column 9)"));
    }

    private static Arguments bad(String yaml, String message) {
        return Arguments.of(yaml, message);
    }

    @ParameterizedTest
    @MethodSource("badConfigs")
    void aBadConfigIsRefusedNamingTheKeyTheValueAndWhatIsAllowed(String yaml, String message) {
        assertThatThrownBy(() -> parse(yaml))
                .isInstanceOf(AgentConfigException.class)
                .satisfies(e -> assertThat(((AgentConfigException) e).problems())
                        .singleElement()
                        .asString()
                        .isEqualTo(message))
                .hasMessage("invalid agent configuration: " + message);
    }

    @Test
    void badFlagsAndVariablesAreNamedAsSuch() {
        assertThatThrownBy(() -> AgentConfigLoader.parse(MINIMAL, FILE, Map.of(), Map.of("PODNUMA_METRICS_PORT", "x")))
                .hasMessage("invalid agent configuration: environment PODNUMA_METRICS_PORT = \"x\": allowed a TCP port"
                        + " 1..65535");
        assertThatThrownBy(() -> AgentConfigLoader.parse(MINIMAL, FILE, Map.of("log-level", "loud"), Map.of()))
                .hasMessage(
                        "invalid agent configuration: flag --log-level = \"loud\": allowed trace, debug, info, warn,"
                                + " error");
        assertThatThrownBy(() -> AgentConfigLoader.parse(MINIMAL, FILE, Map.of(), Map.of("PODNUMA_PINNING", "on")))
                .hasMessage("invalid agent configuration: environment PODNUMA_PINNING = \"on\": allowed auto, nri,"
                        + " cgroup");
        assertThatThrownBy(() -> AgentConfigLoader.parse(MINIMAL, FILE, Map.of("nri-plugin-index", "4"), Map.of()))
                .hasMessage("invalid agent configuration: flag --nri-plugin-index = \"4\": allowed exactly two digits"
                        + " 00 to 99, quoted (lower runs first; nri-plugins' resource policies use 90), e.g. \"40\"");
        assertThatThrownBy(() -> AgentConfigLoader.parse(MINIMAL, FILE, Map.of("metrics", "1"), Map.of()))
                .hasMessageStartingWith("invalid agent configuration: unknown flag --metrics: allowed --config,"
                        + " --node-name, --sysfs-root,");
    }

    @Test
    void everyProblemIsReportedAtOnce() {
        assertThatThrownBy(() -> parse(MINIMAL + "metricsPort: 0\nlogLevel: loud\n"))
                .hasMessage("invalid agent configuration (2 problems):\n"
                        + "  - agent.yaml: metricsPort = \"0\": allowed a TCP port 1..65535\n"
                        + "  - agent.yaml: logLevel = \"loud\": allowed trace, debug, info, warn, error");
    }

    @Test
    void theFileComesFromTheFlagThenTheVariableThenTheDefaultPath() throws IOException {
        Path byFlag = Files.writeString(dir.resolve("flag.yaml"), MINIMAL.replace("worker-1", "by-flag"));
        Path byEnv = Files.writeString(dir.resolve("env.yaml"), MINIMAL.replace("worker-1", "by-env"));
        assertThat(AgentConfigLoader.load(
                                Map.of("config", byFlag.toString()), Map.of("PODNUMA_CONFIG", byEnv.toString()))
                        .nodeName())
                .isEqualTo("by-flag");
        assertThat(AgentConfigLoader.load(Map.of(), Map.of("PODNUMA_CONFIG", byEnv.toString()))
                        .nodeName())
                .isEqualTo("by-env");
        Path missing = dir.resolve("nope.yaml");
        assertThatThrownBy(() -> AgentConfigLoader.load(Map.of("config", missing.toString()), Map.of()))
                .hasMessage("invalid agent configuration: " + missing
                        + ": the configuration file does not exist (set it with --config or PODNUMA_CONFIG)");
    }

    @Test
    void thePolicyHashFollowsThePolicyNotItsFormatting() {
        String same = HEADER + "nodeName: other-node\nmetricsPort: 9000\n"
                + "policy: {cpuManager: {reservedCpuCount: 2, policy: static}}\n";
        assertThat(parse(same).policyHash()).isEqualTo(parse(MINIMAL).policyHash());
        assertThat(parse(MINIMAL.replace("reservedCpuCount: 2", "reservedCpuCount: 4"))
                        .policyHash())
                .isNotEqualTo(parse(MINIMAL).policyHash());
    }
}
