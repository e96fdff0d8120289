#define _GNU_SOURCE
#include "claunch.h"
#include <errno.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

int claunch_die_with_parent(int signal, pid_t expected_parent) {
#if defined(__linux__)
    if (prctl(PR_SET_PDEATHSIG, signal, 0, 0, 0) != 0) return -1;
#else
    (void)signal;
#endif
    return getppid() == expected_parent ? 0 : -1;
}

#if defined(__linux__)
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>

// Landlock's ABI, spelled here: the toolchain's headers may predate the rights a kernel has.
struct claunch_landlock_ruleset_attr { uint64_t handled_access_fs; };
struct claunch_landlock_path_beneath_attr { uint64_t allowed_access; int32_t parent_fd; } __attribute__((packed));
#define CLAUNCH_LANDLOCK_CREATE_RULESET_VERSION (1U << 0)
#define CLAUNCH_LANDLOCK_RULE_PATH_BENEATH 1
#define CLAUNCH_FS_WRITE_FILE (1ULL << 1)
#define CLAUNCH_FS_ABI1_WRITES (CLAUNCH_FS_WRITE_FILE | (1ULL << 4) | (1ULL << 5) | (1ULL << 6) | (1ULL << 7) | \
    (1ULL << 8) | (1ULL << 9) | (1ULL << 10) | (1ULL << 11) | (1ULL << 12))
#define CLAUNCH_FS_REFER (1ULL << 13)
#define CLAUNCH_FS_TRUNCATE (1ULL << 14)

#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#define __NR_landlock_add_rule 445
#define __NR_landlock_restrict_self 446
#endif
#endif

int claunch_confine_writes(const char *const *folders, int count) {
#if defined(__linux__)
    long abi = syscall(__NR_landlock_create_ruleset, NULL, 0, CLAUNCH_LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 1) return -1;
    uint64_t writes = CLAUNCH_FS_ABI1_WRITES;
    if (abi >= 2) writes |= CLAUNCH_FS_REFER;
    if (abi >= 3) writes |= CLAUNCH_FS_TRUNCATE;
    struct claunch_landlock_ruleset_attr attr = { .handled_access_fs = writes };
    int ruleset = (int)syscall(__NR_landlock_create_ruleset, &attr, sizeof(attr), 0);
    if (ruleset < 0) return -1;
    for (int index = 0; index < count; index++) {
        // A folder: every write beneath it; a file (a launch's log outside its device): writing it.
        int folder = open(folders[index], O_PATH | O_CLOEXEC);
        if (folder < 0) { int saved = errno; close(ruleset); errno = saved; return -1; }
        struct stat info;
        if (fstat(folder, &info) != 0) { int saved = errno; close(folder); close(ruleset); errno = saved; return -1; }
        uint64_t rights = S_ISDIR(info.st_mode) ? writes : (CLAUNCH_FS_WRITE_FILE | (abi >= 3 ? CLAUNCH_FS_TRUNCATE : 0));
        struct claunch_landlock_path_beneath_attr rule = { .allowed_access = rights, .parent_fd = folder };
        long added = syscall(__NR_landlock_add_rule, ruleset, CLAUNCH_LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
        int saved = errno;
        close(folder);
        if (added != 0) { close(ruleset); errno = saved; return -1; }
    }
    // /dev/null stays writable: discarding output is no change to any file.
    int null = open("/dev/null", O_PATH | O_CLOEXEC);
    if (null >= 0) {
        uint64_t file_rights = CLAUNCH_FS_WRITE_FILE | (abi >= 3 ? CLAUNCH_FS_TRUNCATE : 0);
        struct claunch_landlock_path_beneath_attr rule = { .allowed_access = file_rights, .parent_fd = null };
        syscall(__NR_landlock_add_rule, ruleset, CLAUNCH_LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
        close(null);
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) { int saved = errno; close(ruleset); errno = saved; return -1; }
    long restricted = syscall(__NR_landlock_restrict_self, ruleset, 0);
    int saved = errno;
    close(ruleset);
    errno = saved;
    return restricted == 0 ? 0 : -1;
#else
    (void)folders;
    (void)count;
    errno = ENOSYS;
    return -1;
#endif
}

int claunch_become_subreaper(void) {
#if defined(__linux__)
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
#else
    errno = ENOSYS;
    return -1;
#endif
}
