package io.podnuma.testkit.nri;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podnuma.nri.v1alpha1.Container;
import io.podnuma.nri.v1alpha1.CreateContainerResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NriJsonTest {

    @Test
    void typedMessagesGoOverTheWireAndBack() {
        Container c = NriMessages.containerdSized("ctr", "pod-1", "app");

        Container back = NriJson.parse(NriJson.tree(c), Container.newBuilder());

        assertThat(back).isEqualTo(c);
        assertThat(NriJson.tree(c)
                        .path("linux")
                        .path("resources")
                        .path("cpu")
                        .path("shares")
                        .path("value")
                        .asText())
                .as("int64 wrappers as JSON strings, as Go's protojson writes them")
                .isEqualTo("2048");
    }

    @Test
    void anAbsentResponseIsTheEmptyMessage() {
        assertThat(NriJson.<CreateContainerResponse>parse(
                        NriJson.MAPPER.missingNode(), CreateContainerResponse.newBuilder()))
                .isEqualTo(CreateContainerResponse.getDefaultInstance());
    }

    @Test
    void theAdaptationsResponsesAreReadWithoutTheEmptyMessagesTheSubsetLacks() throws Exception {
        // What nri v0.12.3 answers for a plugin's cpuset adjustment (NriRuntimeHarnessIT).
        var upstream = NriJson.MAPPER.readTree("{\"adjust\":{\"hooks\":{},\"linux\":{\"resources\":{\"memory\":{},"
                + "\"cpu\":{\"cpus\":\"2-3\",\"mems\":\"0\"}},\"rdt\":{}}}}");

        CreateContainerResponse rsp = NriJson.parseUpstream(upstream, CreateContainerResponse.newBuilder());

        assertThat(rsp.getAdjust().getLinux().getResources().getCpu().getCpus()).isEqualTo("2-3");
        assertThatThrownBy(() -> NriJson.parse(upstream, CreateContainerResponse.newBuilder()))
                .hasMessageContaining("hooks");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "[1,2] | is a JSON object",
                "\"text\" | is a JSON object",
                "{\"nosuchfield\":1} | not a nri.pkg.api.v1alpha1.Container",
            })
    void refusesWhatIsNotAMessageOfTheType(String json, String message) throws Exception {
        var node = NriJson.MAPPER.readTree(json);
        assertThatThrownBy(() -> NriJson.parse(node, Container.newBuilder())).hasMessageContaining(message);
    }

    @Test
    void optionsBecomeTheGoFlags() {
        assertThat(HarnessOptions.CONTAINERD_DEFAULTS
                        .withRequestTimeout(Duration.ofMillis(1500))
                        .args())
                .containsExactly(
                        "--request-timeout", "1500ms",
                        "--registration-timeout", "5000ms",
                        "--runtime-name", "containerd",
                        "--runtime-version", "v2.4.2");
        StubOptions slow = StubOptions.answering("2-3", "0").withDelay(Duration.ofSeconds(3));
        assertThat(slow.pluginName()).isEqualTo("90-gostub");
        assertThat(slow.args())
                .isEqualTo(List.of(
                        "--index", "90", "--name", "gostub", "--cpus", "2-3", "--mems", "0", "--delay", "3000ms"));
        assertThatThrownBy(() -> HarnessOptions.CONTAINERD_DEFAULTS.withRequestTimeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
