package io.podnuma.operator.controller;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.podnuma.crds.v1alpha1.NumaNodeState;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import io.podnuma.crds.v1alpha1.NumaResourcePolicyStatus;
import io.podnuma.operator.kube.FieldManager;
import io.podnuma.operator.kube.InformerClusterView;
import io.podnuma.operator.kube.KubeAgentObjects;
import io.podnuma.operator.kube.KubeEventSink;
import io.podnuma.operator.kube.KubeNodeLabels;
import io.podnuma.operator.kube.PrunedNodeStore;
import io.podnuma.operator.reconcile.PolicySteps;
import io.podnuma.operator.reconcile.ReconcileSettings;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The reconciler of {@code NumaResourcePolicy}. Its informers: every Node (label changes only), every NumaNodeState,
 * and the agent DaemonSets, ConfigMaps and Services in the operator's namespace, narrowed by the label the operator
 * puts on them. No pod is ever watched.
 */
@ControllerConfiguration(
        name = PolicyReconciler.NAME,
        finalizerName = PolicyReconciler.FINALIZER,
        fieldManager = FieldManager.NAME)
public final class PolicyReconciler implements Reconciler<NumaResourcePolicy>, Cleaner<NumaResourcePolicy> {

    public static final String NAME = "numaresourcepolicy";
    /** The finalizer that keeps a policy until its nodes are restored. */
    public static final String FINALIZER = "podnuma.io/finalizer";
    /** Narrows the informers of the agent objects to those the operator made. */
    public static final String MANAGED_SELECTOR = "app.kubernetes.io/managed-by=podnuma-operator";
    /** Nodes per page of the node informer's list. */
    static final long NODE_LIST_PAGE = 250;

    private final ReconcileSettings settings;
    private final InstantSource clock;
    private final String instance;
    private final Consumer<PolicyOutcome> outcomes;
    private volatile PolicySteps steps;

    /**
     * @param instance this process's name for Events (its pod name)
     * @param outcomes told every policy's status after each reconcile and its deletion (the metrics)
     */
    public PolicyReconciler(
            ReconcileSettings settings, InstantSource clock, String instance, Consumer<PolicyOutcome> outcomes) {
        this.settings = settings;
        this.clock = clock;
        this.instance = instance;
        this.outcomes = outcomes;
    }

    /** What a reconcile ended with: the policy's status, or empty once it is gone. */
    public record PolicyOutcome(String policy, Optional<NumaResourcePolicyStatus> status) {}

    @Override
    public List<EventSource<?, NumaResourcePolicy>> prepareEventSources(
            EventSourceContext<NumaResourcePolicy> context) {
        String ns = settings.rollout().namespace();
        InformerEventSource<Node, NumaResourcePolicy> nodes = new InformerEventSource<>(
                InformerEventSourceConfiguration.from(Node.class, NumaResourcePolicy.class)
                        .withName("nodes")
                        // Whole Nodes (10-15 KB of JSON each) do not fit the heap at thousands of nodes: keep only
                        // names, labels and taints, and list them in pages so the first list is not one huge
                        // response held at once (the scale bench in benchmarks/README.md).
                        .withItemStore(new PrunedNodeStore())
                        .withInformerListLimit(NODE_LIST_PAGE)
                        .withSecondaryToPrimaryMapper(PolicyMappers.nodes(
                                () -> context.getPrimaryCache().list()))
                        .withOnUpdateFilter(PolicyMappers::labelsChanged)
                        .build(),
                context);
        InformerEventSource<NumaNodeState, NumaResourcePolicy> states = new InformerEventSource<>(
                InformerEventSourceConfiguration.from(NumaNodeState.class, NumaResourcePolicy.class)
                        .withName("nodestates")
                        .withSecondaryToPrimaryMapper(PolicyMappers.nodeStates(name -> nodes.get(new ResourceID(name))))
                        .build(),
                context);
        states.addIndexers(Map.of(InformerClusterView.BY_POLICY, InformerClusterView::reportedPolicy));
        InformerEventSource<DaemonSet, NumaResourcePolicy> daemonSets = namespaced(DaemonSet.class, ns, context);
        InformerEventSource<ConfigMap, NumaResourcePolicy> configMaps = namespaced(ConfigMap.class, ns, context);
        InformerEventSource<Service, NumaResourcePolicy> services = namespaced(Service.class, ns, context);

        var client = context.getClient();
        this.steps = new PolicySteps(
                new InformerClusterView(context.getPrimaryCache(), nodes, states, daemonSets, ns),
                new KubeNodeLabels(client),
                new KubeAgentObjects(client, ns, configMaps, services, daemonSets),
                new KubeEventSink(client, instance),
                settings);
        return List.of(nodes, states, daemonSets, configMaps, services);
    }

    private static <T extends io.fabric8.kubernetes.api.model.HasMetadata>
            InformerEventSource<T, NumaResourcePolicy> namespaced(
                    Class<T> type, String namespace, EventSourceContext<NumaResourcePolicy> context) {
        return new InformerEventSource<>(
                InformerEventSourceConfiguration.from(type, NumaResourcePolicy.class)
                        .withName(type.getSimpleName().toLowerCase(java.util.Locale.ROOT) + "s")
                        .withNamespaces(namespace)
                        .withLabelSelector(MANAGED_SELECTOR)
                        .withSecondaryToPrimaryMapper(PolicyMappers.labelled())
                        .build(),
                context);
    }

    @Override
    public UpdateControl<NumaResourcePolicy> reconcile(NumaResourcePolicy policy, Context<NumaResourcePolicy> context) {
        Optional<NumaResourcePolicyStatus> changed = steps.reconcile(policy, clock.instant());
        outcomes.accept(new PolicyOutcome(
                policy.getMetadata().getName(), Optional.ofNullable(changed.orElse(policy.getStatus()))));
        if (changed.isEmpty()) {
            return UpdateControl.noUpdate();
        }
        policy.setStatus(changed.get());
        return UpdateControl.patchStatus(policy);
    }

    @Override
    public DeleteControl cleanup(NumaResourcePolicy policy, Context<NumaResourcePolicy> context) {
        PolicySteps.Cleanup done = steps.cleanup(policy, clock.instant());
        if (done.released()) {
            outcomes.accept(new PolicyOutcome(policy.getMetadata().getName(), Optional.empty()));
            return DeleteControl.defaultDelete();
        }
        return DeleteControl.noFinalizerRemoval()
                .rescheduleAfter(done.recheck().orElseThrow().toMillis());
    }
}
