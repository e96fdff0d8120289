// A test process's Bundle.main, named as an iOS test host names it (SimSecurity's TestHostBundle).
//
// corelibs Foundation reads Bundle.main once, at its first use, from an Info.plist beside the running
// executable. This constructor runs before any test code can use it: in a test process (an executable
// whose name ends in ".xctest", as `swift test` runs them) given SIMSECURITY_BUNDLE_ID or
// SIMSECURITY_ENTITLEMENTS, and launched by no simulated device, it hands over to SimSecurity's Swift
// code, which writes that Info.plist (or removes the one it wrote for an earlier run, when the
// variables are gone). An app launch returns after one getenv call, any other process after a
// readlink.
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// SimSecurity's `TestHostBundle.prepareFromConstructor` (weak: a link without it does nothing).
extern void simsecurity_prepare_test_host_bundle(void) __attribute__((weak));

__attribute__((constructor)) static void ctesthost_prepare(void) {
    if (getenv("UPGRADE_RUNNER_LAUNCH_CONTEXT") != NULL) return;
    char path[4096];
    ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
    if (length <= 0) return;
    path[length] = '\0';
    static const char suffix[] = ".xctest";
    size_t suffixLength = sizeof suffix - 1;
    if ((size_t)length < suffixLength || strcmp(path + length - suffixLength, suffix) != 0) return;
    if (simsecurity_prepare_test_host_bundle != NULL) simsecurity_prepare_test_host_bundle();
}
