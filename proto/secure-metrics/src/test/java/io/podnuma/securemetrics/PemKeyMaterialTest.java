package io.podnuma.securemetrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Signature;
import java.security.interfaces.ECPrivateKey;
import java.util.Arrays;
import java.util.Base64;
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
    @CsvSource({"rsa-pkcs1, RSA", "rsa-pkcs8, RSA", "ec-pkcs8, EC", "ec-sec1, EC", "ec-sec1-p384, EC"})
    void readsTheKeysOperatorsMake(String kind, String algorithm) throws Exception {
        OpenSsl.pair(dir, "a", kind);
        KeyMaterial m = parse("a", "a");
        assertThat(m.key().getAlgorithm()).isEqualTo(algorithm);
        assertThat(m.leaf().getSubjectX500Principal().getName()).isEqualTo("CN=a");
        assertThat(signsForTheLeaf(m))
                .as("a signature by the key verifies with the certificate")
                .isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"ec-sec1, 256", "ec-sec1-p384, 384"})
    void anSec1KeyKeepsItsCurve(String kind, int bits) throws Exception {
        OpenSsl.pair(dir, "a", kind);
        assertThat(Files.readString(dir.resolve("a.key"))).startsWith("-----BEGIN EC PRIVATE KEY-----");
        ECPrivateKey key = (ECPrivateKey) parse("a", "a").key();
        assertThat(key.getParams().getCurve().getField().getFieldSize()).isEqualTo(bits);
    }

    @Test
    void aTruncatedSec1KeySaysItIsNotReadableDer() throws Exception {
        OpenSsl.pair(dir, "a", "ec-sec1");
        byte[] der = sec1Der();
        String cut = pem("EC PRIVATE KEY", Arrays.copyOf(der, der.length - 20));
        assertThatThrownBy(() -> PemKeyMaterial.parse(cert(), "tls.crt", cut, "tls.key"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "tls.key: the SEC1 \"EC PRIVATE KEY\" is not readable DER (the DER ends inside an element"
                                + " that claims " + (der.length - 2)
                                + " bytes of content at byte 0): expected the output of `openssl ecparam -genkey -noout` or cert-manager's tls.key");
    }

    @Test
    void anSec1KeyWithExplicitCurveParametersSaysHowToNameTheCurve() throws Exception {
        OpenSsl.pair(dir, "a", "ec-sec1");
        OpenSsl.run(dir, "openssl", "ec", "-in", "a.key", "-param_enc", "explicit", "-out", "explicit.key");
        assertThatThrownBy(() -> PemKeyMaterial.parse(
                        cert(), "tls.crt", Files.readString(dir.resolve("explicit.key")), "tls.key"))
                .hasMessage("tls.key: the SEC1 \"EC PRIVATE KEY\" names no curve (its parameters [0] are missing or"
                        + " not a named curve): write it with the curve's name, e.g. `openssl ec -in tls.key"
                        + " -param_enc named_curve`");
    }

    @Test
    void anSec1KeyWithAWrongVersionIsNotAnEcKey() throws Exception {
        OpenSsl.pair(dir, "a", "ec-sec1");
        byte[] der = sec1Der();
        // SEQUENCE header, then INTEGER 1 (02 01 01): the version must be 1 (RFC 5915)
        int version = der[1] < 0 ? 2 + (der[1] & 0x7f) + 2 : 4;
        assertThat(der[version]).isEqualTo((byte) 1);
        der[version] = 2;
        String bad = pem("EC PRIVATE KEY", der);
        assertThatThrownBy(() -> PemKeyMaterial.parse(cert(), "tls.crt", bad, "tls.key"))
                .hasMessageStartingWith("tls.key: the private key is not a EC key in PKCS#8, PKCS#1 or SEC1: ");
    }

    private static boolean signsForTheLeaf(KeyMaterial m) throws Exception {
        byte[] text = "scrape".getBytes(StandardCharsets.US_ASCII);
        String alg = m.key().getAlgorithm().equals("EC") ? "SHA384withECDSA" : "SHA256withRSA";
        Signature s = Signature.getInstance(alg);
        s.initSign(m.key());
        s.update(text);
        byte[] sig = s.sign();
        Signature v = Signature.getInstance(alg);
        v.initVerify(m.leaf().getPublicKey());
        v.update(text);
        return v.verify(sig);
    }

    private String cert() throws Exception {
        return Files.readString(dir.resolve("a.crt"));
    }

    private byte[] sec1Der() throws Exception {
        String pem = Files.readString(dir.resolve("a.key"));
        return Base64.getMimeDecoder()
                .decode(pem.replace("-----BEGIN EC PRIVATE KEY-----", "").replace("-----END EC PRIVATE KEY-----", ""));
    }

    private static String pem(String label, byte[] der) {
        return "-----BEGIN " + label + "-----\n" + Base64.getMimeEncoder().encodeToString(der) + "\n-----END " + label
                + "-----\n";
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
                .hasMessage("tls.key: no \"-----BEGIN PRIVATE KEY-----\" (PKCS#8), \"-----BEGIN RSA PRIVATE KEY-----\""
                        + " (PKCS#1) or \"-----BEGIN EC PRIVATE KEY-----\" (SEC1) block");
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
