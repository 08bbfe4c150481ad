package io.podnuma.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(ControlPlaneExtension.class)
class ServerVersionIT {

    private static final String VERSION = "v1.37.2";

    @Test
    void apiServerReportsItsReleaseVersionToTheClient(ControlPlane plane) {
        var version = plane.client().getKubernetesVersion();
        assertThat(version.getGitVersion()).isEqualTo(VERSION);
        assertThat(version.getMajor()).isEqualTo("1");
        assertThat(version.getMinor()).isEqualTo("37");
    }

    @Test
    void kubectlAndServerBothReportTheReleaseVersion(ControlPlane plane) throws Exception {
        CommandResult result = plane.kubectl("version", "-o", "json").assertSuccess();
        JsonNode json = new ObjectMapper().readTree(result.stdout());
        assertThat(json.at("/clientVersion/gitVersion").asText()).isEqualTo(VERSION);
        assertThat(json.at("/serverVersion/gitVersion").asText()).isEqualTo(VERSION);
    }

    @Test
    void adminIsAuthenticatedAsAMemberOfSystemMasters(ControlPlane plane) {
        CommandResult whoami = plane.kubectl(
                        "auth", "whoami", "-o", "jsonpath={.status.userInfo.username} {.status.userInfo.groups}")
                .assertSuccess();
        assertThat(whoami.stdout()).startsWith("podnuma-admin ").contains("system:masters");
    }
}
