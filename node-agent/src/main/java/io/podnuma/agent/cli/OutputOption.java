package io.podnuma.agent.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;
import java.util.function.Supplier;
import picocli.CommandLine.Option;

/** The {@code --output table|json} option, and printing a result in the chosen format. */
final class OutputOption {

    enum Format {
        table,
        json
    }

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Option(
            names = "--output",
            paramLabel = "FORMAT",
            defaultValue = "table",
            description = "table or json (default: ${DEFAULT-VALUE}); the JSON schema is documented in the README.")
    Format format;

    void print(PrintWriter out, Supplier<Object> json, Supplier<String> table) throws JsonProcessingException {
        if (format == Format.json) {
            out.println(JSON.writeValueAsString(json.get()));
        } else {
            out.print(table.get());
        }
        out.flush();
    }
}
