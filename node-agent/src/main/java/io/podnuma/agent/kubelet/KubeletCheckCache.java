package io.podnuma.agent.kubelet;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The kubelet check of the reconcile tick, answered from the last one while none of the kubelet's files changed: the
 * tick asks every period, and parsing the configuration (YAML) and both checkpoints (JSON) each time cost more than
 * the rest of an idle tick, while the files change only when an admin reconfigures or restarts the kubelet.
 *
 * <p>A file counts as unchanged when its size, modification time and file key (device and inode: the kubelet
 * replaces its checkpoints by a rename) are as before, or it was absent and still is. The stamps are taken before the
 * files are read, so a change during the read makes the next call read again. A file that cannot even be looked at
 * is never taken as unchanged, so its problem is reported afresh on every tick.
 */
public final class KubeletCheckCache implements Supplier<KubeletCheck> {

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

    private final KubeletFiles files;
    private final Function<KubeletFiles, KubeletCheck> check;
    private List<Stamp> stamps;
    private KubeletCheck last;

    public KubeletCheckCache(KubeletFiles files) {
        this(files, KubeletCoexistence::check);
    }

    KubeletCheckCache(KubeletFiles files, Function<KubeletFiles, KubeletCheck> check) {
        this.files = Objects.requireNonNull(files, "files");
        this.check = Objects.requireNonNull(check, "check");
    }

    @Override
    public synchronized KubeletCheck get() {
        List<Stamp> now = stamps();
        if (last == null || !now.equals(stamps)) {
            last = check.apply(files);
            stamps = now;
        }
        return last;
    }

    private List<Stamp> stamps() {
        List<Stamp> out = new ArrayList<>(3);
        for (Optional<Path> file :
                List.of(files.cpuManagerState(), files.memoryManagerState(), files.kubeletConfig())) {
            out.add(file.map(Stamp::of).orElse(Stamp.ABSENT));
        }
        return out;
    }
}
