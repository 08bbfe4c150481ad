package io.podnuma.agent.cgroup.watch;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.cgroup.CgroupDriver;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.ContainerCgroup;
import io.podnuma.agent.cgroup.ContainerId;
import io.podnuma.agent.cgroup.ContainerRuntime;
import io.podnuma.agent.cgroup.InvalidCgroupNameException;
import io.podnuma.agent.engine.pod.PodQos;
import io.podnuma.testkit.badinput.BadInput;
import io.podnuma.testkit.badinput.BadInputDoc;
import io.podnuma.testkit.badinput.InputKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The catalogue's cgroup trees: a kubepods tree holding one real container and one entry the kubelet and the
 * runtimes would not make. The answer is what the agent makes of the entry (the watcher reports an unrecognised
 * name with its reason, at debug level, once) and what the scan then finds: the real container, every time, with
 * the odd entry left alone (never written to, never removed).
 */
class BadCgroupTreeCasesTest {

    private static final InputKind KIND = InputKind.CGROUP_TREE;
    private static final String KEPT =
            "the entry is left alone (never written, never removed); the scan still finds" + " the real container";
    static final String UID = "0c3e8f2a-5b1d-4e6f-9a7b-1c2d3e4f5a6b";
    static final String ID = "4f1b2c3d4e5f60718293a4b5c6d7e8f90123456789abcdef0123456789abcdef";
    private static final String POD = "kubepods/burstable/pod" + UID;
    private static final String SYSTEMD_POD =
            "kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" + UID.replace('-', '_') + ".slice";

    /** How a case's odd entry is made: a directory (the default), a file or a symbolic link to the real container. */
    enum Make {
        DIRECTORY,
        FILE,
        LINK
    }

    record Entry(CgroupDriver driver, String path, Make make) {}

    private static final Map<String, Entry> ENTRIES = new HashMap<>();

    @TempDir
    Path root;

    static List<BadInput> cases() {
        return List.of(
                dir(
                        "cg-qos-unknown",
                        "a QoS directory the kubelet does not make",
                        "kubepods/guaranteed",
                        "unrecognised (reported once by the watcher): cgroup \"/kubepods/guaranteed\": segment \"guaranteed\" is not burstable, besteffort or pod<uid>",
                        "the scan finds [the real container]"),
                dir(
                        "cg-pod-uid-short",
                        "a pod directory whose UID is too short",
                        "kubepods/burstable/podXYZ",
                        "unrecognised (reported once by the watcher): cgroup \"/kubepods/burstable/podXYZ\": pod UID \"XYZ\" has 3 characters: expected a UUID such as 0c3e8f2a-5b1d-4e6f-9a7b-1c2d3e4f5a6b or 32 lowercase hex digits (static pod)",
                        "the scan finds [the real container]"),
                dir(
                        "cg-pod-uid-char",
                        "a pod UID with a character no UID has",
                        "kubepods/burstable/pod" + UID.replace('c', 'z'),
                        "unrecognised (reported once by the watcher): cgroup \"/kubepods/burstable/pod0z3e8f2a-5b1d-4e6f-9a7b-1z2d3e4f5a6b\": pod UID \"0z3e8f2a-5b1d-4e6f-9a7b-1z2d3e4f5a6b\" has \"z\" at position 1: expected a UUID such as 0c3e8f2a-5b1d-4e6f-9a7b-1c2d3e4f5a6b or 32 lowercase hex digits (static pod)",
                        "the scan finds [the real container]"),
                dir(
                        "cg-container-id-short",
                        "a container directory whose ID is too short",
                        POD + "/abc",
                        "unrecognised (reported once by the watcher): cgroup \"/kubepods/burstable/pod0c3e8f2a-5b1d-4e6f-9a7b-1c2d3e4f5a6b/abc\": container ID \"abc\" has 3 characters: expected exactly 64 lowercase hexadecimal digits",
                        "the scan finds [the real container]"),
                dir(
                        "cg-container-id-upper",
                        "a container ID in upper case",
                        POD + "/" + ID.toUpperCase(),
                        "unrecognised (reported once by the watcher): cgroup \"/kubepods/burstable/pod0c3e8f2a-5b1d-4e6f-9a7b-1c2d3e4f5a6b/4F1B2C3D4E5F60718293A4B5C6D7E8F90123456789ABCDEF0123456789ABCDEF\": container ID \"4F1B2C3D4E5F60718293A4B5C6D7E8F90123456789ABCDEF0123456789ABCDEF\" has \"F\" at position 1: expected exactly 64 lowercase hexadecimal digits",
                        "the scan finds [the real container]"),
                dir(
                        "cg-container-id-char",
                        "a container ID with a character no ID has",
                        POD + "/" + ID.substring(1) + "g",
                        "unrecognised (reported once by the watcher): cgroup \"/kubepods/burstable/pod0c3e8f2a-5b1d-4e6f-9a7b-1c2d3e4f5a6b/f1b2c3d4e5f60718293a4b5c6d7e8f90123456789abcdef0123456789abcdefg\": container ID \"f1b2c3d4e5f60718293a4b5c6d7e8f90123456789abcdef0123456789abcdefg\" has \"g\" at position 63: expected exactly 64 lowercase hexadecimal digits",
                        "the scan finds [the real container]"),
                dir(
                        "cg-besteffort-uid-short",
                        "a BestEffort pod directory whose UID is too short",
                        "kubepods/besteffort/pod123",
                        "unrecognised (reported once by the watcher): cgroup \"/kubepods/besteffort/pod123\": pod UID \"123\" has 3 characters: expected a UUID such as 0c3e8f2a-5b1d-4e6f-9a7b-1c2d3e4f5a6b or 32 lowercase hex digits (static pod)",
                        "the scan finds [the real container]"),
                dir(
                        "cg-unicode-name",
                        "a name outside ASCII",
                        "kubepods/burstable/pod\u00e9t\u00e9",
                        "unrecognised (reported once by the watcher): cgroup \"/kubepods/burstable/podété\": pod UID \"été\" has 3 characters: expected a UUID such as 0c3e8f2a-5b1d-4e6f-9a7b-1c2d3e4f5a6b or 32 lowercase hex digits (static pod)",
                        "the scan finds [the real container]"),
                dir(
                        "cg-nested",
                        "a cgroup the workload made inside its container",
                        POD + "/" + ID + "/worker",
                        "ignored: not a container the kubelet or a runtime makes",
                        "the scan finds [the real container]"),
                dir(
                        "cg-outside",
                        "a directory beside kubepods",
                        "system.slice/containerd.service",
                        "ignored: not a container the kubelet or a runtime makes",
                        "the scan finds [the real container]"),
                file(
                        "cg-file-like-container",
                        "a regular file named like a container",
                        POD + "/" + ID.replace('4', '5'),
                        "named like container 5f1b2c3d5e5f… (the scan also checks it is a directory)",
                        "the scan finds [the real container]"),
                link(
                        "cg-link-like-container",
                        "a symbolic link named like a container",
                        POD + "/" + ID.replace('4', '6'),
                        "named like container 6f1b2c3d6e5f… (the scan also checks it is a directory)",
                        "the scan finds [the real container]"),
                systemd(
                        "cg-systemd-scope",
                        "a systemd scope of no runtime",
                        SYSTEMD_POD + "/docker-" + ID + ".scope",
                        "unrecognised (reported once by the watcher): cgroup \"/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod0c3e8f2a_5b1d_4e6f_9a7b_1c2d3e4f5a6b.slice/docker-4f1b2c3d4e5f60718293a4b5c6d7e8f90123456789abcde...\": segment \"docker-4f1b2c3d4e5f60718293a4b5c6d7e8f90123456789abcdef0123456789abcdef.scope\" is not cri-containerd-<64 hex digits>.scope or crio-<64 hex digits>.scope",
                        "the scan finds [the real container]"),
                systemd(
                        "cg-systemd-scope-short",
                        "a containerd scope with a short ID",
                        SYSTEMD_POD + "/cri-containerd-abc.scope",
                        "unrecognised (reported once by the watcher): cgroup \"/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod0c3e8f2a_5b1d_4e6f_9a7b_1c2d3e4f5a6b.slice/cri-containerd-abc.scope\": container ID \"abc\" has 3 characters: expected exactly 64 lowercase hexadecimal digits",
                        "the scan finds [the real container]"),
                systemd(
                        "cg-systemd-pod-dashes",
                        "a pod slice with the UID's dashes kept",
                        "kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" + UID + ".slice",
                        "unrecognised (reported once by the watcher): cgroup \"/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod0c3e8f2a-5b1d-4e6f-9a7b-1c2d3e4f5a6b.slice\": segment \"kubepods-burstable-pod0c3e8f2a-5b1d-4e6f-9a7b-1c2d3e4f5a6b.slice\" is not kubepods-burstable-pod<uid with every - written as _>.slice",
                        "the scan finds [the real container]"),
                systemd(
                        "cg-systemd-qos-unknown",
                        "a QoS slice systemd would not make",
                        "kubepods.slice/kubepods-gold.slice",
                        "unrecognised (reported once by the watcher): cgroup \"/kubepods.slice/kubepods-gold.slice\": segment \"kubepods-gold.slice\" is not kubepods-burstable.slice, kubepods-besteffort.slice or kubepods-pod<uid with _>.slice",
                        "the scan finds [the real container]"));
    }

    private static BadInput dir(String id, String wrong, String path, String... answer) {
        return entry(id, wrong, new Entry(CgroupDriver.CGROUPFS, path, Make.DIRECTORY), answer);
    }

    private static BadInput file(String id, String wrong, String path, String... answer) {
        return entry(id, wrong, new Entry(CgroupDriver.CGROUPFS, path, Make.FILE), answer);
    }

    private static BadInput link(String id, String wrong, String path, String... answer) {
        return entry(id, wrong, new Entry(CgroupDriver.CGROUPFS, path, Make.LINK), answer);
    }

    private static BadInput systemd(String id, String wrong, String path, String... answer) {
        return entry(id, wrong, new Entry(CgroupDriver.SYSTEMD, path, Make.DIRECTORY), answer);
    }

    private static BadInput entry(String id, String wrong, Entry e, String... answer) {
        ENTRIES.put(id, e);
        String input = e.driver().name().toLowerCase(java.util.Locale.ROOT) + " tree, "
                + e.make().name().toLowerCase(java.util.Locale.ROOT) + " " + e.path();
        return new BadInput(id, KIND, wrong, input, List.of(answer), KEPT);
    }

    @ParameterizedTest
    @MethodSource("cases")
    void theAgentLeavesTheEntryAloneAndFindsTheRealContainer(BadInput c) throws IOException {
        Entry e = ENTRIES.get(c.id());
        KubeletTree tree = new KubeletTree(root, e.driver(), new java.util.Random(7));
        ContainerCgroup real =
                new ContainerCgroup(PodQos.BURSTABLE, UID, new ContainerId(ContainerRuntime.CONTAINERD, ID));
        CgroupPath realPath = tree.mkdir(real);
        CgroupPath odd = parse(e.path());
        tree.mkdirs(odd.parent());
        switch (e.make()) {
            case DIRECTORY -> tree.mkdirs(odd);
            case FILE -> Files.writeString(tree.dir(odd), "0");
            case LINK -> Files.createSymbolicLink(tree.dir(odd), tree.dir(realPath));
        }

        List<String> answer = new ArrayList<>();
        answer.add(describe(new KubepodsTree(tree.naming).classify(odd)));
        List<FoundContainer> found = CgroupTreeScanner.scan(tree.layout);
        answer.add("the scan finds "
                + found.stream()
                        .map(f -> f.path().equals(realPath)
                                ? "the real container"
                                : f.path().toString())
                        .toList());

        c.assertAnswer(answer);
        assertThat(found).containsExactly(new FoundContainer(real, realPath));
        assertThat(Files.exists(tree.dir(odd), java.nio.file.LinkOption.NOFOLLOW_LINKS))
                .as("left alone")
                .isTrue();
    }

    private static CgroupPath parse(String path) {
        try {
            return CgroupPath.parse(path);
        } catch (InvalidCgroupNameException ex) {
            throw new AssertionError(path + ": " + ex.getMessage(), ex);
        }
    }

    private static String describe(KubepodsTree.Kind kind) {
        return switch (kind) {
            case KubepodsTree.Unrecognised u -> "unrecognised (reported once by the watcher): " + u.reason();
            case KubepodsTree.Ignored i -> "ignored: not a container the kubelet or a runtime makes";
            case KubepodsTree.Parent p -> "a level that may hold containers";
            case KubepodsTree.Container ct ->
                "named like container " + ct.container().containerId().id().substring(0, 12)
                        + "… (the scan also checks it is a directory)";
        };
    }

    @Test
    void theDocIsUpToDate() {
        assertThat(BadInputDoc.check(KIND, cases(), "node-agent", getClass().getSimpleName()))
                .isNull();
    }
}
