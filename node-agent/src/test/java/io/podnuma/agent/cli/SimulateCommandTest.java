package io.podnuma.agent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.sysfs.FakeMachine;
import io.podnuma.agent.sysfs.Fixtures;
import io.podnuma.testkit.svg.SvgDocument;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

/** Runs {@code simulate} on the shipped examples and fixtures and checks the results the README documents. */
class SimulateCommandTest {

    private static final Path EXAMPLES = Path.of("examples/simulate");
    private static final String INTEL =
            Fixtures.path(FakeMachine.INTEL_2S_HT.name()).toString();

    private record Run(int code, String out, String err) {
        JsonNode json() throws IOException {
            return new ObjectMapper().readTree(out);
        }
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(code, out.toString(), err.toString());
    }

    private static Run example(String name, String output) {
        return exampleWith(name, INTEL, "--output", output);
    }

    /** The example on {@code sysfs}, with more options. */
    private static Run exampleWith(String name, String sysfs, String... options) {
        Path dir = EXAMPLES.resolve(name);
        List<String> args = new java.util.ArrayList<>(List.of(
                "simulate",
                "--sysfs",
                sysfs,
                "--policy",
                dir.resolve("policy.yaml").toString(),
                "--pods",
                dir.resolve("pods").toString()));
        args.addAll(List.of(options));
        return run(args.toArray(String[]::new));
    }

    private static JsonNode pod(JsonNode j, String name) {
        for (JsonNode p : j.get("pods")) {
            if (p.get("name").asText().equals(name)) {
                return p;
            }
        }
        throw new AssertionError("no pod " + name + " in " + j);
    }

    private static JsonNode container(JsonNode pod, String name) {
        for (JsonNode c : pod.get("containers")) {
            if (c.get("name").asText().equals(name)) {
                return c;
            }
        }
        throw new AssertionError("no container " + name + " in " + pod);
    }

    private static String cpusKind(JsonNode pod, String container) {
        JsonNode c = container(pod, container);
        return c.get("kind").asText() + " " + c.get("cpus").asText();
    }

    @Test
    void workedExampleOfTheSpec() throws Exception {
        Run r = example("worked-example", "json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode j = r.json();
        assertThat(j.get("schema").asText()).isEqualTo("podnuma.io/simulate/v1");
        JsonNode worked = pod(j, "worked");
        assertThat(worked.get("placement").asText()).isEqualTo("pod-level");
        assertThat(worked.get("bubble").asText()).isEqualTo("1-4,65-68");
        assertThat(worked.get("podSharedPool").asText()).isEqualTo("65");
        assertThat(worked.get("numaAffinity").toString()).isEqualTo("[0]");
        assertThat(cpusKind(worked, "a")).isEqualTo("exclusive 1");
        assertThat(cpusKind(worked, "i")).isEqualTo("pod-shared 2-4,65-68");
        assertThat(cpusKind(worked, "m")).isEqualTo("exclusive 2-4,66-68");
        assertThat(cpusKind(worked, "b")).isEqualTo("pod-shared 65");
        assertThat(container(worked, "m").get("memory").get(0).get("size").asText())
                .isEqualTo("8Gi");
        assertThat(container(worked, "b").get("memoryNodes").toString()).isEqualTo("[0]");
        assertThat(worked.get("memory").get(0).get("bytes").asLong()).isEqualTo(16L << 30);
        JsonNode rejected = j.get("rejected").get(0);
        assertThat(rejected.get("name").asText()).isEqualTo("too-greedy");
        assertThat(rejected.get("file").asText()).isEqualTo("02-too-greedy.yaml");
        assertThat(rejected.get("reason").asText()).isEqualTo("EmptyPodSharedPoolError");
        assertThat(rejected.get("message").asText()).contains("1 for sidecars, 7 for app containers");
        assertThat(j.get("node").get("sharedPool").asText()).isEqualTo("0,5-64,69-127");
        assertThat(j.get("node").get("reserved").asText()).isEqualTo("0,64");
        assertThat(j.get("node").get("exclusive").asText()).isEqualTo("1-4,65-68");
    }

    @Test
    void classicGuaranteedPodWithInitReuseAndADeletion() throws Exception {
        Run r = example("classic-guaranteed", "json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode j = r.json();
        JsonNode db = pod(j, "db");
        assertThat(db.get("placement").asText()).isEqualTo("container");
        assertThat(cpusKind(db, "migrate")).isEqualTo("exclusive 1,65");
        assertThat(cpusKind(db, "app")).isEqualTo("exclusive 1-2,65-66");
        assertThat(cpusKind(db, "metrics")).isEqualTo("node-shared 0,3-64,67-127");
        assertThat(cpusKind(pod(j, "web"), "nginx")).isEqualTo("node-shared 0,3-64,67-127");
        assertThat(j.get("pods")).hasSize(2);
        assertThat(j.get("steps").get(3).get("outcome").asText()).isEqualTo("deleted");
        assertThat(j.get("node").get("sharedPool").asText()).isEqualTo("0,3-64,67-127");
    }

    @Test
    void containerScopeWithPodLevelResourcesAndTheBudgetAnnotation() throws Exception {
        Run r = example("container-scope-pod-level", "json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode j = r.json();
        assertThat(cpusKind(pod(j, "inference"), "server")).isEqualTo("exclusive 1-2,65-66");
        assertThat(container(pod(j, "inference"), "mesh").get("kind").asText()).isEqualTo("node-shared");
        assertThat(cpusKind(pod(j, "annotated"), "server")).isEqualTo("exclusive 3,67");
        assertThat(pod(j, "annotated").get("qos").asText()).isEqualTo("Guaranteed");
        assertThat(j.get("node").get("sharedPool").asText()).isEqualTo("0,4-64,68-127");
    }

    @Test
    void rejectionsCarryTheUpstreamReasons() throws Exception {
        Run r = example("rejections", "json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode j = r.json();
        assertThat(j.get("rejected").get(0).get("reason").asText()).isEqualTo("TopologyAffinityError");
        assertThat(j.get("rejected").get(1).get("reason").asText()).isEqualTo("SMTAlignmentError");
        assertThat(j.get("rejected").get(1).get("message").asText())
                .contains("requested 3 exclusive CPUs, 4 available in the pod's bubble");
        JsonNode fits = pod(j, "fits");
        assertThat(fits.get("bubble").asText()).isEqualTo("1-3,65-67");
        assertThat(cpusKind(fits, "helper")).isEqualTo("pod-shared 3,67");
    }

    @Test
    void aBudgetGoesWhereTheDeviceTheKubeletGaveItIsOrIsRefusedWhereItCannot() throws Exception {
        Path dir = EXAMPLES.resolve("devices");
        Run r = exampleWith(
                "devices",
                INTEL,
                "--output",
                "json",
                "--devices",
                dir.resolve("devices.yaml").toString());
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode j = r.json();
        assertThat(pod(j, "infer").get("numaAffinity").toString())
                .as("where accel-0 is")
                .isEqualTo("[1]");
        assertThat(container(pod(j, "infer"), "app").get("memoryNodes").toString())
                .isEqualTo("[1]");
        assertThat(pod(j, "plain").get("numaAffinity").toString())
                .as("without a device")
                .isEqualTo("[0]");
        JsonNode rejected = j.get("rejected").get(0);
        assertThat(rejected.get("name").asText()).isEqualTo("too-wide");
        assertThat(rejected.get("reason").asText()).isEqualTo("TopologyAffinityError");
        assertThat(rejected.get("message").asText()).contains("example.com/accel [{1} preferred");

        Run blind = exampleWith("devices", INTEL, "--output", "json");
        assertThat(blind.code()).isEqualTo(1);
        assertThat(blind.err())
                .contains("error: 01-infer.yaml: metadata.annotations[podnuma.io/simulate-devices]: device \"accel-0\""
                        + " of container app is not a device of the node: give the node's devices with --devices");
    }

    @Test
    void badDevicesNameTheFileTheFieldAndWhatIsAllowed(@TempDir Path tmp) throws IOException {
        Path dir = EXAMPLES.resolve("devices");
        Path devices = tmp.resolve("devices.yaml");
        Map<String, String> cases = new java.util.LinkedHashMap<>();
        cases.put(
                "example.com/accel: {accel-0: 1}\n",
                devices + ": example.com/accel.accel-0: 1 is not a list of NUMA"
                        + " nodes: allowed e.g. [1], [0, 1] or [] (no topology)");
        cases.put(
                "example.com/accel: {accel-0: [-1]}\n",
                devices + ": example.com/accel.accel-0: NUMA node -1 is not a" + " number from 0");
        cases.put(
                "example.com/accel: {accel-0: [1]}\nexample.com/gpu: {accel-0: [0]}\n",
                devices
                        + ": example.com/gpu.accel-0: device id accel-0 is also a device of example.com/accel: allowed one"
                        + " device per id");
        cases.put(
                "example.com/accel: []\n",
                devices + ": example.com/accel: expected its devices, device id → NUMA"
                        + " nodes, e.g. {accel-0: [1]}");
        cases.put(
                "[]\n",
                devices + ": expected the node's devices, resource → device id → NUMA nodes, e.g."
                        + " example.com/accel: {accel-0: [1]}");
        cases.put(
                "example.com/accel: {accel-1: [1]}\n",
                "error: 01-infer.yaml: metadata.annotations"
                        + "[podnuma.io/simulate-devices]: device \"accel-0\" of container app is not a device of the node:"
                        + " allowed [accel-1]");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            Files.writeString(devices, c.getKey());
            Run r = exampleWith("devices", INTEL, "--devices", devices.toString());
            assertThat(r.code()).as(c.getKey()).isEqualTo(1);
            assertThat(r.err()).as(c.getKey()).contains(c.getValue());
        }

        Path pods = Files.createDirectory(tmp.resolve("pods"));
        Files.writeString(
                pods.resolve("01-bad.yaml"),
                "kind: Pod\nmetadata:\n  name: bad\n  annotations:\n    podnuma.io/simulate-devices: \"main=accel-0\"\n"
                        + "spec:\n  containers:\n    - name: app\n");
        Run r = run(
                "simulate",
                "--sysfs",
                INTEL,
                "--policy",
                dir.resolve("policy.yaml").toString(),
                "--pods",
                pods.toString(),
                "--devices",
                dir.resolve("devices.yaml").toString());
        assertThat(r.err())
                .contains(
                        "error: 01-bad.yaml: metadata.annotations[podnuma.io/simulate-devices]: \"main=accel-0\" does"
                                + " not name a container of the pod: allowed <container>=<device id>[,<device id>...] for [app]");
    }

    @Test
    void tableShowsPodsContainersRejectionsAndTheSharedPool() {
        Run r = example("worked-example", "table");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("trading/worked")
                .containsPattern("\\s+m\\s+app\\s+exclusive\\s+2-4,66-68\\s+0\\s+0\\s+memory=8Gi")
                .containsPattern("\\s+b\\s+sidecar\\s+pod-shared\\s+65\\s")
                .contains("trading/too-greedy (02-too-greedy.yaml): EmptyPodSharedPoolError")
                .contains("node shared pool: 0,5-64,69-127 (120 CPUs); reserved: 0,64");
    }

    @Test
    void inputErrorsNameFileFieldAndValue(@TempDir Path tmp) throws IOException {
        Path pods = Files.createDirectory(tmp.resolve("pods"));
        Path policy = tmp.resolve("policy.yaml");
        Files.writeString(
                policy,
                "kind: NumaResourcePolicy\nmetadata: {name: x}\nspec:\n  nodeSelector: {}\n"
                        + "  cpuManager: {policy: static, reservedCpuz: \"0\"}\n");
        Run r = run("simulate", "--sysfs", INTEL, "--policy", policy.toString(), "--pods", pods.toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err())
                .contains(policy + ": field spec.cpuManager.reservedCpuz: Unrecognized field \"reservedCpuz\"");

        Files.writeString(
                policy,
                "kind: NumaResourcePolicy\nmetadata: {name: x}\nspec:\n  nodeSelector: {}\n"
                        + "  cpuManager: {policy: static, reservedCpus: \"200\"}\n");
        r = run("simulate", "--sysfs", INTEL, "--policy", policy.toString(), "--pods", pods.toString());
        assertThat(r.err())
                .contains("the policy does not fit machine")
                .contains("reserved CPUs 200 are not online CPUs");

        Files.writeString(policy, "kind: NumaResourcePolicy\nmetadata: {name: x}\nspec:\n  nodeSelector: {}\n");
        Files.writeString(
                pods.resolve("01-bad.yaml"),
                "kind: Pod\nmetadata: {name: bad}\nspec:\n  containers:\n"
                        + "    - name: c\n      resources: {limits: {memory: 12Gb}}\n");
        r = run("simulate", "--sysfs", INTEL, "--policy", policy.toString(), "--pods", pods.toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err())
                .contains(
                        "error: 01-bad.yaml: spec.containers[c].resources.limits.memory \"12Gb\" is not a valid memory"
                                + " quantity");

        Files.writeString(pods.resolve("01-bad.yaml"), "kind: Deployment\nmetadata: {name: bad}\n");
        r = run("simulate", "--sysfs", INTEL, "--policy", policy.toString(), "--pods", pods.toString());
        assertThat(r.err()).contains("01-bad.yaml: kind is \"Deployment\", expected Pod");

        Files.writeString(
                pods.resolve("01-bad.yaml"),
                "kind: Pod\nmetadata:\n  name: bad\n  annotations:\n" + "    podnuma.io/simulate: remove\n");
        r = run("simulate", "--sysfs", INTEL, "--policy", policy.toString(), "--pods", pods.toString());
        assertThat(r.err()).contains("metadata.annotations[podnuma.io/simulate] \"remove\" is not an action");

        r = run(
                "simulate",
                "--sysfs",
                INTEL,
                "--policy",
                policy.toString(),
                "--pods",
                tmp.resolve("nope").toString());
        assertThat(r.err()).contains("--pods must be a directory");
    }

    @Test
    void multiDocumentManifestsAndDeletionsOfUnknownPods(@TempDir Path tmp) throws Exception {
        Path pods = Files.createDirectory(tmp.resolve("pods"));
        Files.writeString(
                pods.resolve("b.yml"),
                "kind: Pod\nmetadata:\n  name: ghost\n  annotations:\n" + "    podnuma.io/simulate: delete\n");
        Files.writeString(
                pods.resolve("a.yaml"),
                "kind: Pod\nmetadata: {name: one}\nspec: {containers: [{name: c}]}\n---\n"
                        + "kind: Pod\nmetadata: {name: two}\nspec: {containers: [{name: c}]}\n---\n"
                        + "kind: Pod\nmetadata: {name: one}\nspec: {containers: [{name: c}]}\n");
        Run r = run(
                "simulate",
                "--sysfs",
                Fixtures.path(FakeMachine.LAPTOP.name()).toString(),
                "--policy",
                EXAMPLES.resolve("classic-guaranteed/policy.yaml").toString(),
                "--pods",
                pods.toString(),
                "--output",
                "json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode steps = r.json().get("steps");
        assertThat(steps).hasSize(4);
        assertThat(steps.get(1).get("file").asText()).isEqualTo("a.yaml (document 2)");
        assertThat(steps.get(2).get("outcome").asText()).isEqualTo("already-admitted");
        assertThat(steps.get(3).get("outcome").asText()).isEqualTo("not-found");
    }

    @Test
    void svgDrawsTheWorkedExampleWithEachCpuMarkedByTheAllocation(@TempDir Path tmp) throws Exception {
        Path picture = tmp.resolve("worked.svg");
        Run r = exampleWith("worked-example", INTEL, "--output", "json", "--svg", picture.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.json().get("node").get("exclusive").asText()).isEqualTo("1-4,65-68");
        SvgDocument svg = SvgDocument.parse(picture);
        assertThat(svg.title())
                .isEqualTo("simulate: policy worked-example on " + INTEL + ": 1 pod(s) admitted, 1 rejected");
        List<Element> cells = svg.withClass("g", "cpu");
        assertThat(cells).hasSize(128);
        assertThat(cpus(cells, "data-pool", "exclusive")).isEqualTo(CpuSet.parse("1-4,66-68"));
        assertThat(cpus(cells, "data-pool", "pod-shared")).isEqualTo(CpuSet.parse("65"));
        assertThat(cpus(cells, "data-pool", "reserved")).isEqualTo(CpuSet.parse("0,64"));
        assertThat(cpus(cells, "data-pool", "shared")).isEqualTo(CpuSet.parse("5-63,69-127"));
        assertThat(cpus(cells, "data-pod", "trading/worked")).isEqualTo(CpuSet.parse("1-4,65-68"));
        // the containers as the JSON output gives them: a 1, i 2-4,65-68, m 2-4,66-68, b 65
        assertThat(cpusOf(cells, "a")).isEqualTo(CpuSet.parse("1"));
        assertThat(cpusOf(cells, "i")).isEqualTo(CpuSet.parse("2-4,65-68"));
        assertThat(cpusOf(cells, "m")).isEqualTo(CpuSet.parse("2-4,66-68"));
        assertThat(cpusOf(cells, "b")).isEqualTo(CpuSet.parse("65"));
        assertThat(svg.texts()).contains("p1  trading/worked", "Socket 1  (CPUs 32-63,96-127)");
    }

    /** The picture in node-agent/docs is what the documented command draws today. */
    @Test
    void theDocumentedPictureIsUpToDate(@TempDir Path tmp) throws Exception {
        Path picture = tmp.resolve("worked.svg");
        Run r = exampleWith("worked-example", "src/test/resources/sysfs/intel-2s-ht", "--svg", picture.toString());
        assertThat(r.code()).as(r.err()).isZero();
        String committed = Files.readString(Path.of("docs/pictures/simulate-worked-example.svg"));
        assertThat(Files.readString(picture))
                .as("docs/pictures/simulate-worked-example.svg is out of date: make it again with the command in"
                        + " docs/behaviour.md (Pictures)")
                .isEqualTo(committed);
    }

    @Test
    void svgOfTheClassicExampleListsTheNodeSharedContainers(@TempDir Path tmp) throws Exception {
        Path picture = tmp.resolve("classic.svg");
        Run r = exampleWith("classic-guaranteed", INTEL, "--svg", picture.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("node shared pool: 0,3-64,67-127");
        SvgDocument svg = SvgDocument.parse(picture);
        List<Element> cells = svg.withClass("g", "cpu");
        assertThat(cpusOf(cells, "app")).isEqualTo(CpuSet.parse("1-2,65-66"));
        assertThat(cpusOf(cells, "migrate")).isEqualTo(CpuSet.parse("1,65"));
        assertThat(cpus(cells, "data-pool", "exclusive")).isEqualTo(CpuSet.parse("1-2,65-66"));
        assertThat(String.join("\n", svg.texts()))
                .contains("On the node shared pool: ")
                .contains("/db/metrics");
    }

    @Test
    void badSvgValuesAreUsageErrorsThatSayWhatToGive(@TempDir Path tmp) {
        Run r = exampleWith("worked-example", INTEL, "--svg", tmp.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("Invalid value for option '--svg'").contains("is a directory");
        r = exampleWith(
                "worked-example", INTEL, "--svg", tmp.resolve("machine.png").toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("does not end in .svg");
        r = exampleWith(
                "worked-example",
                INTEL,
                "--svg",
                tmp.resolve("nope/machine.svg").toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("the directory " + tmp.resolve("nope") + " does not exist");
        assertThat(tmp.resolve("nope")).doesNotExist();
        assertThat(run("simulate", "--help").out()).contains("--svg=FILE");
    }

    private static CpuSet cpus(List<Element> cells, String attribute, String value) {
        CpuSet.Builder b = CpuSet.builder();
        cells.stream()
                .filter(e -> e.getAttribute(attribute).equals(value))
                .forEach(e -> b.add(Integer.parseInt(e.getAttribute("data-cpu"))));
        return b.build();
    }

    private static CpuSet cpusOf(List<Element> cells, String container) {
        CpuSet.Builder b = CpuSet.builder();
        cells.stream()
                .filter(e ->
                        List.of(e.getAttribute("data-containers").split(",")).contains(container))
                .forEach(e -> b.add(Integer.parseInt(e.getAttribute("data-cpu"))));
        return b.build();
    }

    /** The count-reserved example on every fixture: the output adds up whatever the machine. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.FieldSource("io.podnuma.agent.sysfs.FakeMachine#ALL")
    void classicExampleOnEveryFixtureAddsUp(FakeMachine machine) throws Exception {
        Path dir = EXAMPLES.resolve("classic-guaranteed");
        Run r = run(
                "simulate",
                "--sysfs",
                Fixtures.path(machine.name()).toString(),
                "--policy",
                dir.resolve("policy.yaml").toString(),
                "--pods",
                dir.resolve("pods").toString(),
                "--output",
                "json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode j = r.json();
        var topo = Fixtures.topology(machine);
        var shared = io.podnuma.agent.engine.cpuset.CpuSet.parse(
                j.get("node").get("sharedPool").asText());
        var exclusive = io.podnuma.agent.engine.cpuset.CpuSet.parse(
                j.get("node").get("exclusive").asText());
        var reserved = io.podnuma.agent.engine.cpuset.CpuSet.parse(
                j.get("node").get("reserved").asText());
        assertThat(reserved.size()).isEqualTo(2);
        assertThat(shared.intersects(exclusive)).isFalse();
        assertThat(shared.union(exclusive).union(reserved)).isEqualTo(topo.onlineCpus());
        assertThat(j.get("steps").size()).isEqualTo(4);
        int admitted = j.get("pods").size() + j.get("rejected").size();
        assertThat(admitted)
                .as("db, web, and batch which was deleted or rejected")
                .isBetween(2, 3);
    }
}
