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
import java.util.Comparator;
import java.util.List;

/** Lists the container cgroups that exist now, for start-up (the watcher reports changes after that). */
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
        List<FoundContainer> found = new ArrayList<>();
        walk(
                layout.cpusetRoot(),
                tree,
                CgroupPath.root().child(layout.naming().driver().kubepodsName()),
                found);
        found.sort(Comparator.comparing(f -> f.path().toString()));
        return List.copyOf(found);
    }

    private static void walk(Path root, KubepodsTree tree, CgroupPath path, List<FoundContainer> found)
            throws IOException {
        Path dir = path.in(root);
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        switch (tree.classify(path)) {
            case KubepodsTree.Container c -> found.add(new FoundContainer(c.container(), path));
            case KubepodsTree.Parent p -> {
                List<String> children = new ArrayList<>();
                try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
                    for (Path child : ds) {
                        children.add(child.getFileName().toString());
                    }
                } catch (NoSuchFileException | NotDirectoryException gone) {
                    return;
                } catch (IOException e) {
                    throw new IOException("cannot list cgroup directory " + dir + ": " + e.getMessage(), e);
                }
                for (String name : children) {
                    walk(root, tree, path.child(name), found);
                }
            }
            case KubepodsTree.Ignored i -> {}
            case KubepodsTree.Unrecognised u -> {}
        }
    }
}
