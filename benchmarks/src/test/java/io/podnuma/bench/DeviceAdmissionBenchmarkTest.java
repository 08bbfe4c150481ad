package io.podnuma.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.engine.node.AdmissionResult;
import org.junit.jupiter.api.Test;

/** The benchmark measures what it says: both pods are admitted, and the one with the accelerator lands by it. */
class DeviceAdmissionBenchmarkTest {

    private static AdmissionResult.Admitted admitted(String scenario) {
        DeviceAdmissionBenchmark b = new DeviceAdmissionBenchmark();
        b.scenario = scenario;
        b.setUp();
        AdmissionResult r = b.admit();
        assertThat(r).as("%s", r).isInstanceOf(AdmissionResult.Admitted.class);
        return (AdmissionResult.Admitted) r;
    }

    @Test
    void thePodHoldingTheAcceleratorOfNode5GetsCpusOfNode5AndWithoutItOfNode0() {
        var topo = BenchMachine.topology();
        var with = admitted(DeviceAdmissionBenchmark.ONE_ACCEL)
                .pod()
                .container("m")
                .orElseThrow();
        var without =
                admitted(DeviceAdmissionBenchmark.NONE).pod().container("m").orElseThrow();
        assertThat(with.cpus().size()).isEqualTo(4);
        assertThat(topo.numaNodesOf(with.cpus()).stream().boxed()).containsExactly(5);
        assertThat(topo.numaNodesOf(without.cpus()).stream().boxed()).containsExactly(0);
    }
}
