package io.podnuma.agent.config;

import io.podnuma.crds.settings.SettingsException;
import java.util.List;

/**
 * The agent configuration cannot be used. Every problem found is listed, each naming the key (or flag, or
 * environment variable), the value and what is allowed, so one start-up shows them all.
 */
public final class AgentConfigException extends SettingsException {

    private static final long serialVersionUID = 1L;

    public AgentConfigException(List<String> problems) {
        super("agent configuration", problems);
    }
}
