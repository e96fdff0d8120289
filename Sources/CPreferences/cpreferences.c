#define _GNU_SOURCE
#include "cpreferences.h"
#include <dlfcn.h>
#include <stdatomic.h>
#include <stddef.h>

// Two ways in, one route:
// - A static executable linked with `--wrap` for the four calls (Package.swift, `appBuildLinking`):
//   Foundation's calls reach the `__wrap_` functions, and `__real_` names CoreFoundation's.
// - A dynamically linked executable: Foundation calls CoreFoundation through its PLT, so the weak
//   definitions below, exported from the executable, come first; CoreFoundation's is the next one.
//   In a static link CoreFoundation's strong definitions win over these, and the wraps serve.
// Everything CoreFoundation is weak here, so any link of this file succeeds.
extern const void *const kCFPreferencesCurrentApplication __attribute__((weak));
extern const void *__real_CFPreferencesCopyAppValue(const void *, const void *) __attribute__((weak));
extern void __real_CFPreferencesSetAppValue(const void *, const void *, const void *) __attribute__((weak));
extern unsigned char __real_CFPreferencesAppSynchronize(const void *) __attribute__((weak));
extern const void *__real_CFPreferencesCopyMultiple(const void *, const void *, const void *, const void *)
    __attribute__((weak));

typedef const void *(*copy_fn)(const void *, const void *);
typedef void (*set_fn)(const void *, const void *, const void *);
typedef unsigned char (*synchronize_fn)(const void *);
typedef const void *(*copy_multiple_fn)(const void *, const void *, const void *, const void *);

// Set once at start-up (before the app's code runs) and read by every call.
static _Atomic(cpreferences_copy_hook) copy_hook;
static _Atomic(cpreferences_set_hook) set_hook;
static _Atomic(cpreferences_copy_all_hook) copy_all_hook;
static atomic_int wrapped;

/// Installs the hooks the first time a routed call is made without them, from a launched app's
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

static int is_current(const void *application) { return application == kCFPreferencesCurrentApplication; }

static const void *copy_value(const void *key, const void *application, copy_fn original) {
    bootstrap();
    cpreferences_copy_hook hook = atomic_load(&copy_hook);
    if (hook != NULL) return hook(key, application, is_current(application));
    return original(key, application);
}

// Returns whether the hook took the call.
static int set_value(const void *key, const void *value, const void *application) {
    bootstrap();
    cpreferences_set_hook hook = atomic_load(&set_hook);
    if (hook == NULL) return 0;
    hook(key, value, application, is_current(application));
    return 1;
}

// Every routed write is stored before its call returns, as cfprefsd has it: nothing to synchronize.
static int synchronized(void) {
    bootstrap();
    return atomic_load(&set_hook) != NULL;
}

// UserDefaults asks for every key (NULL) for `dictionaryRepresentation()` and `persistentDomain(forName:)`.
static cpreferences_copy_all_hook copy_all(const void *keys) {
    bootstrap();
    return keys == NULL ? atomic_load(&copy_all_hook) : NULL;
}

// MARK: Static executables (--wrap)

const void *__wrap_CFPreferencesCopyAppValue(const void *key, const void *application) {
    return copy_value(key, application, __real_CFPreferencesCopyAppValue);
}

void __wrap_CFPreferencesSetAppValue(const void *key, const void *value, const void *application) {
    if (!set_value(key, value, application)) __real_CFPreferencesSetAppValue(key, value, application);
}

unsigned char __wrap_CFPreferencesAppSynchronize(const void *application) {
    return synchronized() ? 1 : __real_CFPreferencesAppSynchronize(application);
}

const void *__wrap_CFPreferencesCopyMultiple(const void *keys, const void *application, const void *user, const void *host) {
    cpreferences_copy_all_hook hook = copy_all(keys);
    if (hook != NULL) return hook(application, is_current(application));
    return __real_CFPreferencesCopyMultiple(keys, application, user, host);
}

// MARK: Dynamically linked executables (interposed)

static void *next(const char *name) { return dlsym(RTLD_NEXT, name); }

__attribute__((weak)) const void *CFPreferencesCopyAppValue(const void *key, const void *application) {
    bootstrap();
    cpreferences_copy_hook hook = atomic_load(&copy_hook);
    if (hook != NULL) return hook(key, application, is_current(application));
    return ((copy_fn)next("CFPreferencesCopyAppValue"))(key, application);
}

__attribute__((weak)) void CFPreferencesSetAppValue(const void *key, const void *value, const void *application) {
    if (!set_value(key, value, application)) ((set_fn)next("CFPreferencesSetAppValue"))(key, value, application);
}

__attribute__((weak)) unsigned char CFPreferencesAppSynchronize(const void *application) {
    return synchronized() ? 1 : ((synchronize_fn)next("CFPreferencesAppSynchronize"))(application);
}

__attribute__((weak)) const void *CFPreferencesCopyMultiple(
    const void *keys, const void *application, const void *user, const void *host) {
    cpreferences_copy_all_hook hook = copy_all(keys);
    if (hook != NULL) return hook(application, is_current(application));
    return ((copy_multiple_fn)next("CFPreferencesCopyMultiple"))(keys, application, user, host);
}
