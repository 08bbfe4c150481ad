package io.podnuma.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RunControlPlaneTest {

    @Test
    void nodesDefaultToNoneAndAreParsed() {
        assertThat(RunControlPlane.parseNodes(new String[0])).isZero();
        assertThat(RunControlPlane.parseNodes(new String[] {"--nodes", "3"})).isEqualTo(3);
    }

    @Test
    void badArgumentsNameWhatIsAllowed() {
        assertThatThrownBy(() -> RunControlPlane.parseNodes(new String[] {"--nodes", "-1"}))
                .hasMessageContaining("N a whole number >= 0, got --nodes -1");
        assertThatThrownBy(() -> RunControlPlane.parseNodes(new String[] {"--nodes", "two"}))
                .hasMessageContaining("got --nodes two");
        assertThatThrownBy(() -> RunControlPlane.parseNodes(new String[] {"--verbose"}))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
