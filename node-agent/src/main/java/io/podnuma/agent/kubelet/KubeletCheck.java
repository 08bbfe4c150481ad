package io.podnuma.agent.kubelet;

import java.util.List;
import java.util.stream.Collectors;

/** The verdicts on every configured kubelet file, and what they mean together. */
public record KubeletCheck(List<FileCheck> files) {

    public KubeletCheck {
        files = List.copyOf(files);
    }

    /**
     * A conflict anywhere wins; then an unreadable file (the agent cannot prove it is alone); then a compatible file;
     * with no file found the result is {@link FileVerdict#NOT_CHECKED}.
     */
    public FileVerdict verdict() {
        for (FileVerdict v : List.of(FileVerdict.CONFLICT, FileVerdict.UNREADABLE, FileVerdict.COMPATIBLE)) {
            if (files.stream().anyMatch(f -> f.verdict() == v)) {
                return v;
            }
        }
        return FileVerdict.NOT_CHECKED;
    }

    /** Only when no file shows or may hide a kubelet policy: writing cpusets then fights nobody. */
    public boolean agentMayWrite() {
        FileVerdict v = verdict();
        return v == FileVerdict.COMPATIBLE || v == FileVerdict.NOT_CHECKED;
    }

    /** The messages of the files that decided the verdict, joined with "; ". */
    public String message() {
        FileVerdict v = verdict();
        if (v == FileVerdict.NOT_CHECKED) {
            return files.isEmpty()
                    ? "not checked: no kubelet file is configured"
                    : "not checked: none of "
                            + files.stream().map(f -> f.file().toString()).collect(Collectors.joining(", "))
                            + " exists";
        }
        return files.stream()
                .filter(f -> f.verdict() == v)
                .map(FileCheck::message)
                .collect(Collectors.joining("; "));
    }
}
