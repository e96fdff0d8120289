// SHA-256 in C: the block function, and one-call digests and HMACs of short messages.
// SimRuntime's SHA256 keeps the streaming buffering and padding in Swift and calls only the inner
// loop here, which the package's debug builds (Swift at -Onone) ran about ten times slower than C
// does at -O0; a gate hashes every build executable it pins and takes a keyed digest (HMAC) of
// every stored value it snapshots. Where the processor has the SHA extensions the loop runs on
// them (compress_sha_ni), else portably.
#include "csha256.h"

static const uint32_t k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROTR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

void csha256_compress_blocks_portable(uint32_t state[8], const uint8_t *blocks, size_t count) {
    uint32_t w[64];
    for (size_t block = 0; block < count; block++) {
        const uint8_t *p = blocks + block * 64;
        for (int i = 0; i < 16; i++) {
            w[i] = (uint32_t)p[i * 4] << 24 | (uint32_t)p[i * 4 + 1] << 16 | (uint32_t)p[i * 4 + 2] << 8 | (uint32_t)p[i * 4 + 3];
        }
        for (int i = 16; i < 64; i++) {
            uint32_t s0 = ROTR(w[i - 15], 7) ^ ROTR(w[i - 15], 18) ^ (w[i - 15] >> 3);
            uint32_t s1 = ROTR(w[i - 2], 17) ^ ROTR(w[i - 2], 19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16] + s0 + w[i - 7] + s1;
        }
        uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
        uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
        for (int i = 0; i < 64; i++) {
            uint32_t t1 = h + (ROTR(e, 6) ^ ROTR(e, 11) ^ ROTR(e, 25)) + ((e & f) ^ (~e & g)) + k[i] + w[i];
            uint32_t t2 = (ROTR(a, 2) ^ ROTR(a, 13) ^ ROTR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
            h = g; g = f; f = e; e = d + t1;
            d = c; c = b; b = a; a = t1 + t2;
        }
        state[0] += a; state[1] += b; state[2] += c; state[3] += d;
        state[4] += e; state[5] += f; state[6] += g; state[7] += h;
    }
}

#if defined(__x86_64__) && defined(__clang__)
#include <cpuid.h>
#include <stdatomic.h>
#include <immintrin.h>

// The same block function with the x86 SHA extensions (SHA-NI): the state is kept as the register
// pair ABEF/CDGH that sha256rnds2 works on, and each 4-word group of the schedule (W[t..t+3]) is made
// from the four before it with sha256msg1/sha256msg2. About four times the portable loop at the same
// optimisation (247 against 57 MB/s at -O0; the target is built at -O2 in every configuration, see
// Package.swift): the app builds link Foundation statically, about 75 MB each, and a gate pins each one.
__attribute__((target("sha,sse4.1,ssse3")))
static void compress_sha_ni(uint32_t state[8], const uint8_t *blocks, size_t count) {
    const __m128i byteswap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    __m128i dcba = _mm_loadu_si128((const __m128i *)&state[0]);
    __m128i hgfe = _mm_loadu_si128((const __m128i *)&state[4]);
    __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
    __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
    __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
    __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);
    for (size_t block = 0; block < count; block++) {
        const uint8_t *p = blocks + block * 64;
        __m128i w[16];
        __m128i abef_before = abef, cdgh_before = cdgh;
        for (int group = 0; group < 16; group++) {
            if (group < 4) {
                w[group] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + group * 16)), byteswap);
            } else {
                __m128i partial = _mm_sha256msg1_epu32(w[group - 4], w[group - 3]);
                partial = _mm_add_epi32(partial, _mm_alignr_epi8(w[group - 1], w[group - 2], 4));
                w[group] = _mm_sha256msg2_epu32(partial, w[group - 1]);
            }
            __m128i words = _mm_add_epi32(w[group], _mm_loadu_si128((const __m128i *)&k[group * 4]));
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, words);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(words, 0x0E));
        }
        abef = _mm_add_epi32(abef, abef_before);
        cdgh = _mm_add_epi32(cdgh, cdgh_before);
    }
    __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    _mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(feba, dchg, 0xF0));
    _mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(dchg, feba, 8));
}

/// Whether the processor has the SHA extensions (CPUID leaf 7, EBX bit 29) and SSE4.1 (leaf 1, ECX bit 19).
static int has_sha_ni(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !(ecx & (1u << 19))) return 0;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
    return (ebx & (1u << 29)) != 0;
}
#endif

void csha256_compress_blocks(uint32_t state[8], const uint8_t *blocks, size_t count) {
#if defined(__x86_64__) && defined(__clang__)
    // Detected on first use, not at load (an app build links this too and should not pay for it);
    // atomic, since two cells may hash at once. Racing first uses store the same answer.
    static _Atomic int sha_ni = -1;
    int known = atomic_load_explicit(&sha_ni, memory_order_relaxed);
    if (known < 0) {
        known = has_sha_ni();
        atomic_store_explicit(&sha_ni, known, memory_order_relaxed);
    }
    if (known) {
        compress_sha_ni(state, blocks, count);
        return;
    }
#endif
    csha256_compress_blocks_portable(state, blocks, count);
}

static const uint32_t initial_state[8] = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

// Compresses the rest of a message, `data` (`length` bytes), whose first `prefix_length` bytes
// (a whole number of blocks) `state` has taken already, pads it and writes the digest.
static void finish(uint32_t state[8], const uint8_t *data, size_t length, uint64_t prefix_length, uint8_t out[32]) {
    size_t whole = length / 64;
    csha256_compress_blocks(state, data, whole);
    uint8_t tail[128] = {0};
    size_t rest = length - whole * 64;
    for (size_t i = 0; i < rest; i++) tail[i] = data[whole * 64 + i];
    tail[rest] = 0x80;
    size_t blocks = rest + 1 + 8 <= 64 ? 1 : 2;
    uint64_t bits = (prefix_length + (uint64_t)length) * 8;
    for (int i = 0; i < 8; i++) tail[blocks * 64 - 1 - i] = (uint8_t)(bits >> (8 * i));
    csha256_compress_blocks(state, tail, blocks);
    for (int i = 0; i < 8; i++) {
        out[4 * i] = (uint8_t)(state[i] >> 24);
        out[4 * i + 1] = (uint8_t)(state[i] >> 16);
        out[4 * i + 2] = (uint8_t)(state[i] >> 8);
        out[4 * i + 3] = (uint8_t)state[i];
    }
}

static void csha256_digest(const uint8_t *data, size_t length, uint8_t out[32]) {
    uint32_t state[8];
    for (int i = 0; i < 8; i++) state[i] = initial_state[i];
    finish(state, data, length, 0, out);
}

void csha256_hmac(const uint8_t *key, size_t key_length, const uint8_t *message, size_t message_length, uint8_t out[32]) {
    uint8_t block[64] = {0};
    if (key_length > 64) {
        csha256_digest(key, key_length, block);
    } else {
        for (size_t i = 0; i < key_length; i++) block[i] = key[i];
    }
    uint8_t pad[64];
    uint32_t state[8];
    uint8_t inner[32];
    for (int i = 0; i < 64; i++) pad[i] = block[i] ^ 0x36;
    for (int i = 0; i < 8; i++) state[i] = initial_state[i];
    csha256_compress_blocks(state, pad, 1);
    finish(state, message, message_length, 64, inner);
    for (int i = 0; i < 64; i++) pad[i] = block[i] ^ 0x5c;
    for (int i = 0; i < 8; i++) state[i] = initial_state[i];
    csha256_compress_blocks(state, pad, 1);
    finish(state, inner, 32, 64, out);
}
