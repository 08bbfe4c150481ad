package io.podnuma.agent.engine.cpu.differential;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.machine.TestTopologies;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The differential harness without Go: case generation, the Java side, the comparison and the
 * allow-list. {@link KubeletDifferentialIT} needs Go; these run everywhere.
 */
class DifferentialHarnessTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final CaseGenerator GENERATOR = new CaseGenerator(Map.of("dual", TestTopologies.DUAL_SOCKET_HT));

    /** 2 sockets, 12 CPUs; two containers of one pod; CPU 0 reserved. */
    private static DiffCase twoContainers() {
        CpuTopology topo = TestTopologies.DUAL_SOCKET_HT;
        return new DiffCase(
                "t",
                "dual socket",
                DiffCase.rows(topo),
                1,
                null,
                Map.of(),
                "none",
                List.of(
                        DiffCase.Op.add("p", "a", 2, false, false, "0", true),
                        DiffCase.Op.add("p", "b", 2, false, false, "0", true)),
                topo);
    }

    @Test
    void aSeedAlwaysMakesTheSameCase() throws Exception {
        for (long seed = 0; seed < 50; seed++) {
            assertThat(JSON.writeValueAsString(GENERATOR.generate(seed)))
                    .isEqualTo(JSON.writeValueAsString(GENERATOR.generate(seed)));
        }
        assertThat(JSON.writeValueAsString(GENERATOR.generate(1)))
                .isNotEqualTo(JSON.writeValueAsString(GENERATOR.generate(2)));
    }

    @Test
    void generatedCasesRunOnTheJavaEngineAndCoverTheOptions() {
        int refused = 0;
        int fixtures = 0;
        java.util.Set<String> options = new java.util.TreeSet<>();
        for (long seed = 0; seed < 400; seed++) {
            DiffCase c = GENERATOR.generate(seed);
            Outcome o = JavaEngineRunner.run(c);
            if (o.createError() != null) {
                refused++;
                continue;
            }
            assertThat(o.ops()).as("case %s", c.id()).hasSameSizeAs(c.ops());
            for (Outcome.OpOutcome op : o.ops()) {
                assertThat(String.valueOf(op.errorReason()))
                        .as("case %s", c.id())
                        .doesNotStartWith("exception");
            }
            fixtures += c.machine().startsWith("fixture ") ? 1 : 0;
            c.options().forEach((k, v) -> options.add(k));
        }
        assertThat(refused).isBetween(1, 120);
        assertThat(fixtures).isGreaterThan(40);
        assertThat(options).hasSize(6);
    }

    @Test
    void identicalAnswersAgree() {
        DiffCase c = twoContainers();
        Comparison cmp = Comparison.of(c, JavaEngineRunner.run(c), JavaEngineRunner.run(c));
        assertThat(cmp.agrees()).isTrue();
        assertThat(cmp.differences()).isEmpty();
    }

    @Test
    void aDifferentCpuSetIsAnUnexplainedDisagreement() {
        DiffCase c = twoContainers();
        Outcome java = JavaEngineRunner.run(c);
        Outcome kubelet = withOp(
                java,
                1,
                new Outcome.OpOutcome(
                        java.ops().get(1).hints(),
                        "10-11",
                        null,
                        null,
                        java.ops().get(1).defaultSet()));
        Comparison cmp = Comparison.of(c, java, kubelet);
        assertThat(cmp.agrees()).isFalse();
        assertThat(cmp.differences())
                .containsExactly("op 1 cpus: java=" + java.ops().get(1).cpus() + " kubelet=10-11");
        assertThat(KnownDifferences.explaining(cmp)).isEmpty();
    }

    /** {@link #twoContainers()} on the same machine with CPU 11 offline (core 5 has one thread). */
    private static DiffCase twoContainersAsymmetric() {
        CpuTopology topo = TestTopologies.build(
                12, cpu -> cpu % 6, cpu -> (cpu % 6) % 2, cpu -> (cpu % 6) % 2, cpu -> 0, CpuSet.of(11));
        DiffCase c = twoContainers();
        return new DiffCase(
                c.id(),
                "dual socket, CPU 11 offline",
                DiffCase.rows(topo),
                c.reservedCount(),
                null,
                c.options(),
                c.topologyManagerPolicy(),
                c.ops(),
                topo);
    }

    /** The Java answer with container b also given the first CPU of container a. */
    private static Outcome grantingABusyCpu(Outcome java) {
        String busy = java.ops().get(0).cpus().split("[,-]")[0];
        Outcome.OpOutcome b = java.ops().get(1);
        return withOp(java, 1, new Outcome.OpOutcome(b.hints(), busy + ",10", null, null, b.defaultSet()));
    }

    @Test
    void aKubeletGrantOfABusyCpuIsExplainedOnAsymmetricMachinesOnly() {
        DiffCase asymmetric = twoContainersAsymmetric();
        Outcome java = JavaEngineRunner.run(asymmetric);
        Outcome kubelet = grantingABusyCpu(java);
        assertThat(KubeletFaults.firstFault(asymmetric, kubelet)).hasValue(1);
        assertThat(KubeletFaults.firstFault(asymmetric, java)).isEmpty();
        assertThat(KnownDifferences.explaining(Comparison.of(asymmetric, java, kubelet)))
                .hasValue(List.of(KnownDifferences.BUSY_CPUS));

        // On a symmetric machine the kubelet has no reason to do this: it stays a disagreement.
        DiffCase symmetric = twoContainers();
        Outcome symJava = JavaEngineRunner.run(symmetric);
        Outcome symKubelet = grantingABusyCpu(symJava);
        assertThat(KubeletFaults.firstFault(symmetric, symKubelet)).hasValue(1);
        assertThat(KnownDifferences.explaining(Comparison.of(symmetric, symJava, symKubelet)))
                .isEmpty();
    }

    @Test
    void aKubeletGrantOutsideTheAffinityIsAFaultWhenEnoughAlignedCpusWereFree() {
        DiffCase c = twoContainersAsymmetric();
        Outcome java = JavaEngineRunner.run(c);
        // Container a asked for 2 CPUs on NUMA node 0, which has 5 free: one on node 1 is a fault.
        Outcome.OpOutcome a = java.ops().get(0);
        String firstOnNode0 = a.cpus().split("[,-]")[0];
        Outcome kubelet =
                withOp(java, 0, new Outcome.OpOutcome(a.hints(), firstOnNode0 + ",1", null, null, a.defaultSet()));
        assertThat(KubeletFaults.firstFault(c, kubelet)).hasValue(0);
    }

    @Test
    void onlyTheKnownRefusalTextsMayBeWordedDifferently() {
        DiffCase c = twoContainers();
        Outcome java = Outcome.refused("t", "Topology manager single-numa-node policy is incompatible with ...");
        Outcome known = Outcome.refused("t", "Topolgy manager single-numa-node policy is incompatible with ...");
        Outcome other = Outcome.refused("t", "something else entirely");
        assertThat(KnownDifferences.explaining(Comparison.of(c, java, known)))
                .hasValue(List.of(KnownDifferences.REWORDED_REFUSALS));
        assertThat(KnownDifferences.explaining(Comparison.of(c, java, other))).isEmpty();
        Outcome accepted = JavaEngineRunner.run(c);
        assertThat(KnownDifferences.explaining(Comparison.of(c, accepted, known)))
                .isEmpty();
    }

    @Test
    void aHangIsExplainedOnlyWhenEverythingBeforeItAgrees() {
        DiffCase c = twoContainers();
        Outcome java = JavaEngineRunner.run(c);
        Outcome hungAtSecond = new Outcome(
                "t", null, java.reserved(), java.defaultSet(), java.ops().subList(0, 1), true);
        assertThat(KnownDifferences.explaining(Comparison.of(c, java, hungAtSecond)))
                .hasValue(List.of(KnownDifferences.HANG));
        Outcome.OpOutcome wrong = new Outcome.OpOutcome(List.of(), "", "UnexpectedAdmissionError", "x", "0-11");
        Outcome hungAfterADifference = new Outcome("t", null, java.reserved(), java.defaultSet(), List.of(wrong), true);
        assertThat(KnownDifferences.explaining(Comparison.of(c, java, hungAfterADifference)))
                .isEmpty();
    }

    @Test
    void theHandMadeHangCaseIsAcceptedByTheJavaEngine() {
        DiffCase c = FixedCases.kubeletHangsInDistributedRemainder();
        Outcome o = JavaEngineRunner.run(c);
        assertThat(o.createError()).isNull();
        assertThat(o.reserved()).isEqualTo("0,6,12,18");
        // podnuma places the 14 CPUs on whole cores (full-pcpus-only) without looping.
        assertThat(o.ops().get(0).errorReason()).isNull();
        assertThat(CpuSet.parse(o.ops().get(0).cpus()).size()).isEqualTo(14);
    }

    @Test
    void theOracleInputIsTheDocumentedShape() throws Exception {
        String json = JSON.writeValueAsString(twoContainers());
        assertThat(json)
                .contains("\"cpus\":[[0,0,0,0,0],[1,1,1,1,0]")
                .contains("\"reservedCount\":1")
                .contains("{\"op\":\"add\",\"pod\":\"p\",\"container\":\"a\",\"cpus\":2,\"hint\":\"0\",\"hints\":true}")
                .doesNotContain("topology\":")
                .doesNotContain("reservedList");
    }

    private static Outcome withOp(Outcome o, int index, Outcome.OpOutcome replacement) {
        List<Outcome.OpOutcome> ops = new ArrayList<>(o.ops());
        ops.set(index, replacement);
        return new Outcome(o.id(), o.createError(), o.reserved(), o.defaultSet(), ops, o.hang());
    }
}
