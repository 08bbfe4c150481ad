package io.podnuma.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The API server can be taken away and brought back on the same address: clients fail meanwhile, every object
 * survives (etcd keeps running), and a client that was watching before sees what happens after. And etcd can be
 * taken away under a running API server and brought back with every object.
 */
@ExtendWith(ControlPlaneExtension.class)
class ApiServerRestartIT {

    private static final String NAMESPACE = "apiserver-restart-it";

    private ControlPlane plane;

    @AfterEach
    void apiServerRunsForTheNextTest() {
        if (plane != null) {
            plane.startEtcd();
            plane.startApiServer();
        }
    }

    @Test
    void stopsAndStartsOnTheSameAddressKeepingEveryObject(ControlPlane plane) throws Exception {
        this.plane = plane;
        plane.ensureNodes(1); // kwok and the controllers run, and must work again after the restart
        plane.ensureNamespace(NAMESPACE);
        var configMaps = plane.client().configMaps().inNamespace(NAMESPACE);
        configMaps.resource(configMap("before")).serverSideApply();
        Set<String> seen = ConcurrentHashMap.newKeySet();
        try (SharedIndexInformer<ConfigMap> informer = configMaps.inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(ConfigMap cm) {
                seen.add(cm.getMetadata().getName());
            }

            @Override
            public void onUpdate(ConfigMap before, ConfigMap after) {
                seen.add(after.getMetadata().getName());
            }

            @Override
            public void onDelete(ConfigMap cm, boolean unknown) {}
        })) {
            await().atMost(Duration.ofSeconds(30)).until(() -> seen.contains("before"));

            long t0 = System.nanoTime();
            plane.stopApiServer();
            System.out.printf("kube-apiserver stopped in %d ms%n", (System.nanoTime() - t0) / 1_000_000);
            assertThat(plane.apiServerRunning()).isFalse();
            assertThatThrownBy(() -> configMaps.withName("before").get()).isInstanceOf(KubernetesClientException.class);
            plane.kubectl("get", "configmap", "before", "-n", NAMESPACE, "--request-timeout=5s")
                    .assertFailure();
            plane.stopApiServer(); // already stopped: nothing to do

            t0 = System.nanoTime();
            plane.startApiServer();
            System.out.printf("kube-apiserver ready again in %d ms%n", (System.nanoTime() - t0) / 1_000_000);
            assertThat(plane.apiServerRunning()).isTrue();
            plane.startApiServer(); // already running: nothing to do
            assertThat(plane.apiServerRunning()).isTrue();

            assertThat(configMaps.withName("before").get().getData()).containsEntry("name", "before");
            plane.kubectl("get", "configmap", "before", "-n", NAMESPACE).assertSuccess();
            configMaps.resource(configMap("after")).serverSideApply();
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(
                            () -> assertThat(seen).as("what the informer saw").contains("after"));
        }
        // kwok serves a node made after the restart without waiting out a reconnect backoff.
        long t0 = System.nanoTime();
        String node = plane.ensureNode("restart-it-node", Map.of(), Map.of("cpu", "4", "memory", "8Gi", "pods", "10"));
        System.out.printf("a new kwok node Ready %d ms after the restart%n", (System.nanoTime() - t0) / 1_000_000);
        assertThat(plane.client().nodes().withName(node).get()).isNotNull();
        // One log tells both runs apart.
        assertThat(((LocalControlPlane) plane).logDir().resolve("kube-apiserver.log"))
                .content()
                .contains("$ (again, the previous run exited with ");
    }

    @Test
    void etcdStopsAndStartsKeepingEveryObject(ControlPlane plane) {
        this.plane = plane;
        plane.ensureNamespace(NAMESPACE);
        var configMaps = plane.client().configMaps().inNamespace(NAMESPACE);
        configMaps.resource(configMap("before-etcd")).serverSideApply();

        long t0 = System.nanoTime();
        plane.stopEtcd();
        System.out.printf("etcd stopped in %d ms%n", (System.nanoTime() - t0) / 1_000_000);
        assertThat(plane.etcdRunning()).isFalse();
        assertThat(plane.apiServerRunning())
                .as("kube-apiserver outlives its storage")
                .isTrue();
        plane.kubectl("get", "configmap", "before-etcd", "-n", NAMESPACE, "--request-timeout=3s")
                .assertFailure();
        plane.stopEtcd(); // already stopped: nothing to do

        t0 = System.nanoTime();
        plane.startEtcd();
        System.out.printf("etcd and kube-apiserver ready again in %d ms%n", (System.nanoTime() - t0) / 1_000_000);
        assertThat(plane.etcdRunning()).isTrue();
        plane.startEtcd(); // already running: nothing to do
        assertThat(configMaps.withName("before-etcd").get().getData()).containsEntry("name", "before-etcd");
        configMaps.resource(configMap("after-etcd")).serverSideApply();
        assertThat(configMaps.withName("after-etcd").get()).isNotNull();
    }

    private static ConfigMap configMap(String name) {
        return new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(NAMESPACE)
                .endMetadata()
                .withData(Map.of("name", name))
                .build();
    }
}
