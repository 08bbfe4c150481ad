package io.podnuma.controlplane;

/** What a command printed and how it exited. */
public record CommandResult(int exitCode, String stdout, String stderr) {

    public boolean succeeded() {
        return exitCode == 0;
    }

    /** Standard output followed by standard error, for matching messages wherever the tool printed them. */
    public String output() {
        if (stderr.isEmpty()) {
            return stdout;
        }
        return stdout.isEmpty() ? stderr : stdout + System.lineSeparator() + stderr;
    }

    /** Returns this result when the exit code is 0, else fails with everything the command printed. */
    public CommandResult assertSuccess() {
        if (!succeeded()) {
            throw new AssertionError("expected exit code 0 but was " + exitCode + describe());
        }
        return this;
    }

    /** Returns this result when the exit code is not 0, else fails with everything the command printed. */
    public CommandResult assertFailure() {
        if (succeeded()) {
            throw new AssertionError("expected a non-zero exit code but the command succeeded" + describe());
        }
        return this;
    }

    private String describe() {
        return System.lineSeparator() + "stdout:" + System.lineSeparator() + stdout + System.lineSeparator() + "stderr:"
                + System.lineSeparator() + stderr;
    }
}
