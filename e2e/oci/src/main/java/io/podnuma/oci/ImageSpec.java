package io.podnuma.oci;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one single-layer image is: its name, the process it starts ({@code entrypoint}, default {@code cmd} the pod's
 * {@code args} replace), its environment and its files. Parent directories the entries do not list are added with
 * mode 755, so a layer never depends on the runtime creating them.
 */
public record ImageSpec(
        ImageName name,
        List<String> entrypoint,
        List<String> cmd,
        List<String> env,
        List<LayerEntry> entries,
        ImageUser user) {

    /** An image whose process runs as root. */
    public ImageSpec(
            ImageName name, List<String> entrypoint, List<String> cmd, List<String> env, List<LayerEntry> entries) {
        this(name, entrypoint, cmd, env, entries, ImageUser.ROOT);
    }

    public ImageSpec {
        java.util.Objects.requireNonNull(user, "user");
        if (entrypoint.isEmpty()) {
            throw new IllegalArgumentException("an image without a base needs an entrypoint: " + name);
        }
        entrypoint = List.copyOf(entrypoint);
        cmd = List.copyOf(cmd);
        env = List.copyOf(env);
        entries = withParents(entries);
    }

    private static List<LayerEntry> withParents(List<LayerEntry> given) {
        Map<LayerPath, LayerEntry> byPath = new TreeMap<>();
        for (LayerEntry entry : given) {
            if (byPath.put(entry.path(), entry) != null) {
                throw new IllegalArgumentException("two layer entries for " + entry.path());
            }
        }
        for (LayerEntry entry : List.copyOf(byPath.values())) {
            var parent = entry.path().parent();
            while (parent.isPresent()) {
                LayerPath dir = parent.get();
                LayerEntry existing = byPath.putIfAbsent(dir, new LayerEntry.Directory(dir, FileMode.EXECUTABLE));
                if (existing != null && !(existing instanceof LayerEntry.Directory)) {
                    throw new IllegalArgumentException(
                            dir + " is a parent of " + entry.path() + " but not a directory");
                }
                parent = dir.parent();
            }
        }
        return List.copyOf(new ArrayList<>(byPath.values()));
    }
}
