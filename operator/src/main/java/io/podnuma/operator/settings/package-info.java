/**
 * The operator's settings: each {@link OperatorSetting} from a flag, the environment, the YAML file or its default
 * ({@link OperatorSettingsLoader}), checked all at once with messages naming the key, the value and what is allowed
 * ({@link OperatorSettingsException}), and gathered in {@link OperatorSettings}.
 */
package io.podnuma.operator.settings;
