/*
 * podnuma's pause: the process that holds a pod sandbox's namespaces. It does nothing until it is told to stop.
 * As PID 1 of the sandbox it also reaps orphans, so exited children do not stay as zombies in the pod.
 * It prints one line when it starts (a pod's logs show it ran) and, as "/pause --version", its version and exits
 * (the image has no shell, so kubectl exec needs something of its own to run). PauseImage holds both lines.
 * Exit status: 0 on SIGTERM or SIGINT (the runtime's normal stop) and after --version, 2 if the signal mask cannot
 * be set.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--version") == 0) {
        puts("podnuma pause 1");
        return 0;
    }
    sigset_t wanted;
    sigemptyset(&wanted);
    sigaddset(&wanted, SIGTERM);
    sigaddset(&wanted, SIGINT);
    sigaddset(&wanted, SIGCHLD);
    /* Blocked and taken with sigwait: no handlers, so a signal between two waits is never lost. */
    if (sigprocmask(SIG_BLOCK, &wanted, NULL) != 0) {
        perror("pause: sigprocmask");
        return 2;
    }
    puts("podnuma pause: started");
    fflush(stdout);
    for (;;) {
        int sig = 0;
        if (sigwait(&wanted, &sig) != 0) {
            continue;
        }
        if (sig == SIGCHLD) {
            while (waitpid(-1, NULL, WNOHANG) > 0) {
            }
            continue;
        }
        return 0;
    }
}
