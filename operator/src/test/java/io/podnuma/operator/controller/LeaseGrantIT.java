package io.podnuma.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.operator.election.Candidate;
import io.podnuma.operator.election.LeasePort;
import io.podnuma.operator.election.LeaseRead;
import io.podnuma.operator.election.LeaseRecord;
import io.podnuma.operator.election.LeaseWrite;
import io.podnuma.operator.kube.KubeLeases;
import io.podnuma.operator.settings.LeaseTimings;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The operator's Lease grant (its RBAC file, which the chart ships as it is: {@code OperatorRbacCopyTest}) is exactly
 * what its elector uses. On a real API server, under that grant alone, the elector creates its Lease, renews it, gives
 * it up and another replica takes it; with any one granted verb taken away some step of that is refused. A verb no
 * step needs (the {@code patch} the client's elector used) fails the second test, so the grant cannot grow unseen.
 */
@ExtendWith(ControlPlaneExtension.class)
class LeaseGrantIT {

    static final String NAMESPACE = "podnuma-lease-grant";
    static final String RBAC_FILE = "operator/src/main/resources/io/podnuma/operator/rbac/clusterrole.yaml";
    static final LeaseTimings TIMINGS =
            new LeaseTimings(Duration.ofSeconds(6), Duration.ofSeconds(3), Duration.ofMillis(500));
    /** Every verb RBAC knows for a namespaced resource: the ones not granted must be refused before a run. */
    static final Set<String> EVERY_VERB =
            Set.of("get", "list", "watch", "create", "update", "patch", "delete", "deletecollection");

    private ControlPlane plane;
    private PolicyRule granted;

    @BeforeEach
    void grant(ControlPlane plane) {
        this.plane = plane;
        plane.ensureNamespace(NAMESPACE);
        granted = leaseRule(plane.client());
    }

    @Test
    void theGrantIsEnoughForEveryStepOfTheElector() {
        Run run = run("all", granted.getVerbs());

        assertThat(run.refusals).as("refused under the grant of %s", RBAC_FILE).isEmpty();
        assertThat(run.steps).containsExactly("a created", "a renewed", "a gave up", "b took over");
    }

    @Test
    void everyVerbGrantedIsOneTheElectorUses() {
        assertThat(granted.getVerbs()).as("the Lease verbs of %s", RBAC_FILE).isNotEmpty();
        for (String verb : granted.getVerbs()) {
            List<String> without = new ArrayList<>(granted.getVerbs());
            without.remove(verb);

            Run run = run("no-" + verb, without);

            assertThat(run.refusals)
                    .as(
                            "%s grants '%s' on leases, but the elector created, renewed, gave up and took over its Lease"
                                    + " without it (steps: %s): take it out",
                            RBAC_FILE, verb, run.steps)
                    .isNotEmpty()
                    .allSatisfy(r -> assertThat(r).contains("cannot " + verb + " resource \"leases\""));
        }
    }

    /** What the elector's Lease went through, and every request the API server refused on the way. */
    record Run(List<String> steps, List<String> refusals) {}

    /**
     * Replica a creates the Lease, renews it and gives it up at a graceful stop; replica b takes it: each of the
     * elector's requests, as the ServiceAccount {@code lease-<name>} bound to a Role of only {@code verbs} on leases.
     * Steps stop at the first one that does not happen.
     */
    private Run run(String name, List<String> verbs) {
        String account = "lease-" + name;
        bind(account, verbs);
        List<String> refusals = new ArrayList<>();
        List<String> steps = new ArrayList<>();
        AtomicLong nanos = new AtomicLong(1_000_000_000L);
        try (KubernetesClient client = plane.clientFor(NAMESPACE, account)) {
            LeasePort port = new Refusals(new KubeLeases(client, NAMESPACE, account), refusals);
            Leads a = new Leads();
            Leads b = new Leads();
            LeaseElector electorA =
                    new LeaseElector(port, new Candidate("a", TIMINGS), nanos::get, InstantSource.system(), a);
            LeaseElector electorB =
                    new LeaseElector(port, new Candidate("b", TIMINGS), nanos::get, InstantSource.system(), b);
            electorA.attempt();
            if (!a.leads) {
                return new Run(steps, refusals);
            }
            steps.add("a created");
            String created = currentVersion(account);
            nanos.addAndGet(TIMINGS.retryPeriod().toNanos());
            electorA.attempt();
            if (!a.leads || created.equals(currentVersion(account))) {
                return new Run(steps, refusals);
            }
            steps.add("a renewed");
            electorA.close();
            electorA.release();
            if (plane.client()
                            .leases()
                            .inNamespace(NAMESPACE)
                            .withName(account)
                            .get()
                            .getSpec()
                            .getHolderIdentity()
                    != null) {
                return new Run(steps, refusals);
            }
            steps.add("a gave up");
            electorB.attempt();
            if (b.leads) {
                steps.add("b took over");
            }
            electorB.close();
            return new Run(steps, refusals);
        } finally {
            plane.client().leases().inNamespace(NAMESPACE).withName(account).delete();
        }
    }

    private String currentVersion(String lease) {
        return plane.client()
                .leases()
                .inNamespace(NAMESPACE)
                .withName(lease)
                .get()
                .getMetadata()
                .getResourceVersion();
    }

    /** The operator's rule on leases, from the Role of its RBAC file. */
    private static PolicyRule leaseRule(KubernetesClient admin) {
        List<PolicyRule> rules = new ArrayList<>();
        for (HasMetadata o : OperatorFixture.rbac(admin)) {
            if (o instanceof Role role) {
                role.getRules().stream()
                        .filter(r -> r.getResources().contains("leases"))
                        .forEach(rules::add);
            }
        }
        assertThat(rules).as("rules on leases in %s", RBAC_FILE).hasSize(1);
        assertThat(rules.getFirst().getResources()).as("its resources").containsExactly("leases");
        return rules.getFirst();
    }

    /**
     * A Role of {@code verbs} on leases, as the operator's rule names them, bound to {@code account}; returns once the
     * API server's authorizer says exactly those verbs.
     */
    private void bind(String account, List<String> verbs) {
        KubernetesClient admin = plane.client();
        PolicyRule rule = new PolicyRuleBuilder(granted).withVerbs(verbs).build();
        admin.resource(new RoleBuilder()
                        .withNewMetadata()
                        .withName(account)
                        .withNamespace(NAMESPACE)
                        .endMetadata()
                        .withRules(rule)
                        .build())
                .serverSideApply();
        admin.resource(new RoleBindingBuilder()
                        .withNewMetadata()
                        .withName(account)
                        .withNamespace(NAMESPACE)
                        .endMetadata()
                        .withNewRoleRef("rbac.authorization.k8s.io", "Role", account)
                        .addNewSubject()
                        .withKind("ServiceAccount")
                        .withName(account)
                        .withNamespace(NAMESPACE)
                        .endSubject()
                        .build())
                .serverSideApply();
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .untilAsserted(() -> {
                    for (String verb : EVERY_VERB) {
                        assertThat(allowed(account, verb))
                                .as("may %s leases", verb)
                                .isEqualTo(verbs.contains(verb));
                    }
                });
    }

    private boolean allowed(String account, String verb) {
        SubjectAccessReview review = new SubjectAccessReviewBuilder()
                .withNewSpec()
                .withUser("system:serviceaccount:" + NAMESPACE + ":" + account)
                .withNewResourceAttributes()
                .withGroup("coordination.k8s.io")
                .withResource("leases")
                .withNamespace(NAMESPACE)
                .withName(account)
                .withVerb(verb)
                .endResourceAttributes()
                .endSpec()
                .build();
        return plane.client()
                .authorization()
                .v1()
                .subjectAccessReview()
                .create(review)
                .getStatus()
                .getAllowed();
    }

    private static final class Leads implements LeaseElector.Leadership {
        volatile boolean leads;

        @Override
        public void start() {
            leads = true;
        }

        @Override
        public void stop(String why) {
            leads = false;
        }
    }

    /** The elector's port, noting each request the API server refused. */
    private record Refusals(LeasePort port, List<String> refusals) implements LeasePort {

        @Override
        public LeaseRead read() {
            LeaseRead r = port.read();
            if (r instanceof LeaseRead.Failed(var why)) {
                refusals.add(why);
            }
            return r;
        }

        @Override
        public LeaseWrite create(LeaseRecord record) {
            return noted(port.create(record));
        }

        @Override
        public LeaseWrite update(LeaseRecord record, String expectedVersion) {
            return noted(port.update(record, expectedVersion));
        }

        private LeaseWrite noted(LeaseWrite w) {
            if (w instanceof LeaseWrite.Failed(var why)) {
                refusals.add(why);
            }
            return w;
        }
    }
}
