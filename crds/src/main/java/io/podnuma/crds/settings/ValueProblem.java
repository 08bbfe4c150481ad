package io.podnuma.crds.settings;

/**
 * One thing wrong with a setting's value.
 *
 * @param path below the setting: empty for the whole value, {@code [0].operator} in a list, {@code ["tier"]} in a map
 * @param value the offending value as written: quoted text, or JSON for a part of a structure
 * @param allowed what is wrong and what is allowed ({@code allowed Exists or Equal})
 */
public record ValueProblem(String path, String value, String allowed) {

    /** {@code <source><path> = <value>: <allowed>}, the form of every value problem the loader reports. */
    public String describe(String source) {
        return source + path + " = " + value + ": " + allowed;
    }
}
