#ifndef CSHA256_H
#define CSHA256_H
#include <stdint.h>
#include <stddef.h>

/// Runs the SHA-256 compression function (FIPS 180-4, 6.2.2) over `count` consecutive 64-byte
/// blocks, updating `state` (eight words) in place.
void csha256_compress_blocks(uint32_t state[8], const uint8_t *blocks, size_t count);
/// The same without the processor's SHA extensions, which csha256_compress_blocks uses where it has them.
void csha256_compress_blocks_portable(uint32_t state[8], const uint8_t *blocks, size_t count);
/// HMAC-SHA256 (RFC 2104) of `message` under `key`, in one call: a keychain snapshot takes one per value.
void csha256_hmac(const uint8_t *key, size_t key_length, const uint8_t *message, size_t message_length, uint8_t out[32]);

#endif
