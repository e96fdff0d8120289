#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H
#include <zlib.h>

// deflateInit2 and inflateInit2 are macros over the *_ functions (they pass the version and the
// stream's size), which Swift cannot import; expose them as functions.
static inline int czlib_deflate_init(z_streamp stream, int level, int window_bits, int memory_level) {
    return deflateInit2(stream, level, Z_DEFLATED, window_bits, memory_level, Z_DEFAULT_STRATEGY);
}
static inline int czlib_inflate_init(z_streamp stream, int window_bits) {
    return inflateInit2(stream, window_bits);
}
#endif
