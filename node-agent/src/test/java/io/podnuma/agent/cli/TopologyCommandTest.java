package io.podnuma.agent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.podnuma.agent.sysfs.FakeMachine;
import io.podnuma.agent.sysfs.Fixtures;
import io.podnuma.testkit.svg.SvgDocument;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TopologyCommandTest {

    private record Run(int code, String out, String err) {}

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void jsonFollowsTheDocumentedSchema() throws Exception {
        Path sysfs = Fixtures.path(FakeMachine.EPYC_2S_NPS4.name());
        Run r = run("topology", "--sysfs", sysfs.toString(), "--output", "json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertThat(j.get("schema").asText()).isEqualTo("podnuma.io/topology/v1");
        assertThat(j.get("onlineCpus").asText()).isEqualTo("0-255");
        assertThat(j.get("counts").get("cpus").asInt()).isEqualTo(256);
        assertThat(j.get("counts").get("cpuNumaNodes").asInt()).isEqualTo(8);
        assertThat(j.get("counts").get("uncoreCaches").asInt()).isEqualTo(16);
        assertThat(j.get("counts").get("threadsPerCore").asInt()).isEqualTo(2);
        assertThat(j.get("sockets").get(1).get("numaNodes").asText()).isEqualTo("4-7");
        JsonNode node5 = j.get("numaNodes").get(5);
        assertThat(node5.get("cpus").asText()).isEqualTo("80-95,208-223");
        assertThat(node5.get("memoryBytes").asLong()).isEqualTo(64L << 30);
        assertThat(node5.get("distances").get("0").asInt()).isEqualTo(32);
        assertThat(node5.get("uncoreCaches").asText()).isEqualTo("10-11");
        assertThat(node5.get("hugepages").get(1).get("pageSizeKiB").asLong()).isEqualTo(1048576L);
        assertThat(node5.get("hugepages").get(1).get("pages").asLong()).isEqualTo(4L);
        assertThat(j.get("uncoreCaches").get(9).get("cpus").asText()).isEqualTo("72-79,200-207");
        assertThat(j.get("cores")).hasSize(128);
        assertThat(j.get("cores").get(2).get("cpus").asText()).isEqualTo("2,130");
    }

    @Test
    void jsonShowsMemoryOnlyAndOfflineCpus() throws Exception {
        Run cxl =
                run("topology", "--sysfs", Fixtures.path(FakeMachine.CXL.name()).toString(), "--output", "json");
        JsonNode j = new ObjectMapper().readTree(cxl.out());
        assertThat(j.get("counts").get("memoryOnlyNumaNodes").asInt()).isEqualTo(1);
        assertThat(j.get("numaNodes").get(1).get("memoryOnly").asBoolean()).isTrue();
        assertThat(j.get("numaNodes").get(1).get("cpus").asText()).isEmpty();

        Run off = run(
                "topology", "--sysfs", Fixtures.path(FakeMachine.OFFLINE.name()).toString(), "--output", "json");
        assertThat(new ObjectMapper().readTree(off.out()).get("offlineCpus").asText())
                .isEqualTo("14-15,29-31");
    }

    @Test
    void tableSummarisesTheMachine() {
        Run r = run(
                "topology",
                "--sysfs",
                Fixtures.path(FakeMachine.INTEL_2S_SNC2.name()).toString());
        assertThat(r.code()).isZero();
        assertThat(r.out())
                .contains("96 online CPUs (0-95), offline: none")
                .contains("2 socket(s), 4 NUMA node(s) with CPUs, 0 memory-only, 48 cores x 2 threads, 2 L3 group(s)")
                .containsPattern("(?m)^1\\s+2-3\\s+24-47,72-95$")
                .containsPattern("(?m)^1\\s+96\\.0 GiB\\s+0\\s+256x2Mi,4x1Gi\\s+11 10 21 21\\s+12-23,60-71$");
    }

    @Test
    void unreadableTreeExitsWithOneAndSaysWhy(@TempDir Path empty) {
        Run r = run("topology", "--sysfs", empty.toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).contains("error: cannot read the machine topology").contains("sysfs root");
    }

    @Test
    void svgDrawsEverySocketNodeCoreAndThread(@TempDir Path tmp) throws Exception {
        Path sysfs = Fixtures.path(FakeMachine.EPYC_2S_NPS4.name());
        Path picture = tmp.resolve("epyc.svg");
        Run r = run("topology", "--sysfs", sysfs.toString(), "--svg", picture.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("256 online CPUs (0-255)");
        SvgDocument svg = SvgDocument.parse(picture);
        assertThat(svg.title()).isEqualTo("Machine " + sysfs);
        assertThat(svg.withClass("g", "socket")).hasSize(2);
        assertThat(svg.withClass("g", "numa")).hasSize(8);
        assertThat(svg.withClass("g", "core")).hasSize(128);
        var cells = svg.withClass("g", "cpu");
        assertThat(cells).hasSize(256);
        assertThat(cells)
                .allSatisfy(c -> assertThat(c.getAttribute("data-pool")).isEqualTo("unallocated"));
        assertThat(svg.texts()).contains("NUMA node 5  (32 CPUs, 64.0 GiB)");
    }

    @Test
    void svgThatCannotBeWrittenFailsWithTheReasonAndNoOutput(@TempDir Path tmp) {
        // /proc takes no new files, not even from root: the option is valid, the write fails
        Path picture = Path.of("/proc/podnuma-machine.svg");
        Run r = run(
                "topology",
                "--sysfs",
                Fixtures.path(FakeMachine.LAPTOP.name()).toString(),
                "--svg",
                picture.toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).contains("error: --svg " + picture + ": cannot write the picture");
        assertThat(r.out()).isEmpty();

        r = run(
                "topology",
                "--sysfs",
                "/nonexistent",
                "--svg",
                tmp.resolve("machine.svgx").toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("does not end in .svg");
        assertThat(run("topology", "--help").out()).contains("--svg=FILE");
    }

    @Test
    void unknownOutputFormatIsAUsageError() {
        Run r = run("topology", "--sysfs", "/nonexistent", "--output", "yaml");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("yaml").contains("table").contains("json");
    }
}
