package io.podnuma.securemetrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A mounted Secret rotates by swapping a symlink; the files are read again at most once per check interval. */
class CertificateFilesTest {

    @TempDir
    Path dir;

    private final MutableClock clock = new MutableClock();

    @BeforeEach
    void pairs() throws Exception {
        OpenSsl.assumePresent();
        OpenSsl.pair(dir, "old", "ec-pkcs8");
        OpenSsl.pair(dir, "new", "rsa-pkcs1");
        Files.createDirectory(dir.resolve("old-data"));
        Files.copy(dir.resolve("old.crt"), dir.resolve("old-data/tls.crt"));
        Files.copy(dir.resolve("old.key"), dir.resolve("old-data/tls.key"));
        Files.createDirectory(dir.resolve("new-data"));
        Files.copy(dir.resolve("new.crt"), dir.resolve("new-data/tls.crt"));
        Files.copy(dir.resolve("new.key"), dir.resolve("new-data/tls.key"));
        Files.createSymbolicLink(dir.resolve("..data"), dir.resolve("old-data"));
        Files.createSymbolicLink(dir.resolve("tls.crt"), Path.of("..data/tls.crt"));
        Files.createSymbolicLink(dir.resolve("tls.key"), Path.of("..data/tls.key"));
    }

    @Test
    void servesTheRotatedPairAfterTheNextCheck() throws Exception {
        CertificateFiles files = load();
        KeyMaterial first = files.current();
        assertThat(first.leaf().getSubjectX500Principal().getName()).isEqualTo("CN=old");

        swapTo("new-data");
        clock.advance(Duration.ofSeconds(9));
        assertThat(files.current()).isSameAs(first);
        clock.advance(Duration.ofSeconds(1));
        KeyMaterial second = files.current();
        assertThat(second.leaf().getSubjectX500Principal().getName()).isEqualTo("CN=new");
        assertThat(second.key().getAlgorithm()).isEqualTo("RSA");
        clock.advance(Duration.ofSeconds(10));
        assertThat(files.current()).as("unchanged bytes are not parsed again").isSameAs(second);
    }

    @Test
    void keepsThePreviousPairWhenTheNewOneIsBroken() throws Exception {
        CertificateFiles files = load();
        KeyMaterial first = files.current();
        Files.copy(dir.resolve("new.key"), dir.resolve("old-data/tls.key"), StandardCopyOption.REPLACE_EXISTING);
        clock.advance(Duration.ofSeconds(10));
        assertThat(files.current()).isSameAs(first);
        Files.delete(dir.resolve("old-data/tls.crt"));
        clock.advance(Duration.ofSeconds(10));
        assertThat(files.current()).isSameAs(first);
    }

    @Test
    void aBrokenPairAtStartStopsTheStart() throws Exception {
        Files.delete(dir.resolve("old-data/tls.key"));
        assertThatThrownBy(this::load)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("cannot read " + dir.resolve("tls.key"));
    }

    private CertificateFiles load() {
        return CertificateFiles.load(dir.resolve("tls.crt"), dir.resolve("tls.key"), Duration.ofSeconds(10), clock);
    }

    private void swapTo(String target) throws Exception {
        Path tmp = dir.resolve("..data_tmp");
        Files.createSymbolicLink(tmp, dir.resolve(target));
        Files.move(tmp, dir.resolve("..data"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
