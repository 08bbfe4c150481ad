package io.podnuma.bench.agent;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * The agent bench's figures that the budgets are read against, with their same-run baselines, in a file the budget
 * table ({@code io.podnuma.bench.BudgetTable}) reads back: one file per run (JIT, AOT cache).
 */
public record BudgetFigures(
        String jvmFlags,
        long agentRssKib,
        long idleJvmRssKib,
        long agentAnonKib,
        long idleJvmAnonKib,
        double agentMillicores,
        double idleJvmMillicores,
        long readyColdNanos,
        long readyEmptyNanos,
        long readyRestartNanos,
        long listP99Nanos,
        long emptyListP99Nanos,
        long growP99Nanos,
        long growWatchP99Nanos,
        long shrinkP99Nanos,
        long shrinkWatchP99Nanos) {

    public static BudgetFigures of(AgentBench.Result r) {
        AgentBench.Footprint f = r.footprint();
        AgentBench.PoolResult pool = r.pool();
        return new BudgetFigures(
                String.join(" ", r.settings().jvmFlags()),
                f.agentRssKib(),
                f.idleJvmRssKib(),
                f.agentAnonKib(),
                f.idleJvmAnonKib(),
                f.agentMillicores(),
                f.idleJvmMillicores(),
                f.readyCold().toNanos(),
                f.readyEmpty().toNanos(),
                f.readyRestart().toNanos(),
                r.podResources().list().latency().p99Nanos(),
                r.podResources().emptyList().latency().p99Nanos(),
                pool.growAfterReturn().p99Nanos(),
                pool.growWatch().p99Nanos(),
                pool.shrinkAfterReturn().p99Nanos(),
                pool.shrinkWatch().p99Nanos());
    }

    public void write(Path file) throws IOException {
        Properties p = new Properties();
        p.setProperty("jvmFlags", jvmFlags);
        p.setProperty("agentRssKib", Long.toString(agentRssKib));
        p.setProperty("idleJvmRssKib", Long.toString(idleJvmRssKib));
        p.setProperty("agentAnonKib", Long.toString(agentAnonKib));
        p.setProperty("idleJvmAnonKib", Long.toString(idleJvmAnonKib));
        p.setProperty("agentMillicores", Double.toString(agentMillicores));
        p.setProperty("idleJvmMillicores", Double.toString(idleJvmMillicores));
        p.setProperty("readyColdNanos", Long.toString(readyColdNanos));
        p.setProperty("readyEmptyNanos", Long.toString(readyEmptyNanos));
        p.setProperty("readyRestartNanos", Long.toString(readyRestartNanos));
        p.setProperty("listP99Nanos", Long.toString(listP99Nanos));
        p.setProperty("emptyListP99Nanos", Long.toString(emptyListP99Nanos));
        p.setProperty("growP99Nanos", Long.toString(growP99Nanos));
        p.setProperty("growWatchP99Nanos", Long.toString(growWatchP99Nanos));
        p.setProperty("shrinkP99Nanos", Long.toString(shrinkP99Nanos));
        p.setProperty("shrinkWatchP99Nanos", Long.toString(shrinkWatchP99Nanos));
        try (Writer w = Files.newBufferedWriter(file)) {
            p.store(w, "podnuma agent bench: the figures of the budget table");
        }
    }

    /** The figures of {@code file}; a missing or incomplete file is an error naming the key. */
    public static BudgetFigures read(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
        }
        return new BudgetFigures(
                need(p, file, "jvmFlags"),
                Long.parseLong(need(p, file, "agentRssKib")),
                Long.parseLong(need(p, file, "idleJvmRssKib")),
                Long.parseLong(need(p, file, "agentAnonKib")),
                Long.parseLong(need(p, file, "idleJvmAnonKib")),
                Double.parseDouble(need(p, file, "agentMillicores")),
                Double.parseDouble(need(p, file, "idleJvmMillicores")),
                Long.parseLong(need(p, file, "readyColdNanos")),
                Long.parseLong(need(p, file, "readyEmptyNanos")),
                Long.parseLong(need(p, file, "readyRestartNanos")),
                Long.parseLong(need(p, file, "listP99Nanos")),
                Long.parseLong(need(p, file, "emptyListP99Nanos")),
                Long.parseLong(need(p, file, "growP99Nanos")),
                Long.parseLong(need(p, file, "growWatchP99Nanos")),
                Long.parseLong(need(p, file, "shrinkP99Nanos")),
                Long.parseLong(need(p, file, "shrinkWatchP99Nanos")));
    }

    private static String need(Properties p, Path file, String key) {
        String v = p.getProperty(key);
        if (v == null) {
            throw new IllegalArgumentException(file + ": no " + key + " (written by AgentBench --figures)");
        }
        return v;
    }
}
