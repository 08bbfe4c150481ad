package io.podnuma.controlplane;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The certificates and keys of one control plane, generated at start with the openssl command line into
 * a private directory: a CA, the API server's serving certificate, the admin's client certificate and the
 * service-account signing key pair.
 */
record Pki(Path caCert, Path serverCert, Path serverKey, Path adminCert, Path adminKey, Path saKey, Path saPub) {

    static final String ADMIN_USER = "podnuma-admin";

    /** The API server's in-cluster names, so in-cluster style clients also verify its certificate. */
    private static final List<String> SERVER_NAMES = List.of(
            "DNS:localhost",
            "DNS:kubernetes",
            "DNS:kubernetes.default",
            "DNS:kubernetes.default.svc",
            "DNS:kubernetes.default.svc.cluster.local",
            "IP:127.0.0.1");

    /**
     * Generates everything into {@code dir}.
     *
     * @param serviceIp the first address of the service range (the {@code kubernetes} service's cluster IP)
     * @param moreIps further addresses clients dial the API server on (e.g. the pod network's gateway)
     */
    static Pki generate(Path dir, String openssl, String serviceIp, List<String> moreIps) {
        try {
            Files.createDirectories(dir);
            // Our own config file: the system openssl.cnf differs between distributions and versions.
            Path config = dir.resolve("openssl.cnf");
            List<String> sans = new ArrayList<>(SERVER_NAMES);
            sans.add("IP:" + serviceIp);
            moreIps.forEach(ip -> sans.add("IP:" + ip));
            Files.writeString(
                    config,
                    String.join(
                            "\n",
                            "[req]",
                            "distinguished_name = dn",
                            "prompt = no",
                            "[dn]",
                            "[ca]",
                            "basicConstraints = critical, CA:TRUE",
                            "keyUsage = critical, keyCertSign, cRLSign, digitalSignature",
                            "subjectKeyIdentifier = hash",
                            "[server]",
                            "basicConstraints = critical, CA:FALSE",
                            "keyUsage = critical, digitalSignature, keyEncipherment",
                            "extendedKeyUsage = serverAuth",
                            "subjectAltName = " + String.join(", ", sans),
                            "[client]",
                            "basicConstraints = critical, CA:FALSE",
                            "keyUsage = critical, digitalSignature, keyEncipherment",
                            "extendedKeyUsage = clientAuth",
                            ""));
            Path caKey = dir.resolve("ca.key");
            Path caCert = dir.resolve("ca.crt");
            Commands.runChecked(List.of(
                    openssl,
                    "req",
                    "-x509",
                    "-newkey",
                    "rsa:2048",
                    "-nodes",
                    "-sha256",
                    "-days",
                    "3650",
                    "-config",
                    config.toString(),
                    "-extensions",
                    "ca",
                    "-subj",
                    "/CN=podnuma-local-ca",
                    "-keyout",
                    caKey.toString(),
                    "-out",
                    caCert.toString()));

            Path serverKey = dir.resolve("apiserver.key");
            Path serverCert = dir.resolve("apiserver.crt");
            signed(openssl, config, caCert, caKey, "/CN=kube-apiserver", "server", serverKey, serverCert);

            Path adminKey = dir.resolve("admin.key");
            Path adminCert = dir.resolve("admin.crt");
            // The organisation becomes the user's group: system:masters bypasses RBAC.
            signed(openssl, config, caCert, caKey, "/O=system:masters/CN=" + ADMIN_USER, "client", adminKey, adminCert);

            Path saKey = dir.resolve("service-account.key");
            Path saPub = dir.resolve("service-account.pub");
            Commands.runChecked(List.of(
                    openssl,
                    "genpkey",
                    "-algorithm",
                    "RSA",
                    "-pkeyopt",
                    "rsa_keygen_bits:2048",
                    "-out",
                    saKey.toString()));
            Commands.runChecked(List.of(openssl, "pkey", "-in", saKey.toString(), "-pubout", "-out", saPub.toString()));
            return new Pki(caCert, serverCert, serverKey, adminCert, adminKey, saKey, saPub);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write certificates under " + dir + ": " + e.getMessage(), e);
        }
    }

    /** A certificate and its key, issued by this CA. */
    record Issued(Path cert, Path key) {}

    /**
     * Issues a new certificate for {@code subject} from this CA into {@code dir}, with the openssl x509v3
     * {@code extensionLines} (e.g. {@code extendedKeyUsage = clientAuth}).
     */
    Issued issue(String openssl, Path dir, String name, String subject, List<String> extensionLines) {
        try {
            Files.createDirectories(dir);
            Path config = dir.resolve(name + ".cnf");
            List<String> lines =
                    new ArrayList<>(List.of("[req]", "distinguished_name = dn", "prompt = no", "[dn]", "[ext]"));
            lines.addAll(extensionLines);
            lines.add("");
            Files.writeString(config, String.join("\n", lines));
            Path key = dir.resolve(name + ".key");
            Path cert = dir.resolve(name + ".crt");
            signed(openssl, config, caCert, caCert.resolveSibling("ca.key"), subject, "ext", key, cert);
            return new Issued(cert, key);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write certificates under " + dir + ": " + e.getMessage(), e);
        }
    }

    private static void signed(
            String openssl,
            Path config,
            Path caCert,
            Path caKey,
            String subject,
            String extensions,
            Path key,
            Path cert) {
        Path csr = cert.resolveSibling(cert.getFileName() + ".csr");
        Commands.runChecked(List.of(
                openssl,
                "req",
                "-new",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-config",
                config.toString(),
                "-subj",
                subject,
                "-keyout",
                key.toString(),
                "-out",
                csr.toString()));
        Commands.runChecked(List.of(
                openssl,
                "x509",
                "-req",
                "-sha256",
                "-days",
                "365",
                "-in",
                csr.toString(),
                "-CA",
                caCert.toString(),
                "-CAkey",
                caKey.toString(),
                "-CAcreateserial",
                "-extfile",
                config.toString(),
                "-extensions",
                extensions,
                "-out",
                cert.toString()));
    }
}
