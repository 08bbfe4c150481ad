package io.podnuma.controlplane;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.regex.Pattern;

/** Writes self-contained kubeconfig files (certificates embedded) for the admin and impersonated users. */
final class Kubeconfigs {

    /** What Kubernetes allows in a namespace or service-account name (a DNS-1123 subdomain, loosely). */
    private static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9.]*[a-z0-9])?");

    private final Path dir;
    private final String server;
    private final Pki pki;

    Kubeconfigs(Path dir, String server, Pki pki) {
        this.dir = dir;
        this.server = server;
        this.pki = pki;
    }

    static String serviceAccountUser(String namespace, String serviceAccount) {
        requireName("namespace", namespace);
        requireName("serviceAccount", serviceAccount);
        return "system:serviceaccount:" + namespace + ":" + serviceAccount;
    }

    Path writeAdmin() {
        return write("admin.kubeconfig", Pki.ADMIN_USER, null);
    }

    /** The admin's credentials plus {@code as}: the API server then treats each request as that user. */
    Path writeImpersonating(String namespace, String serviceAccount) {
        String user = serviceAccountUser(namespace, serviceAccount);
        return write("sa-" + namespace + "-" + serviceAccount + ".kubeconfig", user, user);
    }

    private Path write(String fileName, String userName, String impersonate) {
        StringBuilder yaml = new StringBuilder()
                .append("apiVersion: v1\n")
                .append("kind: Config\n")
                .append("clusters:\n")
                .append("- name: podnuma-local\n")
                .append("  cluster:\n")
                .append("    server: ")
                .append(server)
                .append('\n')
                .append("    certificate-authority-data: ")
                .append(base64(pki.caCert()))
                .append('\n')
                .append("users:\n")
                .append("- name: ")
                .append(quote(userName))
                .append('\n')
                .append("  user:\n")
                .append("    client-certificate-data: ")
                .append(base64(pki.adminCert()))
                .append('\n')
                .append("    client-key-data: ")
                .append(base64(pki.adminKey()))
                .append('\n');
        if (impersonate != null) {
            yaml.append("    as: ").append(quote(impersonate)).append('\n');
        }
        yaml.append("contexts:\n")
                .append("- name: podnuma-local\n")
                .append("  context:\n")
                .append("    cluster: podnuma-local\n")
                .append("    user: ")
                .append(quote(userName))
                .append('\n')
                .append("    namespace: default\n")
                .append("current-context: podnuma-local\n");
        Path file = dir.resolve(fileName);
        try {
            Files.createDirectories(dir);
            Files.writeString(file, yaml);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static void requireName(String field, String value) {
        if (value == null || value.length() > 253 || !NAME.matcher(value).matches()) {
            throw new IllegalArgumentException(field + " '" + value + "' is not a valid Kubernetes name:"
                    + " use lower-case letters, digits, '-' and '.', starting and ending with a letter or digit");
        }
    }

    private static String quote(String value) {
        return "\"" + value + "\"";
    }

    private static String base64(Path file) {
        try {
            return Base64.getEncoder().encodeToString(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }
}
