package io.podnuma.agent.engine.cpu.differential;

import io.podnuma.agent.engine.cpu.StaticPolicyOptions;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuInfo;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.machine.NumaNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * Makes differential cases from a seed: a machine (random, or one of the sysfs fixtures), a valid
 * option combination (now and then an invalid one, so refusals are compared too), a reservation
 * (count or explicit list) and 4-16 admissions and removals with random sizes and NUMA affinities.
 */
final class CaseGenerator {

    /** Options, in upstream's order. */
    private static final List<String> OPTION_NAMES = List.of(
            StaticPolicyOptions.FULL_PCPUS_ONLY,
            StaticPolicyOptions.DISTRIBUTE_CPUS_ACROSS_NUMA,
            StaticPolicyOptions.ALIGN_BY_SOCKET,
            StaticPolicyOptions.DISTRIBUTE_CPUS_ACROSS_CORES,
            StaticPolicyOptions.STRICT_CPU_RESERVATION,
            StaticPolicyOptions.PREFER_ALIGN_CPUS_BY_UNCORECACHE);

    private static final List<String> TOPOLOGY_POLICIES =
            List.of("none", "best-effort", "restricted", "single-numa-node");

    private final List<Map.Entry<String, CpuTopology>> fixtures;

    /** @param fixtures named machines read from the checked-in sysfs trees */
    CaseGenerator(Map<String, CpuTopology> fixtures) {
        // Machines over 128 CPUs cost the kubelet's code ~0.1 s a case: draw them a third as often.
        this.fixtures = new ArrayList<>();
        for (var f : new TreeMap<>(fixtures).entrySet()) {
            int weight = f.getValue().numCpus() > 128 ? 1 : 3;
            for (int i = 0; i < weight; i++) {
                this.fixtures.add(f);
            }
        }
    }

    DiffCase generate(long seed) {
        // java.util.Random's first draws are nearly equal for neighbouring seeds: scramble the seed.
        Random rnd = new Random(new SplittableRandom(seed).nextLong());
        String machine;
        CpuTopology topo;
        if (!fixtures.isEmpty() && rnd.nextInt(4) == 0) {
            var f = fixtures.get(rnd.nextInt(fixtures.size()));
            machine = "fixture " + f.getKey();
            topo = f.getValue();
        } else {
            StringBuilder desc = new StringBuilder();
            topo = randomMachine(rnd, desc);
            machine = desc.toString();
        }
        Map<String, String> options = options(rnd);
        String tmPolicy = TOPOLOGY_POLICIES.get(rnd.nextInt(TOPOLOGY_POLICIES.size()));
        int maxReserved = Math.max(1, topo.numCpus() / 4);
        int reservedCount = 1 + rnd.nextInt(maxReserved);
        String reservedList = null;
        if (rnd.nextInt(4) == 0) {
            int[] online = topo.onlineCpus().toArray();
            List<Integer> ids = new ArrayList<>();
            for (int id : online) {
                ids.add(id);
            }
            Collections.shuffle(ids, rnd);
            reservedList = CpuSet.of(ids.subList(0, reservedCount)).toString();
        }
        List<DiffCase.Op> ops = ops(rnd, topo);
        return new DiffCase(
                "s" + seed, machine, DiffCase.rows(topo), reservedCount, reservedList, options, tmPolicy, ops, topo);
    }

    // ---- options

    private static Map<String, String> options(Random rnd) {
        Map<String, String> out = new LinkedHashMap<>();
        boolean allowInvalid = rnd.nextInt(20) == 0;
        for (int attempt = 0; attempt < 100; attempt++) {
            out.clear();
            for (String name : OPTION_NAMES) {
                if (rnd.nextInt(3) == 0) {
                    // Upstream reads any strconv.ParseBool spelling; "false" must mean off.
                    out.put(name, rnd.nextInt(8) == 0 ? "false" : "true");
                }
            }
            if (allowInvalid || isValid(out)) {
                return out;
            }
        }
        return Map.of();
    }

    private static boolean isValid(Map<String, String> o) {
        boolean full = on(o, StaticPolicyOptions.FULL_PCPUS_ONLY);
        boolean numa = on(o, StaticPolicyOptions.DISTRIBUTE_CPUS_ACROSS_NUMA);
        boolean cores = on(o, StaticPolicyOptions.DISTRIBUTE_CPUS_ACROSS_CORES);
        boolean uncore = on(o, StaticPolicyOptions.PREFER_ALIGN_CPUS_BY_UNCORECACHE);
        return !(full && cores) && !(numa && cores) && !(uncore && cores) && !(uncore && numa);
    }

    private static boolean on(Map<String, String> o, String name) {
        return "true".equals(o.get(name));
    }

    // ---- operations

    private static List<DiffCase.Op> ops(Random rnd, CpuTopology topo) {
        int count = 4 + rnd.nextInt(13);
        int pods = 1 + rnd.nextInt(4);
        int[] numaIds = topo.numaNodeIds().toArray();
        List<DiffCase.Op> ops = new ArrayList<>();
        // Hints are asked only for new containers: for one already admitted the kubelet regenerates
        // them from its CPUs, a path the engine leaves to its caller.
        Map<String, DiffCase.Op> added = new HashMap<>();
        int next = 0;
        for (int i = 0; i < count; i++) {
            int roll = rnd.nextInt(10);
            if (roll < 3 && !added.isEmpty()) {
                List<String> owners = new ArrayList<>(added.keySet());
                Collections.sort(owners);
                DiffCase.Op victim = added.get(owners.get(rnd.nextInt(owners.size())));
                if (roll == 0 && rnd.nextBoolean()) {
                    // The same container again: the kubelet keeps its first answer.
                    ops.add(DiffCase.Op.add(
                            victim.pod(),
                            victim.container(),
                            victim.cpus(),
                            victim.init(),
                            victim.sidecar(),
                            victim.hint(),
                            false));
                } else {
                    ops.add(DiffCase.Op.remove(victim.pod(), victim.container()));
                }
                continue;
            }
            if (roll == 3 && rnd.nextInt(4) == 0) {
                ops.add(DiffCase.Op.remove("p" + rnd.nextInt(pods), "never" + i));
                continue;
            }
            String pod = "p" + rnd.nextInt(pods);
            String container = "c" + next++;
            int kind = rnd.nextInt(10);
            boolean init = kind < 3;
            boolean sidecar = kind == 0;
            int cpus = requestSize(rnd, topo);
            String hint = null;
            if (rnd.nextInt(3) != 0) {
                hint = randomNodes(rnd, numaIds).toString();
            }
            // The kubelet's hint generation costs O(NUMA masks x CPUs): ask less often on wide machines.
            boolean hints = numaIds.length > 4 ? rnd.nextInt(5) == 0 : rnd.nextInt(4) != 0;
            DiffCase.Op op = DiffCase.Op.add(pod, container, cpus, init, sidecar, hint, hints);
            ops.add(op);
            added.put(op.owner(), op);
        }
        return ops;
    }

    private static int requestSize(Random rnd, CpuTopology topo) {
        int n = topo.numCpus();
        return switch (rnd.nextInt(10)) {
            case 0 -> 1 + rnd.nextInt(n); // anything up to the whole machine: failures too
            case 1, 2 -> 1 + rnd.nextInt(Math.max(1, n / 2));
            case 3 -> topo.cpusPerCore() * (1 + rnd.nextInt(Math.max(1, topo.numCores() / 3)));
            case 4 ->
                Math.max(
                        1,
                        topo.cpusInNumaNode(topo.numaNodeIds().first()).size() * (1 + rnd.nextInt(2)) - rnd.nextInt(3));
            default -> 1 + rnd.nextInt(Math.max(1, Math.min(n / 4, 16)));
        };
    }

    private static CpuSet randomNodes(Random rnd, int[] ids) {
        CpuSet.Builder b = CpuSet.builder();
        int size = rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(ids.length) : 1;
        List<Integer> shuffled = new ArrayList<>();
        for (int id : ids) {
            shuffled.add(id);
        }
        Collections.shuffle(shuffled, rnd);
        for (int i = 0; i < size; i++) {
            b.add(shuffled.get(i));
        }
        return b.build();
    }

    // ---- machines

    /**
     * A random machine: 1-4 sockets; 1-4 NUMA nodes per socket, or (sometimes) one NUMA node over
     * two sockets; L3 groups per NUMA node or per socket; 1-6 cores per L3; 1, 2 or 4 threads per
     * core; CPUs numbered with adjacent siblings, siblings N and N+cores, sockets interleaved, or
     * shuffled; sometimes sparse NUMA and socket ids and offline CPUs. At most 192 CPUs.
     */
    static CpuTopology randomMachine(Random rnd, StringBuilder desc) {
        int sockets = new int[] {1, 1, 1, 2, 2, 2, 2, 3, 4, 4}[rnd.nextInt(10)];
        boolean numaSpansSockets = sockets % 2 == 0 && rnd.nextInt(10) == 0;
        int numaPerSocket = numaSpansSockets ? 1 : 1 + rnd.nextInt(4);
        while (sockets * numaPerSocket > 8) {
            numaPerSocket--;
        }
        boolean l3PerSocket = !numaSpansSockets && numaPerSocket > 1 && rnd.nextInt(6) == 0;
        int l3PerNuma = l3PerSocket ? 1 : 1 + rnd.nextInt(3);
        int coresPerL3 = 1 + rnd.nextInt(6);
        int threads = new int[] {1, 1, 1, 2, 2, 2, 2, 2, 2, 4}[rnd.nextInt(10)];
        // At most 192 CPUs: the kubelet's code is slow on big machines; the big fixtures cover those.
        while (coresPerL3 > 1 && sockets * numaPerSocket * l3PerNuma * coresPerL3 * threads > 192) {
            coresPerL3--;
        }
        int coresPerNuma = l3PerNuma * coresPerL3;
        if (l3PerSocket) {
            coresPerNuma = 1 + rnd.nextInt(6);
        }
        int coresPerSocket = coresPerNuma * numaPerSocket;
        int totalCores = coresPerSocket * sockets;
        int numCpus = totalCores * threads;
        String numbering = new String[] {"adjacent", "offset", "offset", "interleaved", "shuffled"}[rnd.nextInt(5)];
        int numaStride = rnd.nextInt(8) == 0 ? 2 : 1;
        int socketStride = rnd.nextInt(8) == 0 ? 3 : 1;

        // Logical CPU id of (core, thread), cores in hierarchical order.
        int[][] idOf = new int[totalCores][threads];
        List<Integer> perm = new ArrayList<>();
        for (int i = 0; i < numCpus; i++) {
            perm.add(i);
        }
        Collections.shuffle(perm, rnd);
        for (int core = 0; core < totalCores; core++) {
            int socket = core / coresPerSocket;
            int inSocket = core % coresPerSocket;
            for (int t = 0; t < threads; t++) {
                idOf[core][t] = switch (numbering) {
                    case "adjacent" -> core * threads + t;
                    case "offset" -> t * totalCores + core;
                    case "interleaved" -> t * totalCores + inSocket * sockets + socket;
                    default -> perm.get(core * threads + t);
                };
            }
        }
        CpuSet.Builder offlineB = CpuSet.builder();
        if (rnd.nextInt(5) == 0 && numCpus > 2) {
            int count = 1 + rnd.nextInt(Math.max(1, numCpus / 5));
            for (int i = 0; i < count; i++) {
                offlineB.add(rnd.nextInt(numCpus));
            }
        }
        CpuSet offline = offlineB.build();
        if (offline.size() >= numCpus) {
            offline = CpuSet.empty();
        }
        List<CpuInfo> cpus = new ArrayList<>();
        Map<Integer, CpuSet.Builder> byNuma = new TreeMap<>();
        for (int core = 0; core < totalCores; core++) {
            CpuSet.Builder sib = CpuSet.builder();
            for (int t = 0; t < threads; t++) {
                if (!offline.contains(idOf[core][t])) {
                    sib.add(idOf[core][t]);
                }
            }
            CpuSet siblings = sib.build();
            if (siblings.isEmpty()) {
                continue;
            }
            int socket = core / coresPerSocket;
            int numaIndex = numaSpansSockets ? socket / 2 : core / coresPerNuma;
            int numa = numaIndex * numaStride;
            int l3 = l3PerSocket ? socket : core / coresPerL3;
            int socketId = socket * socketStride;
            for (int cpu = siblings.first(); cpu >= 0; cpu = siblings.nextId(cpu + 1)) {
                cpus.add(new CpuInfo(cpu, socketId, 0, numa, siblings.first(), core % coresPerSocket, l3, siblings));
                byNuma.computeIfAbsent(numa, k -> CpuSet.builder()).add(cpu);
            }
        }
        List<NumaNode> nodes = new ArrayList<>();
        byNuma.forEach((id, b) -> nodes.add(new NumaNode(id, b.build(), 1L << 34, Map.of(), List.of())));
        desc.append(sockets)
                .append(" sockets x ")
                .append(numaSpansSockets ? "1/2" : String.valueOf(numaPerSocket))
                .append(" NUMA x ")
                .append(coresPerNuma)
                .append(" cores (")
                .append(l3PerSocket ? "L3 per socket" : l3PerNuma + " L3 per NUMA")
                .append(") x ")
                .append(threads)
                .append(" threads, ")
                .append(numbering)
                .append(" numbering");
        if (numaStride > 1 || socketStride > 1) {
            desc.append(", sparse ids");
        }
        if (!offline.isEmpty()) {
            desc.append(", offline ").append(offline);
        }
        return new CpuTopology(cpus, offline, nodes);
    }
}
