package io.podnuma.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FreePortsTest {

    @Test
    void aFreePortCanBeBoundOnLoopback() throws Exception {
        int port = FreePorts.next();
        assertThat(port).isBetween(1024, 65535);
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            assertThat(s.getLocalPort()).isEqualTo(port);
        }
    }

    @Test
    void aPortThatIsTakenIsNotHandedOut() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            for (int i = 0; i < 20; i++) {
                assertThat(FreePorts.next()).isNotEqualTo(taken.getLocalPort());
            }
        }
    }

    @Test
    void portsComeFromBelowTheEphemeralRangeSoNoOutgoingConnectionTakesOneAndNoneIsHandedOutTwice() {
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            int port = FreePorts.next();
            assertThat(port).isBetween(FreePorts.LOWEST, FreePorts.ephemeralStart() - 1);
            assertThat(seen.add(port)).as("port %d handed out twice", port).isTrue();
        }
    }
}
