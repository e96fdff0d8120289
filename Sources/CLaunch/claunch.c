#include "claunch.h"
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
