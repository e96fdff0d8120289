#ifndef CPREFERENCES_H
#define CPREFERENCES_H

/// The preference calls of Foundation's `UserDefaults`, routed to a simulated device's stores.
///
/// corelibs Foundation's `UserDefaults` keeps its values in CoreFoundation's CFPreferences, which
/// writes a property list only on `synchronize()`, under `$XDG_CONFIG_HOME`. An app build links with
/// `--wrap` for the four CFPreferences calls `UserDefaults` makes (Package.swift, `appBuildLinking`):
/// each call then reaches the `__wrap_` function here, which hands it to the hooks the platform
/// installed, or to CoreFoundation when none are. The values pass as CoreFoundation objects
/// (opaque pointers): a hook that returns one returns it retained (a CF "Copy" call).

/// The value of `key` in domain `application` (`is_current` when it is the app's own domain).
typedef const void *_Nullable (*cpreferences_copy_hook)(
    const void *_Nonnull key, const void *_Nonnull application, int is_current);
/// Stores `value` for `key` (NULL removes it).
typedef void (*cpreferences_set_hook)(
    const void *_Nonnull key, const void *_Nullable value, const void *_Nonnull application, int is_current);
/// Every stored value of the domain, as a dictionary.
typedef const void *_Nullable (*cpreferences_copy_all_hook)(const void *_Nonnull application, int is_current);

/// Routes the calls to the hooks from now on (all three, or none with NULLs).
void cpreferences_install(
    cpreferences_copy_hook _Nullable copy, cpreferences_set_hook _Nullable set,
    cpreferences_copy_all_hook _Nullable copy_all);

/// Whether this executable was linked with the wraps (a wrapped call has been made).
int cpreferences_wrapped(void);

/// Find Foundation's functions in a dynamically linked executable, for the jumps of the same name
/// (cunarchiver.c, cstringreading.c, interpose.h); 1 when found.
int cunarchiver_original_resolve(void);
int cunarchiver_classes_original_resolve(void);
int cstringreading_file_original_resolve(void);
int cstringreading_url_original_resolve(void);

#endif
