package io.podnuma.securemetrics;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A certificate and key file pair (a mounted {@code kubernetes.io/tls} Secret) read at start and again when their
 * content changes: at most once per {@code checkEvery}, a handshake rereads both files and, when the bytes differ,
 * parses them. A kubelet updates a mounted Secret by swapping a symlink, so both files change at once; a pair that
 * does not parse or match (a half-written rotation) is logged and the previous pair keeps serving until the next
 * check.
 */
public final class CertificateFiles implements KeySource {

    private static final Logger LOG = LoggerFactory.getLogger(CertificateFiles.class);

    /** How often a handshake looks at the files; a rotated Secret serves within this plus the kubelet's sync. */
    public static final Duration DEFAULT_CHECK_EVERY = Duration.ofSeconds(10);

    private final Path certFile;
    private final Path keyFile;
    private final Duration checkEvery;
    private final Clock clock;
    private Instant nextCheck;
    private byte[] certBytes;
    private byte[] keyBytes;
    private KeyMaterial material;

    private CertificateFiles(Path certFile, Path keyFile, Duration checkEvery, Clock clock) {
        this.certFile = Objects.requireNonNull(certFile, "certFile");
        this.keyFile = Objects.requireNonNull(keyFile, "keyFile");
        this.checkEvery = Objects.requireNonNull(checkEvery, "checkEvery");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Reads the pair now.
     *
     * @throws IllegalArgumentException naming the file and what is wrong with it, so the process does not start
     *     serving with a broken pair
     */
    public static CertificateFiles load(Path certFile, Path keyFile, Duration checkEvery, Clock clock) {
        CertificateFiles files = new CertificateFiles(certFile, keyFile, checkEvery, clock);
        byte[] cert = read(certFile);
        byte[] key = read(keyFile);
        files.material = files.parse(cert, key);
        files.certBytes = cert;
        files.keyBytes = key;
        files.nextCheck = clock.instant().plus(checkEvery);
        return files;
    }

    @Override
    public synchronized KeyMaterial current() {
        Instant now = clock.instant();
        if (now.isBefore(nextCheck)) {
            return material;
        }
        nextCheck = now.plus(checkEvery);
        try {
            byte[] cert = read(certFile);
            byte[] key = read(keyFile);
            if (!Arrays.equals(cert, certBytes) || !Arrays.equals(key, keyBytes)) {
                material = parse(cert, key);
                certBytes = cert;
                keyBytes = key;
                LOG.info(
                        "serving certificate reloaded from {}: subject {}, valid until {}",
                        certFile,
                        material.leaf().getSubjectX500Principal().getName(),
                        material.leaf().getNotAfter().toInstant());
            }
        } catch (IllegalArgumentException e) {
            LOG.warn("keeping the previous serving certificate: {}", e.getMessage());
        }
        return material;
    }

    private KeyMaterial parse(byte[] cert, byte[] key) {
        return PemKeyMaterial.parse(
                new String(cert, StandardCharsets.US_ASCII),
                certFile.toString(),
                new String(key, StandardCharsets.US_ASCII),
                keyFile.toString());
    }

    private static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }
}
