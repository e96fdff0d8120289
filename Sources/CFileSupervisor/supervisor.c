// The file supervisor: a seccomp filter that turns every file-changing system call of the process
// into a user notification, and a thread of the same process that serves them.
//
// Why a thread of the app itself (docs/file-supervision.md): it shares the caller's memory
// and descriptor table, so it reads the call's paths directly and runs the call itself between the
// seam's decision and its record, and ending the process there ends it right after the call; no
// second process, no extra exec, no ptrace stop. Its own calls pass the filter by a cookie in the
// sixth argument, which none of the supervised calls uses.
#define _GNU_SOURCE
#include "cfilesupervisor.h"
#include <stdio.h>

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#if defined(__x86_64__)
#define CFS_ARCH AUDIT_ARCH_X86_64
#else
#define CFS_ARCH AUDIT_ARCH_AARCH64
#endif

#ifndef SECCOMP_FILTER_FLAG_TSYNC_ESRCH
#define SECCOMP_FILTER_FLAG_TSYNC_ESRCH (1UL << 4)
#endif
#ifndef SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV
#define SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (1UL << 5)
#endif

/// The sixth argument of the supervisor's own calls: the filter lets them through.
#define CFS_COOKIE 0x5afe0f11u

static cfs_decide_fn decide_fn;
static cfs_done_fn done_fn;
static atomic_int active;
static int listener = -1;

// MARK: The filter

#define LOAD_NR BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr))
#define LOAD_ARG(i) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[i]))
#define RET(action) BPF_STMT(BPF_RET | BPF_K, action)
#define NOTIFY RET(SECCOMP_RET_USER_NOTIF)
#define ALLOW RET(SECCOMP_RET_ALLOW)

// Each rule is a fixed-size block so that the jumps stay local: compare the number, skip the
// block when it differs.
#define ALWAYS(nr) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), NOTIFY
// A descriptor call: notified for descriptors 3 ..< CFS_RESERVED_FD_FLOOR (not the standard
// streams, not the runner's own channels).
#define ON_FD(nr)                                                       \
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 5), LOAD_ARG(0),       \
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 3, 0, 2),                   \
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, CFS_RESERVED_FD_FLOOR, 1, 0), NOTIFY, ALLOW
// An open: notified when its flags (argument `arg`) write, create or truncate.
#define ON_OPEN(nr, arg)                                                \
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 4), LOAD_ARG(arg),     \
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, O_WRONLY | O_RDWR | O_CREAT | O_TRUNC, 0, 1), NOTIFY, ALLOW

static struct sock_filter filter[] = {
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, CFS_ARCH, 1, 0),
    ALLOW,
    LOAD_ARG(5),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, CFS_COOKIE, 0, 1),
    ALLOW,
    LOAD_NR,
    ON_OPEN(__NR_openat, 2),
    ON_FD(__NR_write),
    LOAD_NR,
    ON_FD(__NR_pwrite64),
    LOAD_NR,
    ON_FD(__NR_writev),
    LOAD_NR,
    ON_FD(__NR_pwritev),
    LOAD_NR,
    ON_FD(__NR_ftruncate),
    LOAD_NR,
    ON_FD(__NR_fsync),
    LOAD_NR,
    ON_FD(__NR_fdatasync),
    LOAD_NR,
    ON_FD(__NR_fallocate),
    LOAD_NR,
    ON_FD(__NR_sendfile),
    LOAD_NR,
    ON_FD(__NR_sync_file_range),
    LOAD_NR,
    ALWAYS(__NR_unlinkat),
    ALWAYS(__NR_renameat),
    ALWAYS(__NR_renameat2),
    ALWAYS(__NR_mkdirat),
    ALWAYS(__NR_truncate),
    ALWAYS(__NR_linkat),
    ALWAYS(__NR_symlinkat),
#ifdef __NR_openat2
    ALWAYS(__NR_openat2),
#endif
#ifdef __NR_open
    ON_OPEN(__NR_open, 1),
    LOAD_NR,
    ALWAYS(__NR_creat),
    ALWAYS(__NR_unlink),
    ALWAYS(__NR_rename),
    ALWAYS(__NR_mkdir),
    ALWAYS(__NR_rmdir),
    ALWAYS(__NR_link),
    ALWAYS(__NR_symlink),
#endif
    ALLOW,
};

// MARK: Threads the harness vouches for

#define CFS_SLOTS 64
static _Atomic pid_t vouched[CFS_SLOTS];
static _Thread_local int vouch_depth;
static _Thread_local int vouch_slot = -1;

static pid_t current_tid(void) { return (pid_t)syscall(SYS_gettid); }

void cfs_enter_unsupervised(void) {
    if (!atomic_load(&active)) return;
    if (vouch_depth++ > 0) return;
    pid_t tid = current_tid();
    for (int i = 0; i < CFS_SLOTS; i++) {
        pid_t free = 0;
        if (atomic_compare_exchange_strong(&vouched[i], &free, tid)) {
            vouch_slot = i;
            return;
        }
    }
}

void cfs_leave_unsupervised(void) {
    if (vouch_depth == 0) return;
    if (--vouch_depth > 0) return;
    if (vouch_slot >= 0) atomic_store(&vouched[vouch_slot], 0);
    vouch_slot = -1;
}

static int is_vouched(pid_t tid) {
    for (int i = 0; i < CFS_SLOTS; i++)
        if (atomic_load(&vouched[i]) == tid) return 1;
    return 0;
}

/// Whether the calling thread is vouched for now: inside `cfs_enter_unsupervised` in a supervised
/// process, holding a slot the supervisor's `is_vouched` finds (a thread that found none is served).
static int vouched_here(void) { return vouch_slot >= 0; }

// MARK: SQLite's system calls while vouched

// SQLite's unix VFS makes its file calls through a table a process may replace
// (`xSetSystemCall`). The replacements below add the cookie only while the calling thread is vouched
// (a store operation the seam numbers itself: the keychain's database): the filter then lets the
// call through without a notification, where the supervisor would only have answered "continue"
// after a round trip. Any other SQLite call of the process (an app's own database) runs through
// SQLite's original function and is trapped as before.

enum { SQ_OPEN, SQ_WRITE, SQ_PWRITE, SQ_PWRITE64, SQ_FTRUNCATE, SQ_UNLINK, SQ_MKDIR, SQ_RMDIR, SQ_COUNT };
static cfs_syscall_fn sqlite_original[SQ_COUNT];

static long cookie_call(long nr, long a0, long a1, long a2, long a3) {
    return syscall(nr, a0, a1, a2, a3, 0L, (unsigned long)CFS_COOKIE);
}

static int sq_open(const char *path, int flags, int mode) {
    if (vouched_here()) return (int)cookie_call(__NR_openat, AT_FDCWD, (long)path, flags, mode);
    return ((int (*)(const char *, int, int))sqlite_original[SQ_OPEN])(path, flags, mode);
}

static ssize_t sq_write(int fd, const void *bytes, size_t count) {
    if (vouched_here()) return cookie_call(__NR_write, fd, (long)bytes, (long)count, 0);
    return ((ssize_t (*)(int, const void *, size_t))sqlite_original[SQ_WRITE])(fd, bytes, count);
}

static ssize_t sq_pwrite(int fd, const void *bytes, size_t count, off_t offset) {
    if (vouched_here()) return cookie_call(__NR_pwrite64, fd, (long)bytes, (long)count, (long)offset);
    return ((ssize_t (*)(int, const void *, size_t, off_t))sqlite_original[SQ_PWRITE])(fd, bytes, count, offset);
}

static ssize_t sq_pwrite64(int fd, const void *bytes, size_t count, off_t offset) {
    if (vouched_here()) return cookie_call(__NR_pwrite64, fd, (long)bytes, (long)count, (long)offset);
    return ((ssize_t (*)(int, const void *, size_t, off_t))sqlite_original[SQ_PWRITE64])(fd, bytes, count, offset);
}

static int sq_ftruncate(int fd, off_t length) {
    if (vouched_here()) return (int)cookie_call(__NR_ftruncate, fd, (long)length, 0, 0);
    return ((int (*)(int, off_t))sqlite_original[SQ_FTRUNCATE])(fd, length);
}

static int sq_unlink(const char *path) {
    if (vouched_here()) return (int)cookie_call(__NR_unlinkat, AT_FDCWD, (long)path, 0, 0);
    return ((int (*)(const char *))sqlite_original[SQ_UNLINK])(path);
}

static int sq_mkdir(const char *path, mode_t mode) {
    if (vouched_here()) return (int)cookie_call(__NR_mkdirat, AT_FDCWD, (long)path, (long)mode, 0);
    return ((int (*)(const char *, mode_t))sqlite_original[SQ_MKDIR])(path, mode);
}

static int sq_rmdir(const char *path) {
    if (vouched_here()) return (int)cookie_call(__NR_unlinkat, AT_FDCWD, (long)path, AT_REMOVEDIR, 0);
    return ((int (*)(const char *))sqlite_original[SQ_RMDIR])(path);
}

cfs_syscall_fn cfs_sqlite_syscall(const char *name, cfs_syscall_fn original) {
    static const struct {
        const char *name;
        int slot;
        cfs_syscall_fn replacement;
    } table[] = {
        {"open", SQ_OPEN, (cfs_syscall_fn)sq_open},
        {"write", SQ_WRITE, (cfs_syscall_fn)sq_write},
        {"pwrite", SQ_PWRITE, (cfs_syscall_fn)sq_pwrite},
        {"pwrite64", SQ_PWRITE64, (cfs_syscall_fn)sq_pwrite64},
        {"ftruncate", SQ_FTRUNCATE, (cfs_syscall_fn)sq_ftruncate},
        {"unlink", SQ_UNLINK, (cfs_syscall_fn)sq_unlink},
        {"mkdir", SQ_MKDIR, (cfs_syscall_fn)sq_mkdir},
        {"rmdir", SQ_RMDIR, (cfs_syscall_fn)sq_rmdir},
    };
    if (name == NULL || original == NULL) return NULL;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (strcmp(table[i].name, name) != 0) continue;
        // Installed once; a second call (the same table again) keeps the first original.
        if (original == table[i].replacement) return NULL;
        sqlite_original[table[i].slot] = original;
        return table[i].replacement;
    }
    return NULL;
}

// MARK: Serving one call

/// The supervisor's own call: through the filter by the cookie.
static long own_call(long nr, unsigned long long *a) {
    return syscall(nr, a[0], a[1], a[2], a[3], a[4], (unsigned long)CFS_COOKIE);
}

/// Whether the descriptor is a regular file or a folder (what the seam numbers).
static int is_file_descriptor(int fd) {
    struct stat s;
    if (fstat(fd, &s) != 0) return 0;
    return S_ISREG(s.st_mode) || S_ISDIR(s.st_mode);
}

static int descriptor_path(int fd, char *out, size_t size) {
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, out, size - 1);
    if (n < 0) return -1;
    out[n] = 0;
    return 0;
}

/// The absolute path of `path` relative to `dirfd`, as the caller's call would resolve it.
static int resolve(int dirfd, const char *path, char *out, size_t size) {
    if (path == NULL) return -1;
    if (path[0] == '/') {
        snprintf(out, size, "%s", path);
        return 0;
    }
    char base[PATH_MAX];
    if (dirfd == AT_FDCWD) {
        if (getcwd(base, sizeof base) == NULL) return -1;
    } else if (descriptor_path(dirfd, base, sizeof base) != 0) {
        return -1;
    }
    snprintf(out, size, "%s/%s", base, path);
    return 0;
}

/// What `path` names now: 0 nothing, 1 a regular file, 2 a folder, 3 something else (a device
/// such as /dev/null, a FIFO, a socket: opened or written, it changes no stored data).
static int path_kind(const char *path) {
    struct stat s;
    if (stat(path, &s) != 0) return 0;
    return S_ISREG(s.st_mode) ? 1 : S_ISDIR(s.st_mode) ? 2 : 3;
}

#define WRITE_FLAGS (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC)

/// An open of `flags`: a write open, or `CFS_READ`.
static void describe_open(cfs_call *call, int flags) {
    call->flags = flags;
    call->kind = (flags & WRITE_FLAGS) ? CFS_OPEN : CFS_READ;
}

/// Fills `call` from the notification; returns 0 when it is a call the seam numbers, -1 when it
/// changes no stored file (a pipe, a device) and runs as the caller made it.
static int describe(const struct seccomp_notif *req, cfs_call *call, char *p1, char *p2) {
    const unsigned long long *a = req->data.args;
    long nr = req->data.nr;
    memset(call, 0, sizeof *call);
    call->tid = req->pid;
    call->path = p1;
    if (nr == __NR_write || nr == __NR_pwrite64 || nr == __NR_writev || nr == __NR_pwritev || nr == __NR_fallocate ||
        nr == __NR_sendfile || nr == __NR_ftruncate || nr == __NR_fsync || nr == __NR_fdatasync || nr == __NR_sync_file_range) {
        int fd = (int)a[0];
        if (!is_file_descriptor(fd) || descriptor_path(fd, p1, PATH_MAX) != 0) return -1;
        if (nr == __NR_ftruncate) {
            call->kind = CFS_TRUNCATE;
            call->length = (long)a[1];
        } else if (nr == __NR_fsync || nr == __NR_fdatasync || nr == __NR_sync_file_range) {
            call->kind = CFS_SYNC;
            if (nr == __NR_sync_file_range) call->flags = CFS_SYNC_RANGE;
        } else {
            call->kind = CFS_WRITE;
        }
        if (nr == __NR_write || nr == __NR_pwrite64) call->requested = (long)a[2];
        if (nr == __NR_sendfile) call->requested = (long)a[3];
        if (nr == __NR_writev || nr == __NR_pwritev) {
            const struct iovec *v = (const struct iovec *)a[1];
            for (int i = 0; i < (int)a[2]; i++) call->requested += (long)v[i].iov_len;
        }
        return 0;
    }
    int ok = -1;
    if (nr == __NR_openat) {
        describe_open(call, (int)a[2]);
        ok = resolve((int)a[0], (const char *)a[1], p1, PATH_MAX);
#ifdef __NR_openat2
    } else if (nr == __NR_openat2) {
        describe_open(call, (int)((const struct open_how *)a[2])->flags);
        ok = resolve((int)a[0], (const char *)a[1], p1, PATH_MAX);
#endif
    } else if (nr == __NR_unlinkat) {
        call->kind = (a[2] & AT_REMOVEDIR) ? CFS_RMDIR : CFS_UNLINK;
        ok = resolve((int)a[0], (const char *)a[1], p1, PATH_MAX);
    } else if (nr == __NR_renameat || nr == __NR_renameat2 || nr == __NR_linkat) {
        call->kind = nr == __NR_linkat ? CFS_LINK : CFS_RENAME;
        call->path2 = p2;
        ok = resolve((int)a[0], (const char *)a[1], p1, PATH_MAX) | resolve((int)a[2], (const char *)a[3], p2, PATH_MAX);
    } else if (nr == __NR_symlinkat) {
        call->kind = CFS_LINK;
        ok = resolve((int)a[1], (const char *)a[2], p1, PATH_MAX);
    } else if (nr == __NR_mkdirat) {
        call->kind = CFS_MKDIR;
        ok = resolve((int)a[0], (const char *)a[1], p1, PATH_MAX);
    } else if (nr == __NR_truncate) {
        call->kind = CFS_TRUNCATE;
        call->length = (long)a[1];
        ok = resolve(AT_FDCWD, (const char *)a[0], p1, PATH_MAX);
#ifdef __NR_open
    } else if (nr == __NR_open || nr == __NR_creat) {
        describe_open(call, nr == __NR_creat ? (O_CREAT | O_WRONLY | O_TRUNC) : (int)a[1]);
        ok = resolve(AT_FDCWD, (const char *)a[0], p1, PATH_MAX);
    } else if (nr == __NR_unlink || nr == __NR_rmdir) {
        call->kind = nr == __NR_rmdir ? CFS_RMDIR : CFS_UNLINK;
        ok = resolve(AT_FDCWD, (const char *)a[0], p1, PATH_MAX);
    } else if (nr == __NR_rename || nr == __NR_link) {
        call->kind = nr == __NR_link ? CFS_LINK : CFS_RENAME;
        call->path2 = p2;
        ok = resolve(AT_FDCWD, (const char *)a[0], p1, PATH_MAX) | resolve(AT_FDCWD, (const char *)a[1], p2, PATH_MAX);
    } else if (nr == __NR_mkdir) {
        call->kind = CFS_MKDIR;
        ok = resolve(AT_FDCWD, (const char *)a[0], p1, PATH_MAX);
    } else if (nr == __NR_symlink) {
        call->kind = CFS_LINK;
        ok = resolve(AT_FDCWD, (const char *)a[1], p1, PATH_MAX);
#endif
    }
    if (ok != 0) return -1;
    if (call->kind == CFS_OPEN || call->kind == CFS_READ) {
        int kind = path_kind(p1);
        if (kind == 3) return -1;
        call->existed = kind == 0 ? 0 : kind == 1 ? 1 : 2;
    }
    return 0;
}

/// The folder of `path` (an absolute path) into `out`.
static void parent_of(const char *path, char *out, size_t size) {
    snprintf(out, size, "%s", path);
    size_t n = strlen(out);
    while (n > 1 && out[n - 1] == '/') out[--n] = 0;
    char *slash = strrchr(out, '/');
    if (slash == out) out[1] = 0;
    else if (slash != NULL) *slash = 0;
}

/// A file or folder the call just created takes its folder's data protection class, as on iOS.
static void inherit_protection(const cfs_call *call, long result) {
    int created_file = call->kind == CFS_OPEN && (call->flags & O_CREAT) && call->existed == 0 && result >= 0;
    int created_folder = call->kind == CFS_MKDIR && result == 0;
    if (!created_file && !created_folder) return;
    char parent[PATH_MAX], value[128];
    parent_of(call->path, parent, sizeof parent);
    if (cfs_protection_get(parent, value, sizeof value) < 0) return;
    cfs_protection_set(call->path, created_file ? (int)result : -1, value);
}

static void respond_continue(__u64 id) {
    struct seccomp_notif_resp resp = {.id = id, .flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE};
    ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
}

static void serve(const struct seccomp_notif *req) {
    // A child of the process (iOS apps start none) inherits the filter; its calls are its own.
    if (syscall(SYS_tgkill, getpid(), req->pid, 0) != 0) {
        respond_continue(req->id);
        return;
    }
    static char p1[PATH_MAX], p2[PATH_MAX];
    cfs_call call;
    if (describe(req, &call, p1, p2) != 0 || is_vouched(req->pid)) {
        respond_continue(req->id);
        return;
    }
    int error = 0;
    cfs_decision decision = decide_fn(&call, &error);
    if (decision == CFS_UNSUPERVISED) {
        respond_continue(req->id);
        return;
    }
    struct seccomp_notif_resp resp = {.id = req->id};
    long result = 0;
    if (decision == CFS_PROCEED) {
        unsigned long long args[6];
        memcpy(args, req->data.args, sizeof args);
        result = own_call(req->data.nr, args);
        error = result < 0 ? errno : 0;
        inherit_protection(&call, result);
    } else if (decision == CFS_PRETEND) {
        result = call.kind == CFS_WRITE ? call.requested : 0;
        error = 0;
    } else {
        // CFS_FAIL (a fault) or CFS_REFUSE (the system's refusal).
        result = -1;
        if (error == 0) error = EIO;
    }
    done_fn(&call, decision, result, error);
    if (error != 0) resp.error = -error;
    else resp.val = result;
    ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
}

static atomic_long notifications;

static void *supervise(void *unused) {
    (void)unused;
    struct seccomp_notif req;
    for (;;) {
        memset(&req, 0, sizeof req);
        if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req) != 0) {
            if (errno == EINTR || errno == ENOENT) continue;
            return NULL;
        }
        atomic_fetch_add_explicit(&notifications, 1, memory_order_relaxed);
        serve(&req);
    }
}

// MARK: Starting

int cfs_start(cfs_decide_fn decide, cfs_done_fn done, int watch_reads, char *reason, size_t reason_size) {
    if (atomic_load(&active)) return 0;
    decide_fn = decide;
    done_fn = done;
    if (watch_reads) {
        // Every open notifies: the open rules' flag test falls through to NOTIFY either way.
        for (size_t i = 0; i < sizeof filter / sizeof filter[0]; i++)
            if (filter[i].code == (BPF_JMP | BPF_JSET | BPF_K) && filter[i].k == WRITE_FLAGS) filter[i].jf = 0;
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        snprintf(reason, reason_size, "prctl(PR_SET_NO_NEW_PRIVS): %s", strerror(errno));
        return -1;
    }
    struct sock_fprog program = {.len = sizeof filter / sizeof filter[0], .filter = filter};
    unsigned long flags = SECCOMP_FILTER_FLAG_NEW_LISTENER | SECCOMP_FILTER_FLAG_TSYNC |
                          SECCOMP_FILTER_FLAG_TSYNC_ESRCH | SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV;
    int fd = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &program);
    if (fd < 0 && errno == EINVAL) {
        // Before Linux 5.19: no killable wait. A signal during a served call could then run it twice.
        flags &= ~(unsigned long)SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV;
        fd = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &program);
    }
    if (fd < 0) {
        snprintf(reason, reason_size, "seccomp(SECCOMP_SET_MODE_FILTER, NEW_LISTENER): %s", strerror(errno));
        return -1;
    }
    listener = fd;
    pthread_t thread;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attributes, 256 * 1024);
    int failure = pthread_create(&thread, &attributes, supervise, NULL);
    pthread_attr_destroy(&attributes);
    if (failure != 0) {
        // Nothing serves the filter: every supervised call would wait for ever. End the process.
        char line[160];
        int n = snprintf(line, sizeof line, "file supervisor: pthread_create: %s\n", strerror(failure));
        (void)!write(2, line, (size_t)n);
        _exit(3);
    }
    atomic_store(&active, 1);
    return 0;
}

int cfs_active(void) { return atomic_load(&active); }

long cfs_notifications(void) { return atomic_load_explicit(&notifications, memory_order_relaxed); }

int cfs_reserve_fd(int fd) {
    int moved = fcntl(fd, F_DUPFD_CLOEXEC, CFS_RESERVED_FD_FLOOR);
    if (moved < 0) return fd;
    close(fd);
    return moved;
}

long cfs_read_own(const char *path, char *out, size_t size) {
    unsigned long long args[6] = {(unsigned long long)AT_FDCWD, (unsigned long long)(uintptr_t)path,
                                  (unsigned long long)(O_RDONLY | O_CLOEXEC), 0, 0, 0};
    long fd = own_call(__NR_openat, args);
    if (fd < 0) return -1;
    ssize_t n = read((int)fd, out, size - 1);
    int saved = errno;
    close((int)fd);
    if (n < 0) {
        errno = saved;
        return -1;
    }
    out[n] = 0;
    return n;
}

long cfs_read_file_own(const char *path, unsigned char **out) {
    *out = NULL;
    unsigned long long args[6] = {(unsigned long long)AT_FDCWD, (unsigned long long)(uintptr_t)path,
                                  (unsigned long long)(O_RDONLY | O_CLOEXEC), 0, 0, 0};
    long fd = own_call(__NR_openat, args);
    if (fd < 0) return -1;
    size_t capacity = 0, length = 0;
    unsigned char *buffer = NULL;
    for (;;) {
        if (length == capacity) {
            capacity = capacity == 0 ? 4096 : capacity * 2;
            unsigned char *grown = realloc(buffer, capacity);
            if (grown == NULL) {
                free(buffer);
                close((int)fd);
                errno = ENOMEM;
                return -1;
            }
            buffer = grown;
        }
        ssize_t n = read((int)fd, buffer + length, capacity - length);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            int saved = errno;
            free(buffer);
            close((int)fd);
            errno = saved;
            return -1;
        }
        if (n == 0) break;
        length += (size_t)n;
    }
    close((int)fd);
    if (length == 0) {
        free(buffer);
        buffer = NULL;
    }
    *out = buffer;
    return (long)length;
}

/// Writes all `count` bytes to `fd` with the supervisor's own calls; 0 or an errno. `fd` stays open.
static int write_all_own(long fd, const void *bytes, size_t count) {
    size_t done = 0;
    while (done < count) {
        unsigned long long write_args[6] = {(unsigned long long)fd, (unsigned long long)(uintptr_t)((const char *)bytes + done),
                                            (unsigned long long)(count - done), 0, 0, 0};
        long n = own_call(__NR_write, write_args);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return errno;
        done += (size_t)n;
    }
    return 0;
}

/// Opens `path` with `flags` (and O_WRONLY | O_CREAT | O_CLOEXEC, mode 0644), writes all `count`
/// bytes and closes it, with the supervisor's own calls; 0 or an errno.
static int write_new_own(const char *path, int flags, const void *bytes, size_t count) {
    unsigned long long open_args[6] = {(unsigned long long)AT_FDCWD, (unsigned long long)(uintptr_t)path,
                                       (unsigned long long)(O_WRONLY | O_CREAT | O_CLOEXEC | flags), 0644, 0, 0};
    long fd = own_call(__NR_openat, open_args);
    if (fd < 0) return errno;
    int failure = write_all_own(fd, bytes, count);
    if (close((int)fd) != 0 && failure == 0) failure = errno;
    return failure;
}

int cfs_write_file_own(const char *path, const void *bytes, size_t count) {
    return write_new_own(path, O_TRUNC, bytes, count);
}

int cfs_write_file_atomic_own(const char *path, const void *bytes, size_t count) {
    char temporary[PATH_MAX];
    unsigned int nonce = 0;
    if (getrandom(&nonce, sizeof nonce, 0) != (ssize_t)sizeof nonce) nonce = (unsigned int)(uintptr_t)&nonce;
    if (snprintf(temporary, sizeof temporary, "%s.tmp-%d-%u", path, (int)getpid(), nonce) >= (int)sizeof temporary)
        return ENAMETOOLONG;
    int failure = write_new_own(temporary, O_EXCL, bytes, count);
    if (failure == EEXIST) return failure;
    if (failure == 0) {
        unsigned long long rename_args[6] = {(unsigned long long)AT_FDCWD, (unsigned long long)(uintptr_t)temporary,
                                             (unsigned long long)AT_FDCWD, (unsigned long long)(uintptr_t)path, 0, 0};
        if (own_call(__NR_renameat2, rename_args) != 0) failure = errno;
    }
    if (failure != 0) cfs_unlink_own(temporary);
    return failure;
}

int cfs_unlink_own(const char *path) {
    unsigned long long args[6] = {(unsigned long long)AT_FDCWD, (unsigned long long)(uintptr_t)path, 0, 0, 0, 0};
    return own_call(__NR_unlinkat, args) == 0 ? 0 : errno;
}

long cfs_protection_get(const char *path, char *out, size_t size) {
    ssize_t n = getxattr(path, CFS_PROTECTION_XATTR, out, size - 1);
    if (n < 0) return -1;
    out[n] = 0;
    return n;
}

int cfs_protection_set(const char *path, int fd, const char *value) {
    int status;
    if (value == NULL) {
        status = fd >= 0 ? fremovexattr(fd, CFS_PROTECTION_XATTR) : removexattr(path, CFS_PROTECTION_XATTR);
        if (status != 0 && errno == ENODATA) return 0;
    } else if (fd >= 0) {
        status = fsetxattr(fd, CFS_PROTECTION_XATTR, value, strlen(value), 0);
    } else {
        status = setxattr(path, CFS_PROTECTION_XATTR, value, strlen(value), 0);
    }
    return status == 0 ? 0 : errno;
}

int cfs_xattr_present(const char *path, const char *name) {
    if (getxattr(path, name, NULL, 0) >= 0) return 1;
    return errno == ENODATA ? 0 : -1;
}

int cfs_xattr_flag_set(const char *path, const char *name, int on) {
    if (on) {
        const unsigned char one = 1;
        return setxattr(path, name, &one, 1, 0) == 0 ? 0 : errno;
    }
    if (removexattr(path, name) == 0 || errno == ENODATA) return 0;
    return errno;
}

#else

long cfs_read_file_own(const char *path, unsigned char **out) {
    (void)path;
    *out = NULL;
    return -1;
}
int cfs_write_file_own(const char *path, const void *bytes, size_t count) {
    (void)path;
    (void)bytes;
    (void)count;
    return 95;  // EOPNOTSUPP
}
int cfs_unlink_own(const char *path) {
    (void)path;
    return 95;
}
int cfs_write_file_atomic_own(const char *path, const void *bytes, size_t count) {
    (void)path;
    (void)bytes;
    (void)count;
    return 95;
}

long cfs_read_own(const char *path, char *out, size_t size) {
    (void)path;
    (void)out;
    (void)size;
    return -1;
}
long cfs_protection_get(const char *path, char *out, size_t size) {
    (void)path;
    (void)out;
    (void)size;
    return -1;
}
int cfs_protection_set(const char *path, int fd, const char *value) {
    (void)path;
    (void)fd;
    (void)value;
    return 95;  // EOPNOTSUPP
}
int cfs_xattr_present(const char *path, const char *name) {
    (void)path;
    (void)name;
    return -1;
}
int cfs_xattr_flag_set(const char *path, const char *name, int on) {
    (void)path;
    (void)name;
    (void)on;
    return 95;  // EOPNOTSUPP
}

int cfs_start(cfs_decide_fn decide, cfs_done_fn done, int watch_reads, char *reason, size_t reason_size) {
    (void)decide;
    (void)done;
    (void)watch_reads;
    snprintf(reason, reason_size, "file supervision needs Linux on x86_64 or arm64");
    return -1;
}
int cfs_active(void) { return 0; }
long cfs_notifications(void) { return 0; }
cfs_syscall_fn cfs_sqlite_syscall(const char *name, cfs_syscall_fn original) {
    (void)name;
    (void)original;
    return NULL;
}
void cfs_enter_unsupervised(void) {}
void cfs_leave_unsupervised(void) {}
int cfs_reserve_fd(int fd) { return fd; }

#endif
