package io.podnuma.helm.privilege;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podnuma.helm.privilege.Privileges.Grant;
import io.podnuma.helm.privilege.Privileges.Holder;
import io.podnuma.helm.privilege.Privileges.Part;
import io.podnuma.helm.privilege.Privileges.Scope;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CanIListTest {

    @Test
    void readsKubectlsTable() {
        String table = """
                Resources                                       Non-Resource URLs   Resource Names   Verbs
                numanodestates.podnuma.io/status                []                  []               [get create patch]
                leases.coordination.k8s.io                      []                  [my-lease]       [get update]
                pods                                            []                  []               [get list watch]
                                                                [/healthz]          []               [get]
                                                                [/healthz]          []               [get]
                """;
        assertThat(CanIList.parse(table))
                .containsExactlyInAnyOrder(
                        new CanIList.Row("numanodestates.podnuma.io/status", "", Set.of("get", "create", "patch")),
                        new CanIList.Row("leases.coordination.k8s.io", "my-lease", Set.of("get", "update")),
                        new CanIList.Row("pods", "", Set.of("get", "list", "watch")),
                        new CanIList.Row("/healthz", "", Set.of("get")));
    }

    @Test
    void refusesALineItCannotRead() {
        assertThatThrownBy(() -> CanIList.parse("pods  get list\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("pods  get list");
    }

    @Test
    void mergesTheVerbsOfOneResourceAsKubectlDoes() {
        List<Grant> grants = List.of(
                grant("events", Scope.CLUSTER, "create"),
                grant("events", Scope.DEFAULT_NAMESPACE, "patch", "create"),
                grant("pods", Scope.CLUSTER, "get"));
        assertThat(CanIList.rowsOf(grants))
                .containsExactlyInAnyOrder(
                        new CanIList.Row("events", "", Set.of("create", "patch")),
                        new CanIList.Row("pods", "", Set.of("get")));
    }

    @Test
    void aGrantHoldsWhereItsScopeSays() {
        assertThat(Privileges.inForce(Holder.OPERATOR, Scope.CLUSTER, false))
                .extracting(Grant::resource)
                .contains("nodes", "/version")
                .doesNotContain("events", "leases.coordination.k8s.io");
        assertThat(Privileges.inForce(Holder.OPERATOR, Scope.DEFAULT_NAMESPACE, false))
                .extracting(Grant::resource)
                .contains("events")
                .doesNotContain("leases.coordination.k8s.io");
        assertThat(Privileges.inForce(Holder.AGENT, Scope.CLUSTER, false))
                .extracting(Grant::resource)
                .doesNotContain("noderesourcetopologies.topology.node.k8s.io");
        assertThat(Privileges.inForce(Holder.AGENT, Scope.CLUSTER, true))
                .extracting(Grant::resource)
                .contains("noderesourcetopologies.topology.node.k8s.io");
    }

    private static Grant grant(String resource, Scope scope, String... verbs) {
        return new Grant(Holder.AGENT, resource, List.of(), Set.of(verbs), scope, Part.ALWAYS, "test");
    }
}
