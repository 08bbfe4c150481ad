/**
 * The settings machinery the agent and the operator share: a setting's definition, where its value comes from (flag,
 * environment, file, default), the value rules both use, the settings file and how {@code run --help} lists it all.
 * Each component keeps only its own settings (an enum of {@link io.podnuma.crds.settings.SettingDefinition}) and its
 * cross checks.
 */
package io.podnuma.crds.settings;
