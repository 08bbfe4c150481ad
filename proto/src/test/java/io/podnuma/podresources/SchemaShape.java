package io.podnuma.podresources;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.Descriptors.MethodDescriptor;
import com.google.protobuf.Descriptors.OneofDescriptor;
import com.google.protobuf.Descriptors.ServiceDescriptor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What of a proto file decides wire and JSON compatibility, as a sorted map that compares well and
 * prints a readable difference. File name, options (Go or Java packages) and comments are left out.
 */
final class SchemaShape {

    private SchemaShape() {}

    static Map<String, String> of(FileDescriptor file) {
        Map<String, String> shape = new TreeMap<>();
        shape.put("package", file.getPackage());
        shape.put("syntax", file.toProto().getSyntax());
        shape.put("enums", String.valueOf(file.getEnumTypes().size()));
        for (Descriptor message : file.getMessageTypes()) {
            shape.put(
                    message.getFullName(),
                    "nested=" + message.getNestedTypes().size() + " enums="
                            + message.getEnumTypes().size() + " fields="
                            + message.getFields().size());
            for (FieldDescriptor field : message.getFields()) {
                shape.put(message.getFullName() + "." + field.getName(), describe(field));
            }
        }
        for (ServiceDescriptor service : file.getServices()) {
            shape.put(service.getFullName(), "methods=" + service.getMethods().size());
            for (MethodDescriptor method : service.getMethods()) {
                shape.put(
                        service.getFullName() + "/" + method.getName(),
                        method.getInputType().getFullName() + " -> "
                                + method.getOutputType().getFullName()
                                + " clientStreaming=" + method.isClientStreaming()
                                + " serverStreaming=" + method.isServerStreaming());
            }
        }
        return shape;
    }

    /** One line per key whose value differs or that only one side has. */
    static List<String> differences(Map<String, String> ours, Map<String, String> upstream) {
        Set<String> keys = new TreeSet<>(ours.keySet());
        keys.addAll(upstream.keySet());
        List<String> differences = new ArrayList<>();
        for (String key : keys) {
            String mine = ours.getOrDefault(key, "<absent>");
            String theirs = upstream.getOrDefault(key, "<absent>");
            if (!mine.equals(theirs)) {
                differences.add(key + ": ours " + mine + ", upstream " + theirs);
            }
        }
        return differences;
    }

    private static String describe(FieldDescriptor field) {
        String type = field.getType() == FieldDescriptor.Type.MESSAGE
                ? field.getMessageType().getFullName()
                : field.getType().name();
        OneofDescriptor oneof = field.getRealContainingOneof();
        return "#" + field.getNumber() + " " + type + " json=" + field.getJsonName() + " repeated="
                + field.isRepeated() + " packed=" + field.isPacked() + " presence=" + field.hasPresence()
                + " oneof=" + (oneof == null ? "-" : oneof.getName());
    }
}
