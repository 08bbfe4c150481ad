package io.podnuma.securemetrics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/** Certificates as operators make them, with the real openssl; tests skip with the reason when it is absent. */
final class OpenSsl {

    private OpenSsl() {}

    static void assumePresent() {
        boolean present = Files.isExecutable(Path.of("/usr/bin/openssl"));
        if (!present) {
            System.out.println("skipped: /usr/bin/openssl is not installed (apt-get install openssl)");
        }
        Assumptions.assumeTrue(present, "/usr/bin/openssl is not installed");
    }

    /** A self-signed pair: {@code keyArgs} picks the key kind, e.g. {@code genrsa -traditional 2048}. */
    static void pair(Path dir, String name, String keyAlgorithm) throws Exception {
        Path key = dir.resolve(name + ".key");
        switch (keyAlgorithm) {
            case "rsa-pkcs1" -> run(dir, "openssl", "genrsa", "-traditional", "-out", key.toString(), "2048");
            case "rsa-pkcs8" -> run(dir, "openssl", "genpkey", "-algorithm", "RSA", "-out", key.toString());
            case "ec-pkcs8" ->
                run(
                        dir,
                        "openssl",
                        "genpkey",
                        "-algorithm",
                        "EC",
                        "-pkeyopt",
                        "ec_paramgen_curve:P-256",
                        "-out",
                        key.toString());
            // SEC1 "EC PRIVATE KEY", as cert-manager writes ECDSA keys by default
            case "ec-sec1" ->
                run(dir, "openssl", "ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", key.toString());
            case "ec-sec1-p384" ->
                run(dir, "openssl", "ecparam", "-name", "secp384r1", "-genkey", "-noout", "-out", key.toString());
            default -> throw new IllegalArgumentException(keyAlgorithm);
        }
        run(
                dir,
                "openssl",
                "req",
                "-x509",
                "-new",
                "-key",
                key.toString(),
                "-subj",
                "/CN=" + name,
                "-days",
                "2",
                "-addext",
                "subjectAltName=IP:127.0.0.1",
                "-out",
                dir.resolve(name + ".crt").toString());
    }

    static void run(Path dir, String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(new ArrayList<>(List.of(cmd)))
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", cmd) + " failed: " + out);
        }
    }
}
