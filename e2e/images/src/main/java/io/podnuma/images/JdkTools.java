package io.podnuma.images;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.spi.ToolProvider;

/** The JDK's own jdeps and jlink, run in this JVM: the runtime in the image is the JDK the build runs on. */
final class JdkTools {
    private JdkTools() {}

    static String run(String tool, List<String> args) {
        ToolProvider provider = ToolProvider.findFirst(tool)
                .orElseThrow(() -> new IllegalStateException(tool + " is not in this JDK (" + Runtime.version() + ")"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = provider.run(new PrintWriter(out, true), new PrintWriter(err, true), args.toArray(String[]::new));
        if (exit != 0) {
            throw new IllegalStateException(
                    tool + " " + String.join(" ", args) + " exited " + exit + ":\n" + err + out);
        }
        return out.toString();
    }
}
