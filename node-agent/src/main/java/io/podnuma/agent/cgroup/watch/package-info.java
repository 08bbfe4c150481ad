/**
 * Container discovery on the host: which container cgroups exist now ({@link
 * io.podnuma.agent.cgroup.watch.CgroupTreeScanner}), which appear and disappear, noticed through inotify ({@link
 * io.podnuma.agent.cgroup.watch.CgroupTreeWatcher}), and which container of a pod a runtime container ID belongs
 * to, from the pod's status ({@link io.podnuma.agent.cgroup.watch.PodContainerIds}).
 */
package io.podnuma.agent.cgroup.watch;
