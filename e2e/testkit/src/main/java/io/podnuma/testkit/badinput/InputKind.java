package io.podnuma.testkit.badinput;

/**
 * The kinds of input the bad-input catalogue covers, in the order of {@code docs/bad-input.md}. Each kind has one case
 * table, run by the test of the module that consumes the input.
 *
 * @param title the section heading in the doc
 * @param consumer what reads the input and where its cases run
 */
public enum InputKind {
    POLICY_API_SERVER(
            "Policies through the API server",
            "kube-apiserver (the CRD's schema and CEL rules): operator BadPolicyApiServerIT"),
    POLICY_AGENT(
            "Policies in the agent's file",
            "the agent's config loader and policy validator: node-agent BadPolicyAgentCasesTest"),
    POLICY_OPERATOR(
            "Policies rendered by the operator",
            "the operator's renderer and policy validator: operator BadPolicyOperatorCasesTest"),
    AGENT_CONFIG(
            "Agent config file, flags and environment",
            "the agent's config loader: node-agent BadAgentConfigCasesTest"),
    OPERATOR_SETTINGS(
            "Operator flags and environment", "the operator's settings loader: operator BadOperatorSettingsCasesTest"),
    POD_SPEC("Pod specs and the budget annotation", "the agent's pod mapper: node-agent BadPodSpecCasesTest"),
    CHECKPOINT("Checkpoint files", "the agent's checkpoint store: node-agent BadCheckpointCasesTest"),
    NODE_DIRECTORIES(
            "The agent's directories on the node",
            "the agent's start (the state directory's lock) and its PodResources endpoint (the socket's directory):"
                    + " node-agent BadNodeDirectoryCasesTest"),
    KUBELET(
            "What the kubelet says",
            "the agent's coexistence check (the kubelet's PodResources socket and its configuration file), as the"
                    + " KubeletConflict condition shows it: node-agent BadKubeletCasesTest"),
    DEVICES(
            "Devices the kubelet gave",
            "the agent's admission of a pod asking for device-plugin devices, from the kubelet's PodResources"
                    + " answers: node-agent BadDeviceCasesTest"),
    RESIZES(
            "Resizes of admitted pods",
            "the agent's in-place resize of a pod it holds (the resize subresource, once the kubelet allocated it):"
                    + " node-agent BadResizeCasesTest"),
    SYSFS("sysfs trees", "the agent's topology reader: node-agent BadSysfsCasesTest"),
    CGROUP_TREE("cgroup trees", "the agent's cgroup tree scanner and naming: node-agent BadCgroupTreeCasesTest"),
    PARTITIONS(
            "cpuset partitions a node cannot make",
            "the agent's cgroup v2 cpuset partitions (cpuManager.partition), where the node or its kernel cannot make"
                    + " one: node-agent BadPartitionCasesTest"),
    POD_RESOURCES(
            "PodResources requests", "the agent's PodResources gRPC endpoint: node-agent BadPodResourcesCasesTest"),
    NRI_FRAME("NRI frames", "the agent's ttrpc transport and NRI plugin: node-agent BadNriFrameCasesTest"),
    METRICS_SCRAPE(
            "Scrapes of the https /metrics",
            "the token gate in front of the agent's metrics port (io.podnuma.securemetrics): node-agent"
                    + " BadScrapeCasesTest"),
    OPERATOR_DAEMONSET(
            "DaemonSets made with the operator's identity",
            "the chart's ValidatingAdmissionPolicy on the operator's DaemonSets, on the real kube-apiserver: operator"
                    + " AgentDaemonSetAdmissionIT");

    private final String title;
    private final String consumer;

    InputKind(String title, String consumer) {
        this.title = title;
        this.consumer = consumer;
    }

    public String title() {
        return title;
    }

    public String consumer() {
        return consumer;
    }

    /** The marker name of the kind's section in the doc, e.g. {@code agent-config}. */
    public String marker() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
