#ifndef CSCAN_H
#define CSCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// One keyed index of the leak scan's patterns (GateModel's SecretPatterns.KeyedIndex): marks in
// `found` every pattern of the index that occurs in `text`, and appends each newly found pattern's
// number to `hits` (room for every pattern). Returns how many it appended.
size_t cscan_search(const uint8_t *text, size_t count, size_t first, size_t second, const int32_t *heads,
                    const int32_t *next, const int32_t *patterns, const uint8_t *all, const long *starts,
                    const long *lengths, bool *found, int32_t *hits);

// Whether `needle` (non-empty) occurs in `haystack` (memmem).
bool cscan_contains(const void *haystack, size_t count, const void *needle, size_t length);

#endif
