// String(contentsOfFile:encoding:) and String(contentsOf:encoding:) with iOS's error for bytes the
// encoding cannot read, in both kinds of app build (the Swift half is SimPlatform's
// FoundationStringReading; interpose.h says how the calls arrive).
#define _GNU_SOURCE
#include "interpose.h"

CPREFERENCES_INTERPOSE(
    "$sSS20FoundationEssentialsE14contentsOfFile8encodingS2Sh_SSAAE8EncodingVtKcfC", cstringreading_file_entry,
    cstringreading_file_original)
CPREFERENCES_INTERPOSE(
    "$sSS20FoundationEssentialsE10contentsOf8encodingSSAA3URLVh_SSAAE8EncodingVtKcfC", cstringreading_url_entry,
    cstringreading_url_original)
