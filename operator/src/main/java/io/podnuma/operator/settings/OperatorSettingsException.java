package io.podnuma.operator.settings;

import io.podnuma.crds.settings.SettingsException;
import java.util.List;

/** The settings cannot be used: every problem, each naming the key (or flag, or variable), value and what is allowed. */
public final class OperatorSettingsException extends SettingsException {

    private static final long serialVersionUID = 1L;

    public OperatorSettingsException(List<String> problems) {
        super("operator settings", problems);
    }
}
