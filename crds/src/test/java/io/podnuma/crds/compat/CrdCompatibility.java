package io.podnuma.crds.compat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What in a CRD breaks objects or clients written against an earlier release of it. Pure: two CRDs as JSON
 * trees in, one message per breaking change out (empty when the new CRD only adds).
 *
 * <p>Breaking: a served version removed or no longer served; the scope changed; a field removed; a type changed
 * ({@code type}, {@code x-kubernetes-int-or-string}); an enum value removed, or an enum put on a field that had
 * none; a field newly required; a bound tightened (maximum, maxLength, maxItems, maxProperties lowered or added;
 * minimum, minLength, minItems, minProperties raised or added); a pattern added or changed (regexes are not
 * compared for inclusion, so a loosened one counts too); a CEL rule added or changed (message changes do not
 * count; a rule that only constrains a new defaulted field, {@code ... || self.<new field> == <its default>}, does
 * not, as every stored object passes it); the list type or map keys of a list changed; a printer column removed or its JSONPath or type changed.
 * Additions pass: fields, enum values, versions, printer columns, loosened bounds, removed patterns and rules.
 */
public final class CrdCompatibility {

    private static final List<String> UPPER_BOUNDS = List.of("maximum", "maxLength", "maxItems", "maxProperties");
    private static final List<String> LOWER_BOUNDS = List.of("minimum", "minLength", "minItems", "minProperties");

    private CrdCompatibility() {}

    public static List<String> breakingChanges(JsonNode released, JsonNode current) {
        List<String> out = new ArrayList<>();
        String crd = released.path("metadata").path("name").asText();
        String scope = released.path("spec").path("scope").asText();
        if (!scope.equals(current.path("spec").path("scope").asText())) {
            out.add(crd + ": scope changed from " + scope + " to "
                    + current.path("spec").path("scope").asText());
        }
        for (JsonNode v : released.path("spec").path("versions")) {
            if (!v.path("served").asBoolean()) {
                continue;
            }
            String name = v.path("name").asText();
            JsonNode now = version(current, name);
            String where = crd + " " + name;
            if (now == null) {
                out.add(where + ": served version removed");
                continue;
            }
            if (!now.path("served").asBoolean()) {
                out.add(where + ": version no longer served");
            }
            schema(
                    where,
                    "",
                    v.path("schema").path("openAPIV3Schema"),
                    now.path("schema").path("openAPIV3Schema"),
                    out);
            columns(where, v.path("additionalPrinterColumns"), now.path("additionalPrinterColumns"), out);
        }
        return out;
    }

    private static JsonNode version(JsonNode crd, String name) {
        for (JsonNode v : crd.path("spec").path("versions")) {
            if (name.equals(v.path("name").asText())) {
                return v;
            }
        }
        return null;
    }

    private static void schema(String where, String path, JsonNode was, JsonNode now, List<String> out) {
        String at = where + ": " + (path.isEmpty() ? "(root)" : path) + ": ";
        same(at, "type", was, now, out);
        if (was.path("x-kubernetes-int-or-string").asBoolean()
                && !now.path("x-kubernetes-int-or-string").asBoolean()) {
            out.add(at + "no longer x-kubernetes-int-or-string");
        }
        enums(at, was, now, out);
        for (JsonNode r : now.path("required")) {
            if (!contains(was.path("required"), r)) {
                out.add(at + "field " + r.asText() + " became required");
            }
        }
        for (String b : UPPER_BOUNDS) {
            bound(at, b, was, now, true, out);
        }
        for (String b : LOWER_BOUNDS) {
            bound(at, b, was, now, false, out);
        }
        if (now.has("pattern") && !now.path("pattern").equals(was.path("pattern"))) {
            out.add(at
                    + (was.has("pattern") ? "pattern changed from " + was.get("pattern") + " to " : "pattern added: ")
                    + now.get("pattern"));
        }
        rules(at, was, now, out);
        same(at, "x-kubernetes-list-type", was, now, out);
        same(at, "x-kubernetes-list-map-keys", was, now, out);
        for (var it = was.path("properties").fields(); it.hasNext(); ) {
            var e = it.next();
            String child = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
            JsonNode c = now.path("properties").get(e.getKey());
            if (c == null) {
                out.add(where + ": " + child + ": field removed");
            } else {
                schema(where, child, e.getValue(), c, out);
            }
        }
        if (was.has("items")) {
            schema(where, path + "[]", was.get("items"), now.path("items"), out);
        }
        if (was.path("additionalProperties").isObject()) {
            schema(where, path + ".*", was.get("additionalProperties"), now.path("additionalProperties"), out);
        }
    }

    private static void same(String at, String key, JsonNode was, JsonNode now, List<String> out) {
        if (!Objects.equals(was.get(key), now.get(key))) {
            out.add(at + key + " changed from " + text(was.get(key)) + " to " + text(now.get(key)));
        }
    }

    private static void enums(String at, JsonNode was, JsonNode now, List<String> out) {
        if (!now.has("enum")) {
            return;
        }
        if (!was.has("enum")) {
            out.add(at + "enum added: " + now.get("enum"));
            return;
        }
        for (JsonNode v : was.get("enum")) {
            if (!contains(now.get("enum"), v)) {
                out.add(at + "enum value " + v + " removed");
            }
        }
    }

    private static void bound(String at, String key, JsonNode was, JsonNode now, boolean upper, List<String> out) {
        if (!now.has(key)) {
            return;
        }
        double n = now.get(key).asDouble();
        if (!was.has(key)) {
            out.add(at + key + " " + now.get(key) + " added");
        } else if (upper ? n < was.get(key).asDouble() : n > was.get(key).asDouble()) {
            out.add(at + key + " " + (upper ? "lowered" : "raised") + " from " + was.get(key) + " to " + now.get(key));
        }
    }

    private static void rules(String at, JsonNode was, JsonNode now, List<String> out) {
        Set<String> before = new HashSet<>();
        for (JsonNode r : was.path("x-kubernetes-validations")) {
            before.add(r.path("rule").asText());
        }
        for (JsonNode r : now.path("x-kubernetes-validations")) {
            String rule = r.path("rule").asText();
            if (!before.contains(rule) && !guardedByNewField(rule, was, now)) {
                out.add(at + "validation rule added or changed: " + rule);
            }
        }
    }

    /**
     * Whether a new rule holds for every object stored before: it names a field of this object that is new, with a
     * default, and is written {@code ... || self.<field> == <its default>}, so an object that never set the field
     * (read back with the default) passes it.
     */
    static boolean guardedByNewField(String rule, JsonNode was, JsonNode now) {
        for (var it = now.path("properties").fields(); it.hasNext(); ) {
            var e = it.next();
            JsonNode dflt = e.getValue().get("default");
            if (was.path("properties").has(e.getKey()) || dflt == null || !dflt.isTextual()) {
                continue;
            }
            if (rule.endsWith("|| self." + e.getKey() + " == '" + dflt.asText() + "'")) {
                return true;
            }
        }
        return false;
    }

    private static void columns(String where, JsonNode was, JsonNode now, List<String> out) {
        for (JsonNode c : was) {
            String name = c.path("name").asText();
            JsonNode match = null;
            for (JsonNode n : now) {
                if (name.equals(n.path("name").asText())) {
                    match = n;
                }
            }
            String at = where + ": printer column " + name + ": ";
            if (match == null) {
                out.add(at + "removed");
                continue;
            }
            same(at, "jsonPath", c, match, out);
            same(at, "type", c, match, out);
        }
    }

    private static boolean contains(JsonNode array, JsonNode value) {
        for (JsonNode v : array) {
            if (v.equals(value)) {
                return true;
            }
        }
        return false;
    }

    private static String text(JsonNode n) {
        return n == null ? "(none)" : n.toString();
    }
}
