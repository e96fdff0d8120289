#ifndef CFILESUPERVISOR_H
#define CFILESUPERVISOR_H
#include <stddef.h>
#include <sys/types.h>

/// The file-changing system calls a supervised process makes, in the families the seam numbers.
typedef enum {
    CFS_OPEN = 1,      // open/openat/creat for writing, creating or truncating
    CFS_WRITE = 2,     // write, pwrite, writev, pwritev, fallocate, sendfile (FileManager's copy)
    CFS_RENAME = 3,    // rename, renameat, renameat2
    CFS_UNLINK = 4,    // unlink, unlinkat without AT_REMOVEDIR
    CFS_MKDIR = 5,     // mkdir, mkdirat
    CFS_RMDIR = 6,     // rmdir, unlinkat with AT_REMOVEDIR
    CFS_TRUNCATE = 7,  // truncate, ftruncate
    CFS_SYNC = 8,      // fsync, fdatasync, sync_file_range
    CFS_LINK = 9,      // link, linkat, symlink, symlinkat
} cfs_kind;

/// One intercepted call, as the supervisor thread sees it before running it. The paths are
/// absolute, taken from the calling process's own memory and descriptor table; `path2` is the
/// destination of a rename or link. A call on a descriptor that is not a regular file or folder
/// (a pipe, a socket, a terminal) is never reported.
typedef struct {
    cfs_kind kind;
    const char *path;
    const char *path2;
    /// The calling thread.
    pid_t tid;
    /// The byte count a write asked for (what a lost write answers), else 0.
    long requested;
} cfs_call;

/// What the decide callback answers.
typedef enum {
    CFS_PROCEED = 0,      // run the call
    CFS_FAIL = 1,         // answer -1 with the errno the callback set, change nothing
    CFS_PRETEND = 2,      // answer success without running it (a lost write)
    CFS_UNSUPERVISED = 3, // run the call and report nothing (the harness's own files)
} cfs_decision;

/// Called on the supervisor thread before the call runs. Must not write to a descriptor below
/// `CFS_RESERVED_FD_FLOOR` nor change files: the supervisor thread is itself under the filter.
typedef cfs_decision (*cfs_decide_fn)(const cfs_call *call, int *error);
/// Called on the supervisor thread after the call ran (or was answered), before the caller
/// resumes: ending the process here ends it right after the call.
typedef void (*cfs_done_fn)(const cfs_call *call, cfs_decision decision, long result, int error);

/// Descriptors at or above this number are the runner's own channels (the mutation log): writes to
/// them are never intercepted. `cfs_reserve_fd` moves a descriptor there.
#define CFS_RESERVED_FD_FLOOR 900

/// Starts supervising every thread of this process: installs a seccomp filter whose
/// user notifications a supervisor thread of this process serves, running each intercepted call
/// itself (same address space, same descriptors) between `decide` and `done`.
/// Returns 0, or -1 with a one-line reason in `reason` (the kernel refused, no thread).
int cfs_start(cfs_decide_fn decide, cfs_done_fn done, char *reason, size_t reason_size);

/// Whether `cfs_start` succeeded in this process.
int cfs_active(void);

/// Marks the calling thread as inside an operation the seam already numbers (the harness's own
/// store API), or as writing the harness's own files: its calls run unreported until `cfs_leave`.
/// Nests. No effect when supervision is not active.
void cfs_enter_unsupervised(void);
void cfs_leave_unsupervised(void);

/// Moves `fd` to a descriptor at or above `CFS_RESERVED_FD_FLOOR` (close-on-exec) and closes the
/// original; returns the new descriptor, or `fd` unchanged when it cannot be moved.
int cfs_reserve_fd(int fd);

#endif
