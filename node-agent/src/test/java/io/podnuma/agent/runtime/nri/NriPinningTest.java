package io.podnuma.agent.runtime.nri;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.cgroup.ContainerId;
import io.podnuma.agent.config.ExclusiveCpuQuota;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.metrics.AgentMetrics;
import io.podnuma.agent.nri.CreateResult;
import io.podnuma.agent.nri.NriEvent;
import io.podnuma.agent.nri.RuntimeInfo;
import io.podnuma.agent.runtime.birth.BirthDecision;
import io.podnuma.agent.runtime.birth.BirthReason;
import io.podnuma.agent.runtime.core.Pin;
import io.podnuma.agent.sysfs.SysfsTopologyReader;
import io.podnuma.nri.v1alpha1.Container;
import io.podnuma.nri.v1alpha1.ContainerUpdate;
import io.podnuma.nri.v1alpha1.LinuxCPU;
import io.podnuma.nri.v1alpha1.LinuxMemory;
import io.podnuma.nri.v1alpha1.LinuxResources;
import io.podnuma.nri.v1alpha1.OptionalInt64;
import io.podnuma.nri.v1alpha1.PodSandbox;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What the agent answers the runtime: the adjustment, the rewritten update, the quota, and the metrics it counts. */
class NriPinningTest {

    private static final PodSandbox POD = PodSandbox.newBuilder()
            .setId("sandbox")
            .setUid("uid-1")
            .setNamespace("ns")
            .setName("p")
            .build();
    private static final Container APP = Container.newBuilder()
            .setId("c".repeat(64))
            .setPodSandboxId("sandbox")
            .setName("app")
            .build();

    private final AgentMetrics metrics = new AgentMetrics(topology());
    private final Map<String, BirthDecision> decisions = new HashMap<>();

    private static CpuTopology topology() {
        try {
            return new SysfsTopologyReader(Path.of("src/test/resources/sysfs/intel-2s-ht")).read();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private NriPinning pinning(ExclusiveCpuQuota quota) {
        return new NriPinning(
                (uid, name) ->
                        decisions.getOrDefault(uid + "/" + name, new BirthDecision.Unpinned(BirthReason.NOT_STARTED)),
                quota,
                metrics);
    }

    @Test
    void aContainerTheAgentDecidedIsCreatedWithItsCpusAndMemoryNodes() {
        decisions.put("uid-1/app", new BirthDecision.Pinned(new Pin(CpuSet.of(2, 3, 66), CpuSet.of(0)), false));
        CreateResult r = pinning(ExclusiveCpuQuota.KEEP).createContainer(POD, APP);

        LinuxCPU cpu = r.adjust().orElseThrow().getLinux().getResources().getCpu();
        assertThat(cpu.getCpus()).isEqualTo("2-3,66");
        assertThat(cpu.getMems()).isEqualTo("0");
        assertThat(cpu.hasQuota()).as("the quota stays as the kubelet set it").isFalse();
        assertThat(r.updates()).isEmpty();
        assertThat(metrics.scrape())
                .contains("podnuma_nri_requests_total{method=\"CreateContainer\",result=\"pinned\"} 1.0");
    }

    @Test
    void anExclusiveContainerLosesItsCfsQuotaWhenTheConfigurationSaysSo() {
        decisions.put("uid-1/app", new BirthDecision.Pinned(new Pin(CpuSet.of(5), CpuSet.of(0)), true));
        LinuxCPU cpu = pinning(ExclusiveCpuQuota.DISABLE)
                .createContainer(POD, APP)
                .adjust()
                .orElseThrow()
                .getLinux()
                .getResources()
                .getCpu();
        assertThat(cpu.getQuota())
                .isEqualTo(OptionalInt64.newBuilder().setValue(-1).build());

        decisions.put("uid-1/app", new BirthDecision.Pinned(new Pin(CpuSet.of(5), CpuSet.of(0)), false));
        assertThat(pinning(ExclusiveCpuQuota.DISABLE)
                        .createContainer(POD, APP)
                        .adjust()
                        .orElseThrow()
                        .getLinux()
                        .getResources()
                        .getCpu()
                        .hasQuota())
                .as("a shared container keeps its quota")
                .isFalse();
    }

    @Test
    void withoutADecisionTheContainerIsCreatedAsTheRuntimeMakesIt() {
        CreateResult r = pinning(ExclusiveCpuQuota.KEEP).createContainer(POD, APP);
        assertThat(r.adjust()).isEmpty();
        assertThat(metrics.scrape())
                .contains("podnuma_nri_requests_total{method=\"CreateContainer\",result=\"unpinned\"} 1.0");
    }

    @Test
    void aKubeletUpdateThatWouldChangeAPinKeepsThePinAndTheRestOfTheUpdate() {
        decisions.put("uid-1/app", new BirthDecision.Pinned(new Pin(CpuSet.of(2, 3), CpuSet.of(0)), false));
        NriPinning p = pinning(ExclusiveCpuQuota.KEEP);
        LinuxResources kubelet = LinuxResources.newBuilder()
                .setCpu(LinuxCPU.newBuilder().setCpus("").setMems(""))
                .setMemory(LinuxMemory.newBuilder()
                        .setLimit(io.podnuma.nri.v1alpha1.OptionalInt64.newBuilder()
                                .setValue(1 << 30)))
                .build();

        List<ContainerUpdate> updates = p.updateContainer(POD, APP, kubelet);
        assertThat(updates).hasSize(1);
        ContainerUpdate u = updates.get(0);
        assertThat(u.getContainerId()).isEqualTo(APP.getId());
        assertThat(u.getLinux().getResources().getCpu().getCpus()).isEqualTo("2-3");
        assertThat(u.getLinux().getResources().getCpu().getMems()).isEqualTo("0");
        assertThat(u.getLinux().getResources().getMemory().getLimit().getValue())
                .isEqualTo(1 << 30);

        LinuxResources already = kubelet.toBuilder()
                .setCpu(LinuxCPU.newBuilder().setCpus("2-3").setMems("0"))
                .build();
        assertThat(p.updateContainer(POD, APP, already))
                .as("nothing to rewrite")
                .isEmpty();
    }

    @Test
    void withoutAConnectedPluginWritesAreNotQueuedAndNothingIsPending() {
        NriPinning p = pinning(ExclusiveCpuQuota.KEEP);
        p.createContainer(POD, APP);
        p.written(Map.of(
                io.podnuma.agent.cgroup.ContainerId.parse("containerd://" + APP.getId()),
                new Pin(CpuSet.of(1), CpuSet.of(0))));
        assertThat(p.pending()).isEmpty();
    }

    @Test
    void afterTheRuntimeAppliedAnUpdateTheContainerIsReadAgainByItsId() {
        NriPinning p = pinning(ExclusiveCpuQuota.KEEP);
        List<ContainerId> readAgain = new ArrayList<>();
        p.onApplied(readAgain::addAll);

        p.event(NriEvent.POST_UPDATE_CONTAINER, POD, Optional.of(APP));
        assertThat(readAgain)
                .as("before Configure the runtime's kind is unknown")
                .isEmpty();

        p.connected(new RuntimeInfo(
                "containerd", "v2.4.2", Optional.of("v0.11.0"), Duration.ofSeconds(5), Duration.ofSeconds(2)));
        p.event(NriEvent.POST_UPDATE_CONTAINER, POD, Optional.of(APP));
        p.event(NriEvent.REMOVE_CONTAINER, POD, Optional.of(APP));
        assertThat(readAgain).containsExactly(ContainerId.parse("containerd://" + APP.getId()));
    }

    @Test
    void theCpusOfAnAnsweredRuntimeUpdateArePendingUntilItIsApplied() {
        NriPinning p = pinning(ExclusiveCpuQuota.KEEP);
        p.connected(new RuntimeInfo(
                "containerd", "v2.4.2", Optional.of("v0.11.0"), Duration.ofSeconds(5), Duration.ofSeconds(2)));
        decisions.put("uid-1/app", new BirthDecision.Pinned(new Pin(CpuSet.of(2, 3), CpuSet.of(0)), false));
        ContainerId id = ContainerId.parse("containerd://" + APP.getId());

        p.updateContainer(POD, APP, LinuxResources.getDefaultInstance());
        assertThat(p.pending()).as("the runtime is about to write the pin").containsEntry(id, CpuSet.of(2, 3));

        p.event(NriEvent.POST_UPDATE_CONTAINER, POD, Optional.of(APP));
        assertThat(p.pending()).isEmpty();
    }
}
