// Interposing a Foundation function in an app build, static or dynamic (see cunarchiver.c).
//
// `CPREFERENCES_INTERPOSE(symbol, entry, original)` defines, for Foundation's Swift function
// `symbol`:
// - a weak `__real_<symbol>` that only satisfies the reference of a wrapper in a link without
//   `--wrap` (a static app build's `--wrap` points it at Foundation's function);
// - a weak definition of `symbol` itself, which in a dynamic link comes before libFoundation's
//   for the app's calls and jumps, every register as the caller set it, to the Swift function
//   named `entry` (of the same signature);
// - `original`, a jump through the address of Foundation's function that `original`_resolve()
//   finds with `dlsym(RTLD_NEXT)`; 1 when found.
// In a static build Foundation's strong definition replaces the weak one.
#ifndef CPREFERENCES_INTERPOSE_H
#define CPREFERENCES_INTERPOSE_H
#include <dlfcn.h>
#include <stdlib.h>

#if defined(__x86_64__)
#define CPREFERENCES_JUMP(symbol) __asm__("jmp " symbol "@PLT")
#define CPREFERENCES_JUMP_THROUGH(pointer) __asm__("jmp *" pointer "(%rip)")
#elif defined(__aarch64__)
#define CPREFERENCES_JUMP(symbol) __asm__("b " symbol)
#define CPREFERENCES_JUMP_THROUGH(pointer) __asm__("adrp x16, " pointer "\n ldr x16, [x16, :lo12:" pointer "]\n br x16")
#endif

#ifdef CPREFERENCES_JUMP
#define CPREFERENCES_INTERPOSE(symbol, entry, original)                                                      \
    __attribute__((weak)) void original##_real_stub(void) __asm__("__real_" symbol);                         \
    void original##_real_stub(void) { abort(); }                                                            \
    void *original##_address;                                                                                \
    int original##_resolve(void) {                                                                           \
        if (original##_address == NULL) original##_address = dlsym(RTLD_NEXT, symbol);                      \
        return original##_address != NULL;                                                                   \
    }                                                                                                        \
    __attribute__((weak, naked)) void original##_interposer(void) __asm__(symbol);                          \
    void original##_interposer(void) { CPREFERENCES_JUMP(#entry); }                                        \
    __attribute__((naked)) void original(void) { CPREFERENCES_JUMP_THROUGH(#original "_address"); }
#else
#define CPREFERENCES_INTERPOSE(symbol, entry, original)                                                      \
    __attribute__((weak)) void original##_real_stub(void) __asm__("__real_" symbol);                         \
    void original##_real_stub(void) { abort(); }                                                            \
    int original##_resolve(void) { return 0; }
#endif

#endif
