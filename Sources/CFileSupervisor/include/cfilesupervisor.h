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
    CFS_READ = 10,     // an open that only reads: seen only when `cfs_start` watches reads
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
    /// An open's flags (`O_CREAT`, `O_TRUNC`, ...); for `CFS_SYNC`, `CFS_SYNC_RANGE` when the call
    /// is `sync_file_range` (which makes nothing durable); else 0.
    int flags;
    /// The length a truncate asks for, else 0.
    long length;
    /// What `path` named before the call: 0 nothing, 1 a regular file, 2 something else.
    int existed;
} cfs_call;

/// `cfs_call.flags` of a `sync_file_range`: it starts write-back of a range, but unlike fsync and
/// fdatasync it neither waits for the file's metadata nor flushes the disk's cache.
#define CFS_SYNC_RANGE 1

/// What the decide callback answers.
typedef enum {
    CFS_PROCEED = 0,      // run the call
    CFS_FAIL = 1,         // answer -1 with the errno the callback set, change nothing
    CFS_PRETEND = 2,      // answer success without running it (a lost write)
    CFS_UNSUPERVISED = 3, // run the call and report nothing (the harness's own files)
    CFS_REFUSE = 4,       // answer -1 with the errno the callback set, change nothing: refused as
                          // the system refuses it (data protection), not injected by a fault plan
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

/// The extended attribute that holds a file's or folder's data protection class
/// (`NSFileProtectionComplete`, ...), as iOS keeps the class in the file's metadata. A file or
/// folder without it has the default class. It follows the file through renames and links.
#define CFS_PROTECTION_XATTR "user.upgrade-runner.protection-class"

/// Starts supervising every thread of this process: installs a seccomp filter whose
/// user notifications a supervisor thread of this process serves, running each intercepted call
/// itself (same address space, same descriptors) between `decide` and `done`.
/// With `watch_reads`, opens that only read are notified too (kind `CFS_READ`), for a launch whose
/// data protection classes can refuse a read.
/// A file or folder a served call creates takes its folder's `CFS_PROTECTION_XATTR`, as an iOS
/// file takes its folder's data protection class.
/// Returns 0, or -1 with a one-line reason in `reason` (the kernel refused, no thread).
int cfs_start(cfs_decide_fn decide, cfs_done_fn done, int watch_reads, char *reason, size_t reason_size);

/// Whether `cfs_start` succeeded in this process.
int cfs_active(void);

/// How many notifications the supervisor thread has received so far (each a round trip of a trapped
/// call to that thread): for tests and measurements of what the filter traps.
long cfs_notifications(void);

/// Marks the calling thread as inside an operation the seam already numbers (the harness's own
/// store API), or as writing the harness's own files: its calls run unreported until `cfs_leave`.
/// Nests. No effect when supervision is not active.
void cfs_enter_unsupervised(void);
void cfs_leave_unsupervised(void);

/// A function of SQLite's unix VFS system-call table (`sqlite3_syscall_ptr`).
typedef void (*cfs_syscall_fn)(void);

/// The replacement for SQLite's system call `name` ("open", "write", "pwrite", "pwrite64",
/// "ftruncate", "unlink", "mkdir", "rmdir"), whose current function is `original`; NULL for any
/// other name (the call stays SQLite's). A replacement adds the filter's cookie only while the calling
/// thread is vouched for (`cfs_enter_unsupervised`), so that a store operation's own database calls
/// pass the filter without a notification the supervisor would answer "continue"; otherwise it
/// calls `original`, and the call is trapped as before. For `sqlite3_vfs.xSetSystemCall`, once,
/// before the process opens a database.
cfs_syscall_fn cfs_sqlite_syscall(const char *name, cfs_syscall_fn original);

/// Moves `fd` to a descriptor at or above `CFS_RESERVED_FD_FLOOR` (close-on-exec) and closes the
/// original; returns the new descriptor, or `fd` unchanged when it cannot be moved.
int cfs_reserve_fd(int fd);

/// Reads up to `size - 1` bytes of the file at `path` into `out` (NUL-terminated) with calls the
/// filter lets through: for the supervisor thread, whose own watched opens would wait for itself.
/// Returns the byte count, or -1 with `errno`.
long cfs_read_own(const char *path, char *out, size_t size);

/// The whole content of the file at `path`, read with calls the filter lets through, into a buffer
/// `*out` the caller frees (NULL for an empty file). Returns the byte count, or -1 with `errno`.
long cfs_read_file_own(const char *path, unsigned char **out);

/// Replaces the content of the file at `path` (created when missing, its metadata kept when not)
/// with `count` bytes, with calls the filter lets through. Returns 0 or an errno.
int cfs_write_file_own(const char *path, const void *bytes, size_t count);

/// Replaces the file at `path` atomically with `count` bytes (a temporary file beside it, mode 0644,
/// renamed over it; no sync), with calls the filter lets through: FileUtility's `AtomicFile.write`
/// for the harness's own files. Returns 0 or an errno.
int cfs_write_file_atomic_own(const char *path, const void *bytes, size_t count);

/// Removes the file at `path` with a call the filter lets through. Returns 0 or an errno.
int cfs_unlink_own(const char *path);

/// The `CFS_PROTECTION_XATTR` of `path` into `out` (NUL-terminated); its length, or -1 when it has
/// none (or the file system keeps no extended attributes).
long cfs_protection_get(const char *path, char *out, size_t size);

/// Sets the `CFS_PROTECTION_XATTR` of the open file `fd` (when `fd` >= 0) or of `path`; a NULL
/// `value` removes it. Returns 0 or an errno.
int cfs_protection_set(const char *path, int fd, const char *value);

/// Whether `path` carries the extended attribute `name` (1), not (0), or cannot be asked (-1).
int cfs_xattr_present(const char *path, const char *name);

/// Sets the extended attribute `name` of `path` to one byte (`on` != 0) or removes it. Returns 0 or an errno.
int cfs_xattr_flag_set(const char *path, const char *name, int on);

#endif
