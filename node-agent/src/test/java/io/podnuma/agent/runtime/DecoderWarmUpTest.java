package io.podnuma.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class DecoderWarmUpTest {

    /** A sample that no longer decodes would make the warm-up a silent no-op. */
    @Test
    void theSampleDecodesIntoAPodWithTheFieldsTheAgentReads() {
        PodList list = DecoderWarmUp.decodeSample(new KubernetesSerialization());

        assertThat(list.getItems()).hasSize(1);
        Pod pod = list.getItems().getFirst();
        assertThat(pod.getMetadata().getUid()).isEqualTo("00000000-0000-0000-0000-000000000000");
        assertThat(pod.getSpec().getContainers().getFirst().getResources().getLimits())
                .containsKeys("cpu", "memory");
        assertThat(pod.getStatus().getContainerStatuses().getFirst().getContainerID())
                .isEqualTo("containerd://0");
    }

    @Test
    void theWarmUpRunsOnADaemonThreadAndEnds() throws InterruptedException {
        Thread t = DecoderWarmUp.start(new KubernetesSerialization());

        assertThat(t.isDaemon()).isTrue();
        t.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(t.isAlive()).isFalse();
    }
}
