package io.podnuma.agent.cgroup;

import io.podnuma.agent.engine.cpuset.CpuSet;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An in-memory cgroup v1 cpuset hierarchy that refuses writes the way the kernel does: a child's set
 * must lie inside its parent's (EACCES), a parent may not drop what a child holds (EBUSY), and a
 * cgroup with tasks may not become empty (ENOSPC). Records every write; a path can be made to fail.
 */
final class FakeCpusetTree implements CgroupFiles {

    final Path root;
    private final Set<Path> dirs = new HashSet<>();
    private final Map<Path, String> content = new LinkedHashMap<>();
    final List<CgroupWrite> writes = new ArrayList<>();
    final List<Path> reads = new ArrayList<>();
    final Set<Path> failing = new HashSet<>();
    /** The directories listed and checked for existence, in order. */
    final List<Path> listings = new ArrayList<>();

    final List<Path> directoryChecks = new ArrayList<>();

    FakeCpusetTree(Path root, String cpus, String mems) {
        this.root = root;
        mkdir(root, cpus, mems);
    }

    void mkdir(Path dir, String cpus, String mems) {
        dirs.add(dir);
        content.put(dir.resolve("cpuset.cpus"), cpus);
        content.put(dir.resolve("cpuset.mems"), mems);
        content.put(dir.resolve("cpuset.effective_cpus"), cpus);
        content.put(dir.resolve("cpuset.effective_mems"), mems);
        content.put(dir.resolve("tasks"), "");
    }

    void addTask(Path dir, int pid) {
        content.merge(dir.resolve("tasks"), pid + "\n", String::concat);
    }

    CpuSet set(Path dir, String file) {
        return CpuSet.parse(content.get(dir.resolve(file)));
    }

    @Override
    public String read(Path file) throws IOException {
        reads.add(file);
        String s = content.get(file);
        if (s == null) {
            throw new NoSuchFileException(file.toString());
        }
        return s;
    }

    @Override
    public void write(CgroupWrite write) throws IOException {
        Path file = write.path();
        String value = write.value();
        if (failing.contains(file)) {
            throw new IOException("Input/output error (injected)");
        }
        if (!content.containsKey(file)) {
            throw new NoSuchFileException(file.toString());
        }
        String name = file.getFileName().toString();
        Path dir = file.getParent();
        CpuSet v = CpuSet.parse(value);
        if (!dir.equals(root) && !v.isSubsetOf(set(dir.getParent(), name))) {
            throw new IOException("Permission denied");
        }
        for (Path child : children(dir)) {
            if (!set(child, name).isSubsetOf(v)) {
                throw new IOException("Device or resource busy");
            }
        }
        if (v.isEmpty() && !content.get(dir.resolve("tasks")).isBlank()) {
            throw new IOException("No space left on device");
        }
        writes.add(write);
        content.put(file, value);
        content.put(dir.resolve(name.equals("cpuset.cpus") ? "cpuset.effective_cpus" : "cpuset.effective_mems"), value);
    }

    @Override
    public List<Path> childDirectories(Path dir) {
        listings.add(dir);
        return children(dir);
    }

    /** What the kernel knows of a directory's children, without counting as the writer's listing. */
    private List<Path> children(Path dir) {
        List<Path> c = new ArrayList<>();
        for (Path d : dirs) {
            if (dir.equals(d.getParent())) {
                c.add(d);
            }
        }
        return c;
    }

    @Override
    public boolean isDirectory(Path dir) {
        directoryChecks.add(dir);
        return dirs.contains(dir);
    }

    /** Every cgroup's sets lie inside its parent's. */
    boolean consistent() {
        for (Path d : dirs) {
            if (!d.equals(root)) {
                for (String f : List.of("cpuset.cpus", "cpuset.mems")) {
                    if (!set(d, f).isSubsetOf(set(d.getParent(), f))) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    List<Path> allDirs() {
        return new ArrayList<>(dirs);
    }
}
