#include "cpreferences.h"
#include <stdatomic.h>
#include <stddef.h>

// CoreFoundation's symbols. The originals are weak: an executable linked without `--wrap` (a test
// bundle, a dynamically linked build) never calls the `__wrap_` functions, and has no `__real_`.
extern const void *const kCFPreferencesCurrentApplication __attribute__((weak));
extern const void *__real_CFPreferencesCopyAppValue(const void *, const void *) __attribute__((weak));
extern void __real_CFPreferencesSetAppValue(const void *, const void *, const void *) __attribute__((weak));
extern unsigned char __real_CFPreferencesAppSynchronize(const void *) __attribute__((weak));
extern const void *__real_CFPreferencesCopyMultiple(const void *, const void *, const void *, const void *)
    __attribute__((weak));

// Set once at start-up (before the app's code runs) and read by every call.
static _Atomic(cpreferences_copy_hook) copy_hook;
static _Atomic(cpreferences_set_hook) set_hook;
static _Atomic(cpreferences_copy_all_hook) copy_all_hook;
static atomic_int wrapped;

/// Installs the hooks the first time a wrapped call is made without them, from a launched app's
/// context (SimPlatform defines it; weak, so a link without SimPlatform's Swift code still works).
extern void simplatform_route_preferences(void) __attribute__((weak));
static atomic_int bootstrapped;

static void bootstrap(void) {
    atomic_store(&wrapped, 1);
    if (atomic_load(&set_hook) == NULL && simplatform_route_preferences != NULL && !atomic_exchange(&bootstrapped, 1)) {
        simplatform_route_preferences();
    }
}

void cpreferences_install(cpreferences_copy_hook copy, cpreferences_set_hook set, cpreferences_copy_all_hook copy_all) {
    atomic_store(&copy_hook, copy);
    atomic_store(&copy_all_hook, copy_all);
    atomic_store(&set_hook, set);
}

int cpreferences_wrapped(void) { return atomic_load(&wrapped); }

const void *__wrap_CFPreferencesCopyAppValue(const void *key, const void *application) {
    bootstrap();
    cpreferences_copy_hook hook = atomic_load(&copy_hook);
    if (hook != NULL) return hook(key, application, application == kCFPreferencesCurrentApplication);
    return __real_CFPreferencesCopyAppValue(key, application);
}

void __wrap_CFPreferencesSetAppValue(const void *key, const void *value, const void *application) {
    bootstrap();
    cpreferences_set_hook hook = atomic_load(&set_hook);
    if (hook != NULL) {
        hook(key, value, application, application == kCFPreferencesCurrentApplication);
        return;
    }
    __real_CFPreferencesSetAppValue(key, value, application);
}

// Every routed write is stored before its call returns, as cfprefsd has it: nothing to synchronize.
unsigned char __wrap_CFPreferencesAppSynchronize(const void *application) {
    bootstrap();
    if (atomic_load(&set_hook) != NULL) return 1;
    return __real_CFPreferencesAppSynchronize(application);
}

// UserDefaults asks for every key (NULL) for `dictionaryRepresentation()` and `persistentDomain(forName:)`.
const void *__wrap_CFPreferencesCopyMultiple(
    const void *keys, const void *application, const void *user, const void *host) {
    bootstrap();
    cpreferences_copy_all_hook hook = atomic_load(&copy_all_hook);
    if (hook != NULL && keys == NULL) return hook(application, application == kCFPreferencesCurrentApplication);
    return __real_CFPreferencesCopyMultiple(keys, application, user, host);
}
