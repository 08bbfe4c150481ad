package io.podnuma.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.Config;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KubeconfigsTest {

    @Test
    void serviceAccountUserFollowsTheApiServersNaming() {
        assertThat(Kubeconfigs.serviceAccountUser("podnuma-system", "node-agent"))
                .isEqualTo("system:serviceaccount:podnuma-system:node-agent");
    }

    @Test
    void rejectsNamesKubernetesWouldRejectNamingTheField() {
        assertThatThrownBy(() -> Kubeconfigs.serviceAccountUser("Bad_NS", "sa"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("namespace 'Bad_NS'");
        assertThatThrownBy(() -> Kubeconfigs.serviceAccountUser("ns", "-sa"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("serviceAccount '-sa'");
    }

    @Test
    void writesKubeconfigsThatFabric8ReadsBackIncludingImpersonation(@TempDir Path dir) throws IOException {
        Path pem = dir.resolve("fake.pem");
        Files.writeString(pem, "not really a certificate");
        Pki pki = new Pki(pem, pem, pem, pem, pem, pem, pem);
        Kubeconfigs kubeconfigs = new Kubeconfigs(dir, "https://127.0.0.1:6443", pki);

        Config admin = Config.fromKubeconfig(Files.readString(kubeconfigs.writeAdmin()));
        assertThat(admin.getMasterUrl()).startsWith("https://127.0.0.1:6443");
        assertThat(admin.getNamespace()).isEqualTo("default");
        assertThat(admin.getImpersonateUsername()).isNull();

        Path saFile = kubeconfigs.writeImpersonating("team-a", "robot");
        assertThat(saFile.getFileName().toString()).isEqualTo("sa-team-a-robot.kubeconfig");
        assertThat(Files.readString(saFile)).contains("as: \"system:serviceaccount:team-a:robot\"");
    }
}
