package io.podnuma.agent.kubelet;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The kubelet check of the reconcile tick. The kubelet is asked on every call ({@link KubeletPolicyQuery}: one small
 * local gRPC call); its configuration file is parsed again only when it changed, since the tick asks every period
 * and parsing the YAML each time cost more than the rest of an idle tick, while the file changes only when an admin
 * reconfigures the kubelet.
 *
 * <p>The file counts as unchanged when its size, modification time and file key (device and inode: an editor or a
 * config manager may replace it by a rename) are as before, or it was absent and still is. The stamp is taken before
 * the file is read, so a change during the read makes the next call read again. A file that cannot even be looked at
 * is never taken as unchanged, so its problem is reported afresh on every tick.
 */
public final class KubeletCheckCache implements Supplier<KubeletCheck>, AutoCloseable {

    /** What a file looked like from outside; {@link #UNKNOWN} never equals another stamp. */
    record Stamp(boolean exists, long size, FileTime modified, Object key) {

        static final Stamp ABSENT = new Stamp(false, -1, null, null);
        static final Stamp UNKNOWN = new Stamp(false, -1, null, new Object());

        static Stamp of(Path file) {
            try {
                BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
                return new Stamp(
                        true, a.size(), a.lastModifiedTime(), a.fileKey() == null ? new Object() : a.fileKey());
            } catch (NoSuchFileException e) {
                return ABSENT;
            } catch (IOException | RuntimeException e) {
                return UNKNOWN;
            }
        }
    }

    private final Optional<KubeletPolicyQuery> kubelet;
    private final Optional<Path> config;
    private final Function<Path, FileCheck> readConfig;
    private Stamp stamp;
    private FileCheck lastConfig;

    /** Asks the kubelet's socket with {@code callTimeout}; reads the configuration file when it changes. */
    public KubeletCheckCache(KubeletFiles files, Duration callTimeout) {
        this(
                files.podResourcesSocket().map(s -> new KubeletPolicyQuery(s, callTimeout)),
                files.kubeletConfig(),
                KubeletCoexistence::config);
    }

    KubeletCheckCache(
            Optional<KubeletPolicyQuery> kubelet, Optional<Path> config, Function<Path, FileCheck> readConfig) {
        this.kubelet = Objects.requireNonNull(kubelet, "kubelet");
        this.config = Objects.requireNonNull(config, "config");
        this.readConfig = Objects.requireNonNull(readConfig, "readConfig");
    }

    @Override
    public synchronized KubeletCheck get() {
        List<FileCheck> checks = new ArrayList<>(2);
        kubelet.ifPresent(k -> checks.add(k.check()));
        config.ifPresent(file -> {
            Stamp now = Stamp.of(file);
            if (lastConfig == null || !now.equals(stamp)) {
                lastConfig = readConfig.apply(file);
                stamp = now;
            }
            checks.add(lastConfig);
        });
        return new KubeletCheck(checks);
    }

    @Override
    public void close() {
        kubelet.ifPresent(KubeletPolicyQuery::close);
    }
}
