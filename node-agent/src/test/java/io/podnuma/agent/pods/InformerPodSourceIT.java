package io.podnuma.agent.pods;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.testkit.Waits;
import io.podnuma.testkit.pods.SamplePods;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The pod source against the real API server: the list asked for before anyone listens (as the agent's start does),
 * and a listener given later hears the pods listed by then and every change after, only of its node.
 */
@ExtendWith(ControlPlaneExtension.class)
class InformerPodSourceIT {

    private String node;
    private String otherNode;
    private String namespace;
    private InformerPodSource source;
    private final List<String> heard = Collections.synchronizedList(new ArrayList<>());

    @BeforeEach
    void setUp(ControlPlane cp) {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        node = "informer-it-" + suffix;
        otherNode = "informer-it-other-" + suffix;
        namespace = "informer-it-" + suffix;
        cp.kubectl("create", "namespace", namespace).assertSuccess();
    }

    @AfterEach
    void tearDown(ControlPlane cp) {
        if (source != null) {
            source.close();
        }
        cp.kubectl("delete", "namespace", namespace, "--wait=false", "--ignore-not-found");
    }

    @Test
    void aListenerGivenAfterTheListHearsTheListedPodsThenEveryChange(ControlPlane cp) throws Exception {
        create(cp, SamplePods.burstable(node, "listed-a"));
        create(cp, SamplePods.burstable(node, "listed-b"));
        create(cp, SamplePods.burstable(otherNode, "elsewhere"));

        source = InformerPodSource.listing(cp.client(), node);
        assertThat(source.awaitSynced(Duration.ofSeconds(30)))
                .as("the list arrives with no listener")
                .isTrue();
        assertThat(source.list())
                .extracting(p -> p.getMetadata().getName())
                .containsExactlyInAnyOrder("listed-a", "listed-b");

        create(cp, SamplePods.burstable(node, "before-listening"));
        until(
                () -> source.list().size() == 3,
                () -> "the watch did not bring before-listening: "
                        + source.list().size() + " pods");

        source.start(new PodSource.Listener() {
            @Override
            public void changed(Pod pod) {
                heard.add("changed " + pod.getMetadata().getName());
            }

            @Override
            public void deleted(Pod pod) {
                heard.add("deleted " + pod.getMetadata().getName());
            }
        });
        // What the informer delivered before start is told before start returns, the rest right after: its store
        // (what list() reads) is updated before its handlers hear of a change, so the last creation may still be on
        // its way to them here (a CI run saw it). Each is told once.
        until(() -> heard.size() >= 3, () -> "not every pod was told: " + heard);
        assertThat(List.copyOf(heard))
                .containsExactlyInAnyOrder("changed listed-a", "changed listed-b", "changed before-listening");

        cp.client()
                .pods()
                .inNamespace(namespace)
                .withName("listed-a")
                .withGracePeriod(0)
                .delete();
        until(() -> heard.contains("deleted listed-a"), () -> "the deletion did not come: " + heard);
        assertThat(heard).noneMatch(h -> h.endsWith("elsewhere"));
        source.close();
        source.close();
    }

    private static void until(BooleanSupplier done, Supplier<String> otherwise) throws InterruptedException {
        Waits.await(
                Duration.ofSeconds(30), otherwise, () -> done.getAsBoolean() ? Optional.of(true) : Optional.empty());
    }

    private void create(ControlPlane cp, Pod pod) {
        cp.client()
                .pods()
                .inNamespace(namespace)
                .resource(SamplePods.inNamespace(namespace, pod))
                .create();
    }
}
