// The original of `NSKeyedUnarchiver.unarchivedObject(ofClass:from:)` as SimPlatform's wrapper
// names it (`__real_` + its Swift symbol). A static app build is linked with `--wrap` for that
// symbol (Package.swift, `appBuildLinking`), which makes every reference to this name one to
// Foundation's function; in any other link nothing calls the wrapper, and this weak stub only
// satisfies the reference.
#include <stdlib.h>

__attribute__((weak)) void cpreferences_unarchived_object_stub(void) __asm__(
    "__real_$s10Foundation17NSKeyedUnarchiverC16unarchivedObject7ofClass4fromxSgxm_0A10Essentials4DataVtKAA8NSObjectCRbzAA8NSCodingRzlFZ");
void cpreferences_unarchived_object_stub(void) { abort(); }
