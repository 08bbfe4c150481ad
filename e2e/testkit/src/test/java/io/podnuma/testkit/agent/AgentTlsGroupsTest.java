package io.podnuma.testkit.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The key-exchange groups the agent's JVM flags set ({@code jdk.tls.namedGroups}) still reach every API server: one
 * that offers X25519, and one in FIPS mode that offers only NIST curves, P-384 or P-256 alone (the agent sends a P-384
 * share; a P-256 server asks for its share in a HelloRetryRequest).
 */
class AgentTlsGroupsTest {

    private static final char[] PASSWORD = "changeit".toCharArray();

    @TempDir
    static Path dir;

    private static SSLContext context;

    @BeforeAll
    static void serverKey() throws Exception {
        Path store = dir.resolve("server.p12");
        Process keytool = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "keytool")
                                .toString(),
                        "-genkeypair",
                        "-alias",
                        "server",
                        "-keyalg",
                        "RSA",
                        "-keysize",
                        "2048",
                        "-dname",
                        "CN=localhost",
                        "-validity",
                        "1",
                        "-storetype",
                        "PKCS12",
                        "-keystore",
                        store.toString(),
                        "-storepass",
                        new String(PASSWORD))
                .redirectErrorStream(true)
                .start();
        String out = new String(keytool.getInputStream().readAllBytes());
        assertThat(keytool.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(keytool.exitValue()).as(out).isZero();
        KeyStore keys = KeyStore.getInstance(store.toFile(), PASSWORD);
        KeyManagerFactory km = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        km.init(keys, PASSWORD);
        // The server's own certificate is the client's one trust anchor, as the cluster CA is the agent's.
        TrustManagerFactory tm = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tm.init(keys);
        context = SSLContext.getInstance("TLSv1.3");
        context.init(km.getKeyManagers(), tm.getTrustManagers(), null);
    }

    static List<String> agentGroups() {
        String prefix = "-Djdk.tls.namedGroups=";
        return JvmFlags.daemonSet().stream()
                .filter(f -> f.startsWith(prefix))
                .map(f -> Arrays.asList(f.substring(prefix.length()).split(",")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + prefix + " in " + JvmFlags.FILE));
    }

    @Test
    void theAgentOffersX25519FirstAndP384BeforeP256() {
        List<String> groups = agentGroups();

        assertThat(groups.getFirst()).isEqualTo("x25519");
        assertThat(groups).contains("secp256r1", "secp384r1", "secp521r1");
        assertThat(groups.indexOf("secp384r1")).isLessThan(groups.indexOf("secp256r1"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"x25519", "secp384r1", "secp256r1"})
    void theAgentsGroupsShakeHandsWithAServerThatOffersOnly(String serverGroup) throws Exception {
        try (SSLServerSocket server =
                (SSLServerSocket) context.getServerSocketFactory().createServerSocket(0)) {
            SSLParameters serverParams = server.getSSLParameters();
            serverParams.setNamedGroups(new String[] {serverGroup});
            server.setSSLParameters(serverParams);
            CompletableFuture<Integer> served = CompletableFuture.supplyAsync(() -> {
                try (SSLSocket s = (SSLSocket) server.accept()) {
                    InputStream in = s.getInputStream();
                    int b = in.read();
                    s.getOutputStream().write(b + 1);
                    s.getOutputStream().flush();
                    return b;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });

            try (SSLSocket client =
                    (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", server.getLocalPort())) {
                SSLParameters clientParams = client.getSSLParameters();
                clientParams.setNamedGroups(agentGroups().toArray(String[]::new));
                client.setSSLParameters(clientParams);
                client.setSoTimeout(30_000);
                OutputStream out = client.getOutputStream();
                out.write(41);
                out.flush();

                assertThat(client.getInputStream().read()).isEqualTo(42);
                assertThat(client.getSession().getProtocol()).isEqualTo("TLSv1.3");
            }
            assertThat(served.get(30, TimeUnit.SECONDS)).isEqualTo(41);
        }
    }
}
