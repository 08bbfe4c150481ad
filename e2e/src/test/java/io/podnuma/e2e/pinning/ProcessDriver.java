package io.podnuma.e2e.pinning;

import io.podnuma.controlplane.ControlPlane;
import io.podnuma.testkit.agent.AgentProcess;
import java.nio.file.Path;
import java.time.Duration;

/** The agent as the DaemonSet runs it: {@code node-agent run} as a child JVM with the DaemonSet's flags. */
final class ProcessDriver extends KwokHostDriver {

    private AgentProcess agent;

    ProcessDriver(ControlPlane cp, Path workDir) {
        super(cp, workDir);
    }

    @Override
    public void startAgent(String node, String policyName) throws Exception {
        agent = AgentProcess.prepare(workDir.resolve("agent"), cp.kubeconfig());
        agent.configure(config(node, policyName));
        agent.start();
        agent.awaitReady(Duration.ofSeconds(60));
    }

    @Override
    public void restartAgent() throws Exception {
        stopAgent();
        agent.start();
        agent.awaitReady(Duration.ofSeconds(60));
    }

    @Override
    public String metrics() throws Exception {
        return agent.metrics();
    }

    @Override
    public void stopAgent() throws Exception {
        int exit = agent.terminate(Duration.ofSeconds(30));
        if (exit != 143) {
            throw new AssertionError("the agent exited with " + exit + " after SIGTERM, not 143:\n" + agent.logTail());
        }
    }

    @Override
    public void close() throws Exception {
        if (agent != null) {
            agent.close();
        }
        super.close();
    }
}
