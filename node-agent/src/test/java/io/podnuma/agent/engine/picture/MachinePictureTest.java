package io.podnuma.agent.engine.picture;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.pod.ContainerType;
import io.podnuma.agent.engine.pod.PodQos;
import io.podnuma.agent.engine.pod.PodRef;
import io.podnuma.agent.engine.state.AssignmentKind;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.engine.state.PodPlacement;
import io.podnuma.agent.engine.topology.NumaMask;
import io.podnuma.agent.sysfs.FakeMachine;
import io.podnuma.agent.sysfs.Fixtures;
import io.podnuma.testkit.svg.SvgDocument;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/**
 * The machine picture of a known allocation on the 2-socket, 4-NUMA fixture ({@code intel-2s-snc2}: node 0 holds CPUs
 * 0-11 and their siblings 48-59, node 1 12-23 and 60-71, ...): every CPU drawn once, in its socket, node and core,
 * marked with exactly the pool, pod and containers the state gives it.
 */
class MachinePictureTest {

    private static final CpuTopology SNC2 = Fixtures.topology(FakeMachine.INTEL_2S_SNC2);
    private static final CpuSet RESERVED = CpuSet.of(0, 48);
    private static final String ODD = "we<ird>&\"n'ame\u0007";

    /**
     * A container-scope pod with two exclusive CPUs and a node-shared sidecar, a pod-level pod on node 1 (bubble
     * 12-13,60-61: app 12,60 exclusive, sidecar on the pod pool 13,61, an init container that ran on all four), and a
     * pod whose names need escaping. The picture numbers pods in the state's order (by uid): db, odd, worked.
     */
    private static NodeState state() {
        PodAssignment db = pod(
                "db-uid",
                "shop",
                "db",
                PodPlacement.CONTAINER,
                CpuSet.empty(),
                CpuSet.empty(),
                container("app", ContainerType.APP, AssignmentKind.EXCLUSIVE, "2-3,50-51"),
                container("log", ContainerType.SIDECAR, AssignmentKind.NODE_SHARED, ""));
        PodAssignment worked = pod(
                "worked-uid",
                "trading",
                "worked",
                PodPlacement.POD_LEVEL,
                CpuSet.parse("12-13,60-61"),
                CpuSet.parse("13,61"),
                container("init", ContainerType.INIT, AssignmentKind.POD_SHARED, "12-13,60-61"),
                container("proxy", ContainerType.SIDECAR, AssignmentKind.POD_SHARED, "13,61"),
                container("app", ContainerType.APP, AssignmentKind.EXCLUSIVE, "12,60"));
        PodAssignment odd = pod(
                "odd-uid",
                "n&s",
                ODD,
                PodPlacement.CONTAINER,
                CpuSet.empty(),
                CpuSet.empty(),
                container("c<1>", ContainerType.APP, AssignmentKind.EXCLUSIVE, "30,78"));
        CpuSet taken = CpuSet.parse("2-3,50-51,12-13,60-61,30,78");
        TreeMap<String, PodAssignment> pods = new TreeMap<>();
        for (PodAssignment p : List.of(db, worked, odd)) {
            pods.put(p.ref().uid(), p);
        }
        return new NodeState(SNC2.onlineCpus().difference(taken), pods);
    }

    private static PodAssignment pod(
            String uid,
            String ns,
            String name,
            PodPlacement placement,
            CpuSet bubble,
            CpuSet podPool,
            ContainerAssignment... containers) {
        return new PodAssignment(
                new PodRef(uid, ns, name),
                PodQos.GUARANTEED,
                placement,
                NumaMask.empty(),
                bubble,
                podPool,
                List.of(),
                List.of(containers));
    }

    private static ContainerAssignment container(String name, ContainerType type, AssignmentKind kind, String cpus) {
        return new ContainerAssignment(name, type, kind, CpuSet.parse(cpus), List.of(), NumaMask.empty());
    }

    private static SvgDocument picture() {
        return SvgDocument.parse(MachinePicture.svg("snc2 <" + ODD + ">", SNC2, CpuMarks.of(SNC2, state(), RESERVED)));
    }

    private static CpuSet cpus(List<Element> cells, Predicate<Element> which) {
        CpuSet.Builder b = CpuSet.builder();
        cells.stream().filter(which).forEach(e -> b.add(Integer.parseInt(e.getAttribute("data-cpu"))));
        return b.build();
    }

    private static List<String> containers(Element cell) {
        String v = cell.getAttribute("data-containers");
        return v.isEmpty() ? List.of() : List.of(v.split(","));
    }

    @Test
    void everyCpuIsDrawnOnceInItsSocketNodeAndCore() {
        SvgDocument svg = picture();
        List<Element> cells = svg.withClass("g", "cpu");
        assertThat(cells).hasSize(96);
        assertThat(cpus(cells, e -> true)).isEqualTo(SNC2.onlineCpus());
        List<Element> sockets = svg.withClass("g", "socket");
        assertThat(sockets).hasSize(2);
        for (Element s : sockets) {
            int id = Integer.parseInt(s.getAttribute("data-socket"));
            assertThat(cpus(SvgDocument.withClass(s, "g", "cpu"), e -> true)).isEqualTo(SNC2.cpusInSocket(id));
        }
        List<Element> nodes = svg.withClass("g", "numa");
        assertThat(nodes).hasSize(4);
        for (Element n : nodes) {
            int id = Integer.parseInt(n.getAttribute("data-numa-node"));
            assertThat(cpus(SvgDocument.withClass(n, "g", "cpu"), e -> true)).isEqualTo(SNC2.cpusInNumaNode(id));
        }
        List<Element> cores = svg.withClass("g", "core");
        assertThat(cores).hasSize(48);
        for (Element c : cores) {
            int id = Integer.parseInt(c.getAttribute("data-core"));
            assertThat(cpus(SvgDocument.withClass(c, "g", "cpu"), e -> true)).isEqualTo(SNC2.cpusInCore(id));
        }
    }

    @Test
    void eachCpuCarriesExactlyItsPoolPodAndContainers() {
        List<Element> cells = picture().withClass("g", "cpu");
        Map<String, CpuSet> byPool = new TreeMap<>();
        for (CpuMarks.Pool pool : CpuMarks.Pool.values()) {
            byPool.put(
                    pool.wireName(),
                    cpus(cells, e -> e.getAttribute("data-pool").equals(pool.wireName())));
        }
        assertThat(byPool)
                .containsEntry("exclusive", CpuSet.parse("2-3,12,30,50-51,60,78"))
                .containsEntry("pod-shared", CpuSet.parse("13,61"))
                .containsEntry("reserved", RESERVED)
                .containsEntry("shared", SNC2.onlineCpus().difference(CpuSet.parse("0,48,2-3,50-51,12-13,60-61,30,78")))
                .containsEntry("unallocated", CpuSet.empty());

        assertThat(cpus(cells, e -> e.getAttribute("data-pod").equals("shop/db")))
                .isEqualTo(CpuSet.parse("2-3,50-51"));
        assertThat(cpus(cells, e -> e.getAttribute("data-pod").equals("trading/worked")))
                .isEqualTo(CpuSet.parse("12-13,60-61"));
        assertThat(cpus(cells, e -> e.getAttribute("data-pod").equals("n&s/" + ODD.replace('\u0007', '\uFFFD'))))
                .isEqualTo(CpuSet.parse("30,78"));

        assertThat(cpus(
                        cells,
                        e -> e.getAttribute("data-pod").equals("trading/worked")
                                && containers(e).contains("app")))
                .isEqualTo(CpuSet.parse("12,60"));
        assertThat(cpus(cells, e -> containers(e).contains("proxy"))).isEqualTo(CpuSet.parse("13,61"));
        assertThat(cpus(cells, e -> containers(e).contains("init"))).isEqualTo(CpuSet.parse("12-13,60-61"));
        assertThat(cpus(cells, e -> containers(e).contains("c<1>"))).isEqualTo(CpuSet.parse("30,78"));
        // the node-shared sidecar owns no CPU: it is listed with the node pool instead
        assertThat(cpus(cells, e -> containers(e).contains("log"))).isEqualTo(CpuSet.empty());
        assertThat(cells.stream()
                        .filter(e -> e.getAttribute("data-cpu").equals("60"))
                        .findFirst()
                        .map(MachinePictureTest::containers))
                .contains(List.of("init", "app"));
    }

    @Test
    void legendTitleAndLabelsNameEveryPodAndEscapeWhatNeedsIt() {
        String xml = MachinePicture.svg("snc2 <" + ODD + ">", SNC2, CpuMarks.of(SNC2, state(), RESERVED));
        assertThat(xml)
                .doesNotContain("\u0007")
                .contains("&lt;")
                .contains("&amp;")
                .contains("&quot;");
        SvgDocument svg = SvgDocument.parse(xml);
        String odd = ODD.replace('\u0007', '\uFFFD');
        assertThat(svg.title()).isEqualTo("snc2 <" + odd + ">");
        List<String> texts = svg.texts();
        assertThat(texts)
                .contains("p1  shop/db", "p2  n&s/" + odd, "p3  trading/worked")
                .contains("app: 2-3,50-51 exclusive; log: node shared pool")
                .contains("bubble 12-13,60-61, pod pool 13,61; init: 12-13,60-61 pod-shared; proxy: 13,61 pod-shared;"
                        + " app: 12,60 exclusive")
                .contains("On the node shared pool: shop/db/log")
                .contains("Socket 1  (CPUs 24-47,72-95)");
        assertThat(texts.stream().filter(t -> t.startsWith("NUMA node 1 ")).toList())
                .containsExactly("NUMA node 1  (24 CPUs, 96.0 GiB)");
        // a CPU's cell says which pod it belongs to, in the pod's own colour
        List<Element> cells = svg.withClass("g", "cpu");
        Element cpu12 = cells.stream()
                .filter(e -> e.getAttribute("data-cpu").equals("12"))
                .findFirst()
                .orElseThrow();
        List<String> inCell = new ArrayList<>();
        var texts12 = cpu12.getElementsByTagNameNS(SvgDocument.SVG_NS, "text");
        for (int i = 0; i < texts12.getLength(); i++) {
            inCell.add(texts12.item(i).getTextContent());
        }
        assertThat(inCell).containsExactly("12", "p3");
        Element rect = (Element)
                cpu12.getElementsByTagNameNS(SvgDocument.SVG_NS, "rect").item(0);
        assertThat(rect.getAttribute("fill")).isEqualTo(MachinePicture.colour(3));
        assertThat(MachinePicture.colour(1))
                .isNotEqualTo(MachinePicture.colour(2))
                .isNotEqualTo(MachinePicture.colour(3));
    }

    @Test
    void theMachineAloneMarksEveryOnlineCpuAndListsOfflineAndMemoryOnlyParts() {
        CpuTopology offline = Fixtures.topology(FakeMachine.OFFLINE);
        SvgDocument svg = SvgDocument.parse(MachinePicture.svg("offline", offline, CpuMarks.none(offline)));
        List<Element> cells = svg.withClass("g", "cpu");
        assertThat(cpus(cells, e -> e.getAttribute("data-pool").equals("unallocated")))
                .isEqualTo(offline.onlineCpus());
        assertThat(cells).hasSize(offline.numCpus());
        assertThat(svg.texts()).contains("Offline CPUs (not drawn): " + offline.offlineCpus());

        CpuTopology cxl = Fixtures.topology(FakeMachine.CXL);
        assertThat(SvgDocument.parse(MachinePicture.svg("cxl", cxl, CpuMarks.none(cxl)))
                        .texts())
                .contains("Memory-only NUMA nodes: node 1 (128.0 GiB)");
    }

    @Test
    void textWrapsAtSpacesWithinTheWidth() {
        assertThat(MachinePicture.wrap("aaa bbb ccc", 7)).containsExactly("aaa bbb", "ccc");
        assertThat(MachinePicture.wrap("abcdefghij", 4)).containsExactly("abcd", "efgh", "ij");
        assertThat(Svg.num(1.0)).isEqualTo("1");
        assertThat(Svg.num(2.5)).isEqualTo("2.5");
        assertThat(Svg.num(0.125)).isEqualTo("0.13");
    }
}
