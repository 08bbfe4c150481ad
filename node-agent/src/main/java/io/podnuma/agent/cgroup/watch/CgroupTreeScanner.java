package io.podnuma.agent.cgroup.watch;

import io.podnuma.agent.cgroup.CgroupLayout;
import io.podnuma.agent.cgroup.CgroupPath;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Lists the container cgroups that exist now, for start-up and the periodic reconcile (the watcher reports changes
 * in between).
 *
 * <p>It runs on every reconcile tick, so it does little per entry: an entry's name is judged first (the kernel's
 * control files, some 30 per pod directory, are skipped by name; other names are classified by path alone), and
 * only a name that can be a container or a level holding containers costs a {@code stat}.
 */
public final class CgroupTreeScanner {

    private CgroupTreeScanner() {}

    /**
     * Every container cgroup below the layout's kubepods directory in the cpuset hierarchy, ordered by path. No
     * kubepods directory yet: empty. Directories removed while being listed are left out; directories with names
     * the kubelet and the runtimes would not create are skipped.
     *
     * @throws IOException when a directory that exists cannot be listed (the message names it)
     */
    public static List<FoundContainer> scan(CgroupLayout layout) throws IOException {
        KubepodsTree tree = new KubepodsTree(layout.naming());
        Path root = layout.cpusetRoot();
        CgroupPath kubepods = CgroupPath.root().child(layout.naming().driver().kubepodsName());
        // Keyed by the path's text, so each path is rendered once rather than in every comparison of a sort.
        TreeMap<String, FoundContainer> found = new TreeMap<>();
        if (Files.isDirectory(kubepods.in(root), LinkOption.NOFOLLOW_LINKS)) {
            walk(root, tree, kubepods, found);
        }
        return List.copyOf(found.values());
    }

    /** Lists {@code parent}, a directory that may hold containers below it, and descends into what matters. */
    private static void walk(Path root, KubepodsTree tree, CgroupPath parent, TreeMap<String, FoundContainer> found)
            throws IOException {
        Path dir = parent.in(root);
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path child : ds) {
                names.add(child.getFileName().toString());
            }
        } catch (NoSuchFileException | NotDirectoryException gone) {
            return;
        } catch (IOException e) {
            throw new IOException("cannot list cgroup directory " + dir + ": " + e.getMessage(), e);
        }
        for (String name : names) {
            if (KubepodsTree.isControlFile(name)) {
                continue;
            }
            CgroupPath path = parent.child(name);
            switch (tree.classify(path)) {
                case KubepodsTree.Container c -> {
                    if (isDirectory(root, path)) {
                        found.put(path.toString(), new FoundContainer(c.container(), path));
                    }
                }
                case KubepodsTree.Parent p -> {
                    if (isDirectory(root, path)) {
                        walk(root, tree, path, found);
                    }
                }
                case KubepodsTree.Ignored i -> {}
                case KubepodsTree.Unrecognised u -> {}
            }
        }
    }

    /** A name just listed may be a file, a symbolic link, or gone again. */
    private static boolean isDirectory(Path root, CgroupPath path) {
        return Files.isDirectory(path.in(root), LinkOption.NOFOLLOW_LINKS);
    }
}
