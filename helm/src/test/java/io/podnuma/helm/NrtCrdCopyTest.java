package io.podnuma.helm;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.testkit.GeneratedCrds;
import org.junit.jupiter.api.Test;

/**
 * The chart's NodeResourceTopology CRD has the spec of the copy the agent's NRT tests install (the one podnuma's
 * export is proved against); only its metadata differs (labels, the keep policy) and the template's condition.
 */
class NrtCrdCopyTest {

    @Test
    void theTemplatesSpecIsTheAgentsTestCopy() {
        String template = ChartFiles.text(ChartFiles.file("templates/nrt-crd.yaml"));
        String body = template.substring(template.indexOf("\nspec:\n") + 1, template.lastIndexOf("{{- end }}"));
        String source = ChartFiles.text(GeneratedCrds.nodeResourceTopologies());
        String sourceSpec = source.substring(source.indexOf("\nspec:\n") + 1);
        assertThat(body).doesNotContain("{{").isEqualTo(sourceSpec);
    }
}
