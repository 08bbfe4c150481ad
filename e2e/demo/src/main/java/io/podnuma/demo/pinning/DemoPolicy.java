package io.podnuma.demo.pinning;

import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.crds.v1alpha1.policy.CpuManager;
import io.podnuma.crds.v1alpha1.policy.CpuManagerPolicy;

/**
 * The demo's policy made from a sample written for another machine.
 */
public final class DemoPolicy {

    private DemoPolicy() {}

    /**
     * The spec with {@code cpuManager.reservedCpus} replaced: a policy written for one instance type names that
     * machine's CPUs, and this machine has others. Other fields are kept as they are.
     */
    public static NumaResourcePolicySpec withReservedCpus(NumaResourcePolicySpec spec, String reservedCpus) {
        CpuManager cpu = spec.cpuManager();
        // The CRD allows one of reservedCpus and reservedCpuCount.
        CpuManager mine = cpu == null
                ? new CpuManager(CpuManagerPolicy.STATIC, reservedCpus, null, null, null)
                : new CpuManager(cpu.policy(), reservedCpus, null, cpu.options(), cpu.reconcilePeriod());
        return new NumaResourcePolicySpec(
                spec.nodeSelector(),
                spec.priority(),
                spec.topologyManager(),
                mine,
                spec.memoryManager(),
                spec.podLevelResources(),
                spec.admission(),
                spec.exportNodeResourceTopology());
    }
}
