package io.podnuma.agent.kubelet;

import java.nio.file.Path;
import java.util.Objects;

/**
 * The verdict on one kubelet file.
 *
 * @param message for a conflict: the file, the field, its value and what to set; for an unreadable file: what is
 *     wrong with it; otherwise a short note
 */
public record FileCheck(Path file, FileVerdict verdict, String message) {

    public FileCheck {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(message, "message");
    }
}
