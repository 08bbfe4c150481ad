package io.podnuma.securemetrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PemKeyMaterialTest {

    @TempDir
    Path dir;

    @BeforeEach
    void needsOpenSsl() {
        OpenSsl.assumePresent();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"rsa-pkcs1, RSA", "rsa-pkcs8, RSA", "ec-pkcs8, EC"})
    void readsTheKeysOperatorsMake(String kind, String algorithm) throws Exception {
        OpenSsl.pair(dir, "a", kind);
        KeyMaterial m = parse("a", "a");
        assertThat(m.key().getAlgorithm()).isEqualTo(algorithm);
        assertThat(m.leaf().getSubjectX500Principal().getName()).isEqualTo("CN=a");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "sec1 | ec-sec1 | a.key: an SEC1 \"EC PRIVATE KEY\" is not read: convert it with `openssl pkcs8 -topk8"
                        + " -nocrypt`",
            })
    void namesTheFixForAKeyFormItDoesNotRead(String name, String kind, String message) throws Exception {
        OpenSsl.pair(dir, "a", kind);
        assertThatThrownBy(() -> parse("a", "a")).hasMessageContaining(message);
    }

    @Test
    void refusesAKeyOfAnotherCertificate() throws Exception {
        OpenSsl.pair(dir, "a", "ec-pkcs8");
        OpenSsl.pair(dir, "b", "ec-pkcs8");
        assertThatThrownBy(() -> parse("a", "b"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("b.key: the private key does not belong to the first certificate of a.crt");
    }

    @Test
    void refusesTextsWithoutTheBlocks() throws Exception {
        OpenSsl.pair(dir, "a", "ec-pkcs8");
        String key = Files.readString(dir.resolve("a.key"));
        assertThatThrownBy(() -> PemKeyMaterial.parse("hello", "tls.crt", key, "tls.key"))
                .hasMessageStartingWith("tls.crt: no \"-----BEGIN CERTIFICATE-----\" block");
        String cert = Files.readString(dir.resolve("a.crt"));
        assertThatThrownBy(() -> PemKeyMaterial.parse(cert, "tls.crt", cert, "tls.key"))
                .hasMessageStartingWith("tls.key: no \"-----BEGIN PRIVATE KEY-----\" (PKCS#8)");
        assertThatThrownBy(() -> PemKeyMaterial.parse(
                        cert,
                        "tls.crt",
                        "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----",
                        "tls.key"))
                .hasMessageContaining("the private key is encrypted");
        assertThatThrownBy(() -> PemKeyMaterial.parse(
                        "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----", "tls.crt", key, "tls.key"))
                .hasMessageStartingWith("tls.crt: certificate 1 does not parse");
    }

    private KeyMaterial parse(String cert, String key) throws Exception {
        return PemKeyMaterial.parse(
                Files.readString(dir.resolve(cert + ".crt")),
                cert + ".crt",
                Files.readString(dir.resolve(key + ".key")),
                key + ".key");
    }
}
