package io.podnuma.helm;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.testkit.Repository;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The chart's operator rules are the operator's own file, which the operator's ITs prove both enough and no more
 * (its RBAC matrix); the chart reads its rules from this copy.
 */
class OperatorRbacCopyTest {

    static final String SOURCE = "operator/src/main/resources/io/podnuma/operator/rbac/clusterrole.yaml";

    @Test
    void theChartsCopyIsTheOperatorsFile() {
        Path source = Repository.resolve(SOURCE);
        Path copy = ChartFiles.file("files/operator-rbac.yaml");
        assertThat(ChartFiles.text(copy))
                .as("%s must equal %s: cp %s %s", copy, source, SOURCE, "helm/podnuma/files/operator-rbac.yaml")
                .isEqualTo(ChartFiles.text(source));
    }
}
