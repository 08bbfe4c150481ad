/*
 * podnuma's pause: the process that holds a pod sandbox's namespaces. It does nothing until it is told to stop.
 * As PID 1 of the sandbox it also reaps orphans, so exited children do not stay as zombies in the pod.
 * Exit status: 0 on SIGTERM or SIGINT (the runtime's normal stop), 2 if the signal mask cannot be set.
 */
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>

int main(void) {
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
