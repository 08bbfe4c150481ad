package io.podnuma.agent.engine.pod;

import io.podnuma.agent.engine.memory.MemoryQuantity;
import io.podnuma.agent.engine.memory.MemoryResource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Short builders for pods in tests: {@code pod("p").budget("8", "16Gi").sidecar("a", "1", "1Gi").build()}. */
public final class TestPods {

    private TestPods() {}

    public static Builder pod(String name) {
        return new Builder(name);
    }

    /** Requests equal to limits; null leaves the entry out. */
    public static Resources guaranteed(String cpu, String memory) {
        return Resources.guaranteed(list(cpu, memory));
    }

    public static ResourceList list(String cpu, String memory) {
        return ResourceList.of(
                cpu == null ? null : CpuQuantity.parseMillis("cpu", cpu),
                memory == null ? null : MemoryQuantity.parseBytes(memory));
    }

    public static final class Builder {
        private final String name;
        private Resources budget;
        private final List<Container> init = new ArrayList<>();
        private final List<Container> app = new ArrayList<>();
        private final List<Container> ephemeral = new ArrayList<>();

        Builder(String name) {
            this.name = name;
        }

        public Builder budget(String cpu, String memory) {
            budget = guaranteed(cpu, memory);
            return this;
        }

        public Builder budget(Resources r) {
            budget = r;
            return this;
        }

        public Builder budgetHugepages(String size, String amount) {
            ResourceList l =
                    budget.limits().with(MemoryResource.parse("hugepages-" + size), MemoryQuantity.parseBytes(amount));
            budget = Resources.guaranteed(l);
            return this;
        }

        public Builder init(String n, String cpu, String memory) {
            init.add(new Container(n, ContainerType.INIT, res(cpu, memory)));
            return this;
        }

        public Builder sidecar(String n, String cpu, String memory) {
            init.add(new Container(n, ContainerType.SIDECAR, res(cpu, memory)));
            return this;
        }

        public Builder app(String n, String cpu, String memory) {
            app.add(new Container(n, ContainerType.APP, res(cpu, memory)));
            return this;
        }

        public Builder app(String n, Resources r) {
            app.add(new Container(n, ContainerType.APP, r));
            return this;
        }

        public Builder ephemeral(String n) {
            ephemeral.add(new Container(n, ContainerType.EPHEMERAL, Resources.NONE));
            return this;
        }

        public Pod build() {
            return new Pod(
                    new PodRef("uid-" + name, "default", name), Optional.ofNullable(budget), init, app, ephemeral);
        }

        private static Resources res(String cpu, String memory) {
            return cpu == null && memory == null ? Resources.NONE : guaranteed(cpu, memory);
        }
    }
}
