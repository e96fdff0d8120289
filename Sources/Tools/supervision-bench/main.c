// What supervising a file-changing system call costs, per call, three ways side by side:
//   none    the calls unsupervised (the floor)
//   notify  the file supervisor the app builds use (CFileSupervisor: a seccomp user notification
//           served by a thread of the same process, which runs the call itself)
//   trace   the alternative: a parent process stops the child at each call with ptrace
//           (SECCOMP_RET_TRACE), the way strace-like supervisors work
// Usage: supervision-bench MODE ITERATIONS FOLDER. Each iteration makes 6 supervised calls (open
// for writing, 2 writes, fsync, rename, unlink) and 3 that are not (open for reading, read, close).
// Prints microseconds of wall and CPU time per iteration (CPU of the whole process, children too).
#define _GNU_SOURCE
#include "cfilesupervisor.h"
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long reported;

static cfs_decision decide(const cfs_call *call, int *error) {
    (void)call;
    (void)error;
    return CFS_PROCEED;
}

static void done(const cfs_call *call, cfs_decision decision, long result, int error) {
    (void)call;
    (void)decision;
    (void)result;
    (void)error;
    reported++;
}

static void workload(int iterations, const char *folder) {
    char a[512], b[512], buffer[100];
    memset(buffer, 'x', sizeof buffer);
    snprintf(a, sizeof a, "%s/a", folder);
    snprintf(b, sizeof b, "%s/b", folder);
    for (int i = 0; i < iterations; i++) {
        int fd = open(a, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        (void)!write(fd, buffer, sizeof buffer);
        (void)!write(fd, buffer, sizeof buffer);
        fsync(fd);
        close(fd);
        rename(a, b);
        unlink(b);
        int r = open("/proc/self/stat", O_RDONLY);
        (void)!read(r, buffer, 10);
        close(r);
    }
}

/// Stops the caller at each call the filter names (only the x86_64 numbers: the comparison is
/// measured on this machine's architecture).
static void trace_calls(void) {
#if defined(__x86_64__)
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_openat, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[2])),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, O_WRONLY | O_RDWR | O_CREAT | O_TRUNC, 0, 6),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_write, 3, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_fsync, 2, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_rename, 1, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_unlink, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog program = {.len = sizeof filter / sizeof filter[0], .filter = filter};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program) != 0) {
        perror("supervision-bench: seccomp");
        _exit(3);
    }
#else
    fprintf(stderr, "supervision-bench: trace is measured on x86_64 only\n");
    _exit(2);
#endif
}

static double seconds(struct timeval t) { return (double)t.tv_sec + (double)t.tv_usec / 1e6; }

int main(int argc, char **argv) {
    if (argc != 4 || atoi(argv[2]) <= 0) {
        fprintf(stderr, "usage: supervision-bench none|notify|trace ITERATIONS FOLDER\n");
        return 2;
    }
    const char *mode = argv[1];
    int iterations = atoi(argv[2]);
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    if (strcmp(mode, "none") == 0) {
        workload(iterations, argv[3]);
    } else if (strcmp(mode, "notify") == 0) {
        char reason[256];
        if (cfs_start(decide, done, 0, reason, sizeof reason) != 0) {
            fprintf(stderr, "supervision-bench: %s\n", reason);
            return 3;
        }
        workload(iterations, argv[3]);
    } else if (strcmp(mode, "trace") == 0) {
        pid_t child = fork();
        if (child == 0) {
            ptrace(PTRACE_TRACEME, 0, 0, 0);
            raise(SIGSTOP);
            trace_calls();
            workload(iterations, argv[3]);
            _exit(0);
        }
        int status;
        waitpid(child, &status, 0);
        ptrace(PTRACE_SETOPTIONS, child, 0, PTRACE_O_TRACESECCOMP | PTRACE_O_EXITKILL);
        ptrace(PTRACE_CONT, child, 0, 0);
        for (;;) {
            waitpid(child, &status, 0);
            if (WIFEXITED(status) || WIFSIGNALED(status)) break;
            if (status >> 8 == (SIGTRAP | (PTRACE_EVENT_SECCOMP << 8))) reported++;
            ptrace(PTRACE_CONT, child, 0, 0);
        }
    } else {
        fprintf(stderr, "supervision-bench: unknown mode %s (none, notify or trace)\n", mode);
        return 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    struct rusage self, children;
    getrusage(RUSAGE_SELF, &self);
    getrusage(RUSAGE_CHILDREN, &children);
    double cpu = seconds(self.ru_utime) + seconds(self.ru_stime) + seconds(children.ru_utime) + seconds(children.ru_stime);
    double wall = (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9;
    printf("%-6s %d iterations: %.1f us wall, %.1f us CPU an iteration (6 supervised calls); %ld calls seen\n", mode,
           iterations, wall / iterations * 1e6, cpu / iterations * 1e6, reported);
    return 0;
}
