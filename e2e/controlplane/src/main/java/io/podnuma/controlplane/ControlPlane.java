package io.podnuma.controlplane;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A real local Kubernetes control plane (etcd, kube-apiserver v1.37.2 and, on demand, controller-manager,
 * scheduler and kwok nodes), shared by every test class of one JVM. Obtain it as a test parameter with
 * {@code @ExtendWith(ControlPlaneExtension.class)}.
 *
 * <p>Tests share one cluster, so each test should work in its own namespace (or clean up the cluster-scoped
 * objects it creates).
 */
public interface ControlPlane {

    /** A client authenticated as a member of {@code system:masters}. Do not close it: the plane owns it. */
    KubernetesClient client();

    /** The admin kubeconfig file (certificates embedded), usable by any tool. */
    Path kubeconfig();

    /**
     * A kubeconfig that impersonates {@code system:serviceaccount:<namespace>:<serviceAccount>}, with the
     * groups the API server gives that service account. The service account need not exist; its
     * permissions are whatever RBAC grants that name.
     */
    Path kubeconfigFor(String namespace, String serviceAccount);

    /** A client that impersonates the service account, like {@link #kubeconfigFor}. The caller closes it. */
    KubernetesClient clientFor(String namespace, String serviceAccount);

    /** Runs the real kubectl against the admin kubeconfig. */
    CommandResult kubectl(String... args);

    /** Runs the real kubectl against the admin kubeconfig with {@code stdin} as its standard input. */
    CommandResult kubectlWithStdin(String stdin, String... args);

    /** Runs the real helm against the admin kubeconfig, with helm's cache and config kept in the work dir. */
    CommandResult helm(String... args);

    /** The directory holding the built binaries (kube-apiserver, etcd, kubectl, helm, kwok, ...). */
    Path binDir();

    /**
     * Makes sure at least {@code count} kwok nodes exist and are Ready and schedulable, starting
     * kube-controller-manager, kube-scheduler and kwok on first use. Nodes are named {@code kwok-node-<i>},
     * labelled {@value KwokNodes#KWOK_LABEL}{@code =true}, untainted, with the allocatable resources of
     * {@link KwokNodes#DEFAULT_ALLOCATABLE}.
     *
     * @return the names of the first {@code count} kwok nodes
     */
    List<String> ensureNodes(int count);

    /**
     * Makes sure a kwok node called {@code name} exists, with {@code labels} added to the usual ones and
     * {@code allocatable} (also its capacity; e.g. {@code cpu=96, memory=384Gi, pods=110}) instead of the
     * default, and waits until it is Ready and schedulable. An existing node of that name is left as it is.
     * Starts the node components like {@link #ensureNodes}.
     *
     * @return the node's name
     */
    String ensureNode(String name, Map<String, String> labels, Map<String, String> allocatable);

    /**
     * Starts kube-controller-manager, kube-scheduler and kwok without creating nodes (a no-op once they run).
     * Needed for anything a controller finishes: namespace deletion, garbage collection, Deployments, Jobs.
     */
    void startControllers();

    /**
     * Stops kube-apiserver abruptly, as a crash or a cut network would (SIGKILL: every connection, watches
     * included, drops at once), and returns once it has exited, to test what clients do while it is away. etcd,
     * the controllers and kwok keep running; clients of this plane fail to connect until {@link #startApiServer}.
     * A no-op when it is already stopped.
     */
    void stopApiServer();

    /**
     * Starts kube-apiserver again with the same flags, port and certificates after {@link #stopApiServer}, and
     * returns once it answers {@code /readyz}; every object is still there (etcd kept it). The controllers and kwok,
     * if they run, are started again too, so they watch at once instead of after their reconnect backoff (up to a
     * minute after a long outage). A no-op when it runs.
     *
     * @throws IllegalStateException when it exits or is not ready in time (the message has its log's tail)
     */
    void startApiServer();

    /** Whether kube-apiserver runs (false between {@link #stopApiServer} and {@link #startApiServer}). */
    boolean apiServerRunning();

    /**
     * Stops etcd abruptly (SIGKILL) and returns once it has exited: kube-apiserver keeps running and answers every
     * request that needs storage with an error (watches stay open, nothing new arrives) until {@link #startEtcd}.
     * A no-op when it is already stopped.
     */
    default void stopEtcd() {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot stop etcd");
    }

    /**
     * Starts etcd again on its port and data directory after {@link #stopEtcd} (every object is still there) and
     * returns once it is healthy and kube-apiserver is ready again. A no-op when it runs.
     */
    default void startEtcd() {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot start etcd");
    }

    /** Whether etcd runs (false between {@link #stopEtcd} and {@link #startEtcd}). */
    default boolean etcdRunning() {
        return true;
    }

    /**
     * Applies the CustomResourceDefinitions in {@code files} (YAML, one or more documents each; server-side apply
     * that takes over conflicting fields, so re-installing a changed CRD works) and returns once the API server
     * reports every one of them {@code Established}, so its objects can be created at once.
     *
     * @return the CRDs' names, in file order
     * @throws IllegalStateException naming the CRD and its conditions when one is not Established within a minute
     */
    default List<String> installCrds(Path... files) {
        return CrdInstall.install(client(), List.of(files));
    }

    /**
     * Makes sure the namespace {@code name} exists (server-side apply: an existing one is left as it is).
     *
     * @return the namespace's name
     */
    default String ensureNamespace(String name) {
        client().namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .build())
                .serverSideApply();
        return name;
    }
}
