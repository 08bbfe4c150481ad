/** What the agent and the operator share about their settings: how {@code run --help} lists them. */
package io.podnuma.crds.settings;
