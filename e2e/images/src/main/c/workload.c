/*
 * podnuma's workload: a container process that tells what CPUs and NUMA memory nodes it may use, as the kernel
 * sees it from inside the container (/proc/self/status), so a test reads a pin from `kubectl logs`.
 *
 * Output: one line "affinity cpus=<Cpus_allowed_list> mems=<Mems_allowed_list>" on stdout
 *   - at start, read as the process's very first action (before argument parsing or signal set-up), so the first
 *     line says whether the container was born on its CPUs or moved there afterwards,
 *   - whenever either list changes (checked every POLL seconds, first argument, default 1),
 *   - on SIGUSR1 (a report on request, even if nothing changed).
 * `workload report` prints the line once and exits 0: for `kubectl exec`, whose process joins the same cgroup.
 * `workload numa-maps <MiB>` maps that much anonymous memory, writes every page, prints the affinity line and then
 * "numa_maps <the mapping's line of /proc/self/numa_maps>" (its N<node>=<pages> fields say where the kernel put the
 * pages) and exits 0; 1 if the memory cannot be mapped or its line is not found.
 * Exit status: 0 on SIGTERM or SIGINT, 1 if /proc/self/status cannot be read.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define LIST_MAX 4096

static int read_field(const char *status, const char *key, char *out, size_t out_size) {
    const char *at = strstr(status, key);
    if (at == NULL) {
        return -1;
    }
    at += strlen(key);
    while (*at == ' ' || *at == '\t') {
        at++;
    }
    size_t n = strcspn(at, "\n");
    if (n >= out_size) {
        n = out_size - 1;
    }
    memcpy(out, at, n);
    out[n] = '\0';
    return 0;
}

static int read_affinity(char *line, size_t line_size) {
    static char status[65536];
    FILE *f = fopen("/proc/self/status", "r");
    if (f == NULL) {
        return -1;
    }
    size_t n = fread(status, 1, sizeof status - 1, f);
    fclose(f);
    status[n] = '\0';
    char cpus[LIST_MAX];
    char mems[LIST_MAX];
    /* The leading newline keeps "Cpus_allowed:" (the mask) from matching "Cpus_allowed_list:". */
    if (read_field(status, "\nCpus_allowed_list:", cpus, sizeof cpus) != 0
        || read_field(status, "\nMems_allowed_list:", mems, sizeof mems) != 0) {
        return -1;
    }
    snprintf(line, line_size, "affinity cpus=%s mems=%s", cpus, mems);
    return 0;
}

/* Where the kernel put the pages of a fresh anonymous mapping of `mib` MiB, as /proc/self/numa_maps says. */
static int numa_maps(long mib) {
    size_t size = (size_t) mib << 20;
    char *buffer = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (buffer == MAP_FAILED) {
        fprintf(stderr, "workload: cannot map %ld MiB\n", mib);
        return 1;
    }
    /* One write per page: each page is allocated now, on a node the process's cpuset.mems allows. */
    for (size_t at = 0; at < size; at += 4096) {
        buffer[at] = (char) at;
    }
    char start[32];
    snprintf(start, sizeof start, "%lx ", (unsigned long) buffer);
    FILE *f = fopen("/proc/self/numa_maps", "r");
    if (f == NULL) {
        fprintf(stderr, "workload: cannot read /proc/self/numa_maps\n");
        return 1;
    }
    static char line[8192];
    while (fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, start, strlen(start)) == 0) {
            fclose(f);
            printf("numa_maps %s", line);
            return 0;
        }
    }
    fclose(f);
    fprintf(stderr, "workload: no line for %s in /proc/self/numa_maps\n", start);
    return 1;
}

static volatile sig_atomic_t stop_requested = 0;
static volatile sig_atomic_t report_requested = 0;

static void on_stop(int sig) {
    (void) sig;
    stop_requested = 1;
}

static void on_report(int sig) {
    (void) sig;
    report_requested = 1;
}

int main(int argc, char **argv) {
    char line[2 * LIST_MAX + 32];
    char last[sizeof line];
    if (read_affinity(line, sizeof line) != 0) {
        fprintf(stderr, "workload: cannot read /proc/self/status\n");
        return 1;
    }
    if (argc > 1 && strcmp(argv[1], "report") == 0) {
        printf("%s\n", line);
        return 0;
    }
    if (argc > 2 && strcmp(argv[1], "numa-maps") == 0) {
        printf("%s\n", line);
        return numa_maps(strtol(argv[2], NULL, 10));
    }
    long poll_seconds = argc > 1 ? strtol(argv[1], NULL, 10) : 1;
    if (poll_seconds < 1) {
        poll_seconds = 1;
    }
    struct sigaction stop = {0};
    stop.sa_handler = on_stop;
    sigaction(SIGTERM, &stop, NULL);
    sigaction(SIGINT, &stop, NULL);
    struct sigaction report = {0};
    report.sa_handler = on_report;
    sigaction(SIGUSR1, &report, NULL);

    last[0] = '\0';
    int first = 1;
    while (!stop_requested) {
        if (!first && read_affinity(line, sizeof line) != 0) {
            fprintf(stderr, "workload: cannot read /proc/self/status\n");
            return 1;
        }
        first = 0;
        if (report_requested || strcmp(line, last) != 0) {
            report_requested = 0;
            printf("%s\n", line);
            /* stdout is a pipe or a log file in a container: flush so each report reaches the log at once. */
            fflush(stdout);
            strcpy(last, line);
        }
        /* A signal ends the sleep early (no SA_RESTART matters for nanosleep: it returns EINTR). */
        struct timespec pause_for = {poll_seconds, 0};
        nanosleep(&pause_for, NULL);
    }
    return 0;
}
