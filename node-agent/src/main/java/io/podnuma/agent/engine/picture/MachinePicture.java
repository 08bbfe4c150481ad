package io.podnuma.agent.engine.picture;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuInfo;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.machine.NumaNode;
import io.podnuma.agent.engine.picture.CpuMarks.Mark;
import io.podnuma.agent.engine.picture.CpuMarks.PodEntry;
import io.podnuma.agent.engine.picture.CpuMarks.Pool;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The machine as an SVG picture: socket → NUMA node → core → thread, each CPU coloured by its pool and pod, with a
 * legend. A pure function of the topology and the {@link CpuMarks}; writing the file is the caller's business.
 *
 * <p>Each CPU is a {@code <g class="cpu">} carrying {@code data-cpu}, {@code data-pool}, {@code data-pod} and
 * {@code data-containers} (comma-separated), and a {@code <title>} that a browser shows on hover.
 */
public final class MachinePicture {

    private static final double MARGIN = 16;
    private static final double CELL_W = 36;
    private static final double CELL_H = 30;
    private static final double THREAD_GAP = 2;
    private static final double CORE_PAD = 3;
    private static final double CORE_GAP = 4;
    private static final double NODE_PAD = 8;
    private static final double NODE_HEAD = 20;
    private static final double SOCKET_PAD = 10;
    private static final double SOCKET_HEAD = 24;
    private static final double GAP = 12;
    private static final double LINE = 16;
    private static final double CHAR_W = 6.2;
    private static final int CORES_PER_ROW = 8;
    private static final int NODES_PER_ROW = 2;
    private static final int NODE_SHARED_LISTED = 40;

    static final String SHARED_FILL = "#d9d9d9";
    static final String RESERVED_FILL = "#7f7f7f";
    static final String UNALLOCATED_FILL = "#f7f7f7";

    private static final String CSS = "text{font-family:sans-serif;fill:#222}"
            + ".t{font-size:16px;font-weight:bold}.s{font-size:12px;fill:#444}"
            + "rect.sock{fill:#f6f6f6;stroke:#555;stroke-width:1.5}rect.node{fill:#fff;stroke:#999}"
            + "rect.core{fill:#ececec;stroke:#c8c8c8}.h{font-size:12px;font-weight:bold}"
            + ".id{font-size:11px;text-anchor:middle}.tag{font-size:9px;text-anchor:middle}"
            + ".cpu rect{stroke:#444;stroke-width:.6}.cpu .pod-shared{stroke-dasharray:3 2;stroke-width:1.2}"
            + ".l{font-size:11px}.lb{font-size:11px;font-weight:bold}";

    private MachinePicture() {}

    /** The picture of {@code topology} under {@code marks}, headed by {@code title}. */
    public static String svg(String title, CpuTopology topology, CpuMarks marks) {
        Layout layout = new Layout(topology);
        double width = Math.max(Math.max(2 * MARGIN + layout.width(), 720), 2 * MARGIN + title.length() * 9.2);
        Svg svg = new Svg();
        text(svg, "t", title, MARGIN, MARGIN + 14);
        text(svg, "s", summary(topology), MARGIN, MARGIN + 32);
        double y = MARGIN + 46;
        for (SocketBox s : layout.sockets) {
            drawSocket(svg, topology, marks, s, MARGIN, y);
            y += s.height + GAP;
        }
        y = legend(svg, topology, marks, y + 4, width);
        return svg.document(width, y + MARGIN, title, CSS);
    }

    private static String summary(CpuTopology t) {
        String s = String.format(
                Locale.ROOT,
                "%d socket(s), %d NUMA node(s) with CPUs, %d cores x %d threads, %d online CPUs",
                t.numSockets(),
                t.numNumaNodes(),
                t.numCores(),
                t.cpusPerCore(),
                t.numCpus());
        return t.offlineCpus().isEmpty() ? s : s + ", offline " + t.offlineCpus();
    }

    private static void drawSocket(Svg svg, CpuTopology t, CpuMarks marks, SocketBox s, double x, double y) {
        svg.open("g", "class", "socket", "data-socket", Integer.toString(s.id));
        rect(svg, "sock", x, y, s.width, s.height);
        text(svg, "h", "Socket " + s.id + "  (CPUs " + t.cpusInSocket(s.id) + ")", x + SOCKET_PAD, y + 16);
        for (int i = 0; i < s.nodes.size(); i++) {
            NodeBox n = s.nodes.get(i);
            double nx = x + SOCKET_PAD + (i % NODES_PER_ROW) * (s.nodeWidth + GAP);
            double ny = y + SOCKET_HEAD + (i / NODES_PER_ROW) * (s.nodeHeight + GAP);
            drawNode(svg, t, marks, n, nx, ny, s.nodeWidth, s.nodeHeight);
        }
        svg.close();
    }

    private static void drawNode(
            Svg svg, CpuTopology t, CpuMarks marks, NodeBox n, double x, double y, double w, double h) {
        svg.open("g", "class", "numa", "data-numa-node", Integer.toString(n.id));
        rect(svg, "node", x, y, w, h);
        String memory = t.numaNode(n.id)
                .map(node -> String.format(Locale.ROOT, ", %.1f GiB", node.memoryBytes() / (1024.0 * 1024 * 1024)))
                .orElse("");
        text(svg, "h", "NUMA node " + n.id + "  (" + n.cpus.size() + " CPUs" + memory + ")", x + NODE_PAD, y + 15);
        for (int i = 0; i < n.cores.size(); i++) {
            int core = n.cores.get(i);
            double cx = x + NODE_PAD + (i % CORES_PER_ROW) * (n.coreWidth + CORE_GAP);
            double cy = y + NODE_HEAD + (i / CORES_PER_ROW) * (CELL_H + 2 * CORE_PAD + CORE_GAP);
            svg.open("g", "class", "core", "data-core", Integer.toString(core));
            rect(svg, "core", cx, cy, n.coreWidth, CELL_H + 2 * CORE_PAD);
            int[] threads = t.cpusInCore(core).toArray();
            for (int k = 0; k < threads.length; k++) {
                drawCpu(svg, t.info(threads[k]), marks, cx + CORE_PAD + k * (CELL_W + THREAD_GAP), cy + CORE_PAD);
            }
            svg.close();
        }
        svg.close();
    }

    private static void drawCpu(Svg svg, CpuInfo info, CpuMarks marks, double x, double y) {
        int cpu = info.cpu();
        Mark m = marks.cpus().get(cpu);
        if (m == null) {
            m = new Mark(Pool.UNALLOCATED, "", List.of());
        }
        int number = marks.number(m.pod());
        String fill = fill(m.pool(), number);
        String tag = switch (m.pool()) {
            case EXCLUSIVE, POD_SHARED -> number > 0 ? "p" + number : "";
            case RESERVED -> "res";
            default -> "";
        };
        List<String> attrs = new ArrayList<>(List.of(
                "class",
                "cpu",
                "data-cpu",
                Integer.toString(cpu),
                "data-pool",
                m.pool().wireName()));
        if (!m.pod().isEmpty()) {
            attrs.addAll(List.of("data-pod", m.pod()));
        }
        if (!m.containers().isEmpty()) {
            attrs.addAll(List.of("data-containers", String.join(",", m.containers())));
        }
        svg.open("g", attrs.toArray(String[]::new));
        StringBuilder hover = new StringBuilder()
                .append("CPU ")
                .append(cpu)
                .append(" (core ")
                .append(info.core())
                .append(", NUMA node ")
                .append(info.numaNode())
                .append(", socket ")
                .append(info.socket())
                .append("): ")
                .append(m.pool().wireName());
        if (!m.pod().isEmpty()) {
            hover.append(", ").append(m.pod());
            if (!m.containers().isEmpty()) {
                hover.append(": ").append(String.join(", ", m.containers()));
            }
        }
        svg.element("title", hover.toString());
        List<String> rect = new ArrayList<>(List.of(
                "x", Svg.num(x), "y", Svg.num(y), "width", Svg.num(CELL_W), "height", Svg.num(CELL_H), "fill", fill));
        if (m.pool() == Pool.POD_SHARED) {
            rect.addAll(List.of("class", "pod-shared"));
        }
        svg.empty("rect", rect.toArray(String[]::new));
        // the CSS's ink is dark; a dark cell says otherwise
        String[] ink = dark(fill) ? new String[] {"style", "fill:#fff"} : new String[0];
        String middle = Svg.num(x + CELL_W / 2);
        svg.element("text", Integer.toString(cpu), concat(ink, "class", "id", "x", middle, "y", Svg.num(y + 13)));
        if (!tag.isEmpty()) {
            svg.element("text", tag, concat(ink, "class", "tag", "x", middle, "y", Svg.num(y + 25)));
        }
        svg.close();
    }

    /** The legend: what the fills mean, each pod with its containers, the node pool; returns the y below it. */
    private static double legend(Svg svg, CpuTopology t, CpuMarks marks, double y, double width) {
        svg.open("g", "class", "legend");
        double x = MARGIN;
        String podColour = marks.pods().isEmpty() ? "#3d6fb0" : colour(1);
        boolean machineOnly = marks.pods().isEmpty() && marks.sharedPool().isEmpty();
        String[][] pools = machineOnly
                ? new String[][] {{"unallocated", UNALLOCATED_FILL, "online CPU (no allocation drawn)"}}
                : new String[][] {
                    {"exclusive", podColour, "exclusive: a container's own CPUs (its pod's colour)"},
                    {"pod-shared", light(podColour), "pod-shared: the pod's pool in its bubble (dashed)"},
                    {"reserved", RESERVED_FILL, "reserved for the system"},
                    {"shared", SHARED_FILL, "node shared pool"},
                    {"unallocated", UNALLOCATED_FILL, "unallocated"}
                };
        for (String[] p : pools) {
            double w = 20 + p[2].length() * CHAR_W + 16;
            if (x + w > width - MARGIN) {
                x = MARGIN;
                y += LINE + 4;
            }
            swatch(svg, x, y, p[1], p[0]);
            text(svg, "l", p[2], x + 20, y + 11);
            x += w;
        }
        y += LINE + 10;
        int chars = (int) ((width - 2 * MARGIN - 20) / CHAR_W);
        for (int i = 0; i < marks.pods().size(); i++) {
            PodEntry p = marks.pods().get(i);
            svg.open("g", "class", "pod", "data-pod", p.pod());
            swatch(svg, MARGIN, y, colour(i + 1), "exclusive");
            text(svg, "lb", "p" + (i + 1) + "  " + p.pod(), MARGIN + 20, y + 11);
            y += LINE;
            for (String line : wrap(String.join("; ", p.containers()), chars)) {
                text(svg, "l", line, MARGIN + 20, y + 11);
                y += LINE;
            }
            svg.close();
            y += 4;
        }
        List<String> notes = new ArrayList<>();
        if (!marks.sharedPool().isEmpty()) {
            notes.add("Node shared pool: " + marks.sharedPool() + " ("
                    + marks.sharedPool().size() + " CPUs)"
                    + (marks.reserved().isEmpty() ? "" : ", reserved " + marks.reserved()));
        }
        if (!marks.nodeShared().isEmpty()) {
            List<String> listed = marks.nodeShared()
                    .subList(0, Math.min(NODE_SHARED_LISTED, marks.nodeShared().size()));
            int more = marks.nodeShared().size() - listed.size();
            notes.add("On the node shared pool: " + String.join(", ", listed)
                    + (more > 0 ? " and " + more + " more" : ""));
        }
        List<String> memoryOnly = new ArrayList<>();
        for (NumaNode n : t.numaNodes()) {
            if (n.memoryOnly()) {
                memoryOnly.add(String.format(
                        Locale.ROOT, "node %d (%.1f GiB)", n.id(), n.memoryBytes() / (1024.0 * 1024 * 1024)));
            }
        }
        if (!memoryOnly.isEmpty()) {
            notes.add("Memory-only NUMA nodes: " + String.join(", ", memoryOnly));
        }
        if (!t.offlineCpus().isEmpty()) {
            notes.add("Offline CPUs (not drawn): " + t.offlineCpus());
        }
        for (String note : notes) {
            for (String line : wrap(note, chars + 3)) {
                text(svg, "l", line, MARGIN, y + 11);
                y += LINE;
            }
        }
        svg.close();
        return y;
    }

    private static void text(Svg svg, String cls, String text, double x, double y) {
        svg.element("text", text, "class", cls, "x", Svg.num(x), "y", Svg.num(y));
    }

    private static String[] concat(String[] tail, String... head) {
        String[] all = new String[head.length + tail.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(tail, 0, all, head.length, tail.length);
        return all;
    }

    private static void swatch(Svg svg, double x, double y, String fill, String pool) {
        svg.empty(
                "rect",
                "x",
                Svg.num(x),
                "y",
                Svg.num(y),
                "width",
                "14",
                "height",
                "14",
                "fill",
                fill,
                "stroke",
                "#444",
                "stroke-width",
                ".6",
                "stroke-dasharray",
                pool.equals("pod-shared") ? "3 2" : "none");
    }

    private static void rect(Svg svg, String cls, double x, double y, double w, double h) {
        svg.empty(
                "rect",
                "class",
                cls,
                "x",
                Svg.num(x),
                "y",
                Svg.num(y),
                "width",
                Svg.num(w),
                "height",
                Svg.num(h),
                "rx",
                "3");
    }

    /** Lines of at most {@code chars} characters, broken at spaces where there are any. */
    static List<String> wrap(String text, int chars) {
        List<String> lines = new ArrayList<>();
        String rest = text;
        while (rest.length() > chars) {
            int cut = rest.lastIndexOf(' ', chars);
            if (cut <= 0) {
                cut = chars;
            }
            lines.add(rest.substring(0, cut).strip());
            rest = rest.substring(cut).strip();
        }
        if (!rest.isEmpty()) {
            lines.add(rest);
        }
        return lines;
    }

    static String fill(Pool pool, int pod) {
        return switch (pool) {
            case EXCLUSIVE -> pod > 0 ? colour(pod) : "#3d6fb0";
            case POD_SHARED -> light(pod > 0 ? colour(pod) : "#3d6fb0");
            case RESERVED -> RESERVED_FILL;
            case SHARED -> SHARED_FILL;
            case UNALLOCATED -> UNALLOCATED_FILL;
        };
    }

    /**
     * Pod {@code n}'s colour: hues a golden angle apart, so that neighbours in the legend differ most and any number of
     * pods gets a colour.
     */
    public static String colour(int n) {
        double hue = ((n - 1) * 137.508 + 210) % 360;
        return hsl(hue, 0.62, 0.46);
    }

    /** The colour mixed with white, for a pod's shared pool. */
    static String light(String hex) {
        int[] c = rgb(hex);
        return hex(mix(c[0]), mix(c[1]), mix(c[2]));
    }

    private static int mix(int v) {
        return (int) Math.round(v + (255 - v) * 0.55);
    }

    static boolean dark(String hex) {
        int[] c = rgb(hex);
        return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2] < 140;
    }

    private static String hsl(double h, double s, double l) {
        double c = (1 - Math.abs(2 * l - 1)) * s;
        double hp = h / 60;
        double x = c * (1 - Math.abs(hp % 2 - 1));
        double[] rgb = switch ((int) hp) {
            case 0 -> new double[] {c, x, 0};
            case 1 -> new double[] {x, c, 0};
            case 2 -> new double[] {0, c, x};
            case 3 -> new double[] {0, x, c};
            case 4 -> new double[] {x, 0, c};
            default -> new double[] {c, 0, x};
        };
        double m = l - c / 2;
        return hex((int) Math.round((rgb[0] + m) * 255), (int) Math.round((rgb[1] + m) * 255), (int)
                Math.round((rgb[2] + m) * 255));
    }

    private static String hex(int r, int g, int b) {
        return String.format(Locale.ROOT, "#%02x%02x%02x", r, g, b);
    }

    private static int[] rgb(String hex) {
        return new int[] {
            Integer.parseInt(hex.substring(1, 3), 16),
            Integer.parseInt(hex.substring(3, 5), 16),
            Integer.parseInt(hex.substring(5, 7), 16)
        };
    }

    /** Where the boxes go: sockets stacked, their NUMA nodes in rows, cores in rows within a node. */
    private static final class Layout {
        final List<SocketBox> sockets = new ArrayList<>();

        Layout(CpuTopology t) {
            int threads = 1;
            for (int core : t.coreIds().toArray()) {
                threads = Math.max(threads, t.cpusInCore(core).size());
            }
            double coreWidth = threads * CELL_W + (threads - 1) * THREAD_GAP + 2 * CORE_PAD;
            for (int s : t.socketIds().toArray()) {
                List<NodeBox> nodes = new ArrayList<>();
                CpuSet socketCpus = t.cpusInSocket(s);
                for (int n : t.numaNodesInSockets(CpuSet.of(s)).toArray()) {
                    CpuSet cpus = t.cpusInNumaNode(n).intersection(socketCpus);
                    List<Integer> cores = new ArrayList<>();
                    for (int core : t.coresOf(cpus).toArray()) {
                        cores.add(core);
                    }
                    if (!cores.isEmpty()) {
                        nodes.add(new NodeBox(n, cpus, cores, coreWidth));
                    }
                }
                sockets.add(new SocketBox(s, nodes));
            }
        }

        double width() {
            return sockets.stream().mapToDouble(s -> s.width).max().orElse(0);
        }
    }

    private static final class NodeBox {
        final int id;
        final CpuSet cpus;
        final List<Integer> cores;
        final double coreWidth;
        final double width;
        final double height;

        NodeBox(int id, CpuSet cpus, List<Integer> cores, double coreWidth) {
            this.id = id;
            this.cpus = cpus;
            this.cores = cores;
            this.coreWidth = coreWidth;
            int cols = Math.min(CORES_PER_ROW, cores.size());
            int rows = (cores.size() + CORES_PER_ROW - 1) / CORES_PER_ROW;
            double headWidth = 20 + ("NUMA node " + id + "  (" + cpus.size() + " CPUs, 000.0 GiB)").length() * CHAR_W;
            this.width = Math.max(headWidth, 2 * NODE_PAD + cols * coreWidth + (cols - 1) * CORE_GAP);
            this.height = NODE_HEAD + NODE_PAD + rows * (CELL_H + 2 * CORE_PAD) + (rows - 1) * CORE_GAP;
        }
    }

    private static final class SocketBox {
        final int id;
        final List<NodeBox> nodes;
        final double nodeWidth;
        final double nodeHeight;
        final double width;
        final double height;

        SocketBox(int id, List<NodeBox> nodes) {
            this.id = id;
            this.nodes = nodes;
            this.nodeWidth = nodes.stream().mapToDouble(n -> n.width).max().orElse(0);
            this.nodeHeight = nodes.stream().mapToDouble(n -> n.height).max().orElse(0);
            int cols = Math.min(NODES_PER_ROW, nodes.size());
            int rows = (nodes.size() + NODES_PER_ROW - 1) / NODES_PER_ROW;
            this.width = 2 * SOCKET_PAD + cols * nodeWidth + (cols - 1) * GAP;
            this.height = SOCKET_HEAD + rows * nodeHeight + (rows - 1) * GAP + SOCKET_PAD;
        }
    }
}
