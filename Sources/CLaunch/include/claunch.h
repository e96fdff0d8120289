#ifndef CLAUNCH_H
#define CLAUNCH_H
#include <sys/types.h>

/// Asks the kernel to send `signal` to the calling process when the thread that started it ends
/// (Linux's PR_SET_PDEATHSIG; prctl is variadic, so Swift cannot call it directly), then checks that
/// `expected_parent` is still the parent: a launcher that died before the call leaves no one to
/// deliver the signal. Returns 0 when armed and the parent is alive, -1 otherwise; on systems
/// without the call it only checks the parent.
int claunch_die_with_parent(int signal, pid_t expected_parent);

/// Confines the calling thread, and every process it starts from now on, to writing beneath
/// `folders` (a path that is a file instead: writing that file alone) and to /dev/null: Linux's Landlock, with no new privileges. Reading is not
/// restricted. For a dedicated thread that only spawns: the restriction cannot be lifted. Returns
/// 0 when confined, -1 with errno otherwise (ENOSYS or EOPNOTSUPP where the kernel has no Landlock).
int claunch_confine_writes(const char *const *folders, int count);

/// Makes the calling process a child subreaper (Linux's PR_SET_CHILD_SUBREAPER): a descendant
/// orphaned by its parent (an app's double fork, with or without setsid) becomes this process's
/// child instead of init's, so the runner can find and end what a launch left running. 0, or -1
/// with errno.
int claunch_become_subreaper(void);

#endif
