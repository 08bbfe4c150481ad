package io.podnuma.securemetrics;

import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A serving certificate made at start when no certificate files are given: a fresh P-256 key that never leaves the
 * process, and a self-signed X.509 v3 certificate for {@code names} (DNS names or IP literals), valid from an hour
 * ago (clock skew) for {@link #VALIDITY}. A scraper cannot verify it against a CA, so it encrypts the scrape and its
 * bearer token but does not prove who serves; use certificate files for that.
 */
public final class SelfSignedCertificate {

    /** Long enough to outlive any pod; a restart makes a new one. */
    public static final Duration VALIDITY = Duration.ofDays(365);

    private static final String ECDSA_SHA256 = "1.2.840.10045.4.3.2";
    private static final String COMMON_NAME = "2.5.4.3";
    private static final String SUBJECT_ALT_NAME = "2.5.29.17";
    private static final String BASIC_CONSTRAINTS = "2.5.29.19";
    private static final String KEY_USAGE = "2.5.29.15";
    private static final String EXT_KEY_USAGE = "2.5.29.37";
    private static final String SERVER_AUTH = "1.3.6.1.5.5.7.3.1";

    private SelfSignedCertificate() {}

    /**
     * @param commonName the subject and issuer CN, e.g. {@code podnuma-agent}
     * @param names the subject alternative names: DNS names, or IPv4/IPv6 literals
     */
    public static KeyMaterial create(String commonName, List<String> names, Instant now) {
        Objects.requireNonNull(commonName, "commonName");
        try {
            KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
            gen.initialize(new ECGenParameterSpec("secp256r1"), new SecureRandom());
            KeyPair pair = gen.generateKeyPair();
            byte[] algorithm = Der.sequence(Der.oid(ECDSA_SHA256));
            byte[] name = Der.sequence(Der.set(Der.sequence(Der.oid(COMMON_NAME), Der.utf8String(commonName))));
            byte[] tbs = Der.sequence(
                    Der.explicit(0, Der.integer(2)),
                    Der.integer(new BigInteger(127, new SecureRandom()).add(BigInteger.ONE)),
                    algorithm,
                    name,
                    Der.sequence(
                            Der.time(now.minus(Duration.ofHours(1)).atZone(ZoneOffset.UTC)),
                            Der.time(now.plus(VALIDITY).atZone(ZoneOffset.UTC))),
                    name,
                    pair.getPublic().getEncoded(),
                    Der.explicit(3, Der.sequence(extensions(names))));
            Signature signer = Signature.getInstance("SHA256withECDSA");
            signer.initSign(pair.getPrivate());
            signer.update(tbs);
            byte[] der = Der.sequence(tbs, algorithm, Der.bitString(signer.sign()));
            X509Certificate cert = (X509Certificate)
                    CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(der));
            return new KeyMaterial(pair.getPrivate(), List.of(cert));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot make a self-signed serving certificate: " + e.getMessage(), e);
        }
    }

    private static byte[][] extensions(List<String> names) {
        List<byte[]> general = new ArrayList<>();
        for (String n : names) {
            general.add(
                    looksLikeIp(n)
                            ? Der.implicit(7, ipBytes(n))
                            : Der.implicit(2, n.getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
        }
        List<byte[]> out = new ArrayList<>();
        out.add(Der.sequence(Der.oid(BASIC_CONSTRAINTS), Der.bool(true), Der.octetString(Der.sequence())));
        // digitalSignature only (bit 0): an ECDHE handshake signs, it never enciphers with the key.
        out.add(Der.sequence(Der.oid(KEY_USAGE), Der.bool(true), Der.octetString(Der.element(0x03, new byte[] {
            7, (byte) 0x80
        }))));
        out.add(Der.sequence(Der.oid(EXT_KEY_USAGE), Der.octetString(Der.sequence(Der.oid(SERVER_AUTH)))));
        if (!general.isEmpty()) {
            out.add(Der.sequence(
                    Der.oid(SUBJECT_ALT_NAME), Der.octetString(Der.sequence(general.toArray(byte[][]::new)))));
        }
        return out.toArray(byte[][]::new);
    }

    private static boolean looksLikeIp(String n) {
        return n.contains(":") || n.matches("[0-9]{1,3}(\\.[0-9]{1,3}){3}");
    }

    private static byte[] ipBytes(String literal) {
        try {
            // A literal never resolves through DNS: getByName parses it.
            return InetAddress.getByName(literal).getAddress();
        } catch (java.net.UnknownHostException e) {
            throw new IllegalArgumentException("\"" + literal + "\" is not an IP literal", e);
        }
    }
}
