/** What podnuma's YAML files (the agent's config, the operator's settings) say when they do not parse. */
package io.podnuma.crds.yaml;
