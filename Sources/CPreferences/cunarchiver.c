// NSKeyedUnarchiver.unarchivedObject(ofClass:from:) and (ofClasses:from:) with iOS's answers, in both kinds of app build
// (the Swift half is SimPlatform's FoundationUnarchiving; interpose.h says how the calls arrive).
#define _GNU_SOURCE
#include "interpose.h"

CPREFERENCES_INTERPOSE(
    "$s10Foundation17NSKeyedUnarchiverC16unarchivedObject7ofClass4fromxSgxm_0A10Essentials4DataVtKAA8NSObjectCRbzAA8NSCodingRzlFZ",
    cunarchiver_device_entry, cunarchiver_original)
CPREFERENCES_INTERPOSE(
    "$s10Foundation17NSKeyedUnarchiverC16unarchivedObject9ofClasses4fromypSgSayyXlXpG_0A10Essentials4DataVtKFZ",
    cunarchiver_classes_entry, cunarchiver_classes_original)
