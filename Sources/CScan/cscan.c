// The leak scan's inner loop in C (GateModel's SecretPatterns.KeyedIndex.search): every byte of
// every artifact file is looked up in a two-byte-keyed table of about 2,000 patterns. Swift at
// -Onone (the package's debug builds, which the gate runs as) spent most of the scan's CPU on the
// loop's own bookkeeping; this target is built at -O2 in every configuration (Package.swift).
#define _GNU_SOURCE
#include "cscan.h"

#include <string.h>

size_t cscan_search(const uint8_t *text, size_t count, size_t first, size_t second, const int32_t *heads,
                    const int32_t *next, const int32_t *patterns, const uint8_t *all, const long *starts,
                    const long *lengths, bool *found, int32_t *hits) {
    size_t added = 0;
    if (count <= second) return 0;
    for (size_t position = 0; position < count - second; position++) {
        int32_t candidate = heads[(size_t)text[position + first] << 8 | text[position + second]];
        while (candidate >= 0) {
            int32_t pattern = patterns[candidate];
            size_t length = (size_t)lengths[pattern];
            if (!found[pattern] && position + length <= count &&
                memcmp(all + starts[pattern], text + position, length) == 0) {
                found[pattern] = true;
                hits[added++] = pattern;
            }
            candidate = next[candidate];
        }
    }
    return added;
}

bool cscan_contains(const void *haystack, size_t count, const void *needle, size_t length) {
    return length > 0 && length <= count && memmem(haystack, count, needle, length) != NULL;
}
