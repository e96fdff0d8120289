#!/bin/sh
# Regenerates the binary fixtures of EntitlementsTests from the sources in src/ (README.md says what each is).
# Run from anywhere: Tests/EntitlementsTests/Fixtures/make-fixtures.sh [STEP...]
# Steps: objects plist profile app universal dsym codesign unwrapped (default: all). The profile step signs with a
# fresh key, so it changes embedded.mobileprovision's bytes (not its content) each time: name only the steps you need.
# Needs the Swift toolchain's clang and plutil (/opt/swift/usr/bin), python3 and openssl.
# The hand-written text fixtures (codesign-*.txt, *.entitlements, settings/) are not generated; code signatures and
# other shapes are assembled byte by byte in the tests (MachOBuilder.swift).
set -eu
cd "$(dirname "$0")"
TOOLS=${TOOLS:-/opt/swift/usr/bin}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 1. Object files for Apple targets whose __TEXT,__entitlements section holds src/ledger.plist, as Xcode links a
#    simulator build's real entitlements. (lld here cannot link for iOS, so these are MH_OBJECT files; the reader
#    treats them like executables: it matches the section's own segment name.) armv7 and i386 are 32-bit
#    (0xfeedface), as device apps before Xcode 9 and old simulator builds were.
objects() {
    python3 - src/ledger.plist > "$work/ents.c" <<'PY'
import sys, json
text = open(sys.argv[1]).read()
print('__attribute__((section("__TEXT,__entitlements"), used))')
print('const char ents[] = ' + json.dumps(text) + ';')
print('int main(void) { return 0; }')
PY
    for target in arm64-apple-ios17.0-simulator x86_64-apple-ios17.0-simulator armv7-apple-ios10 i386-apple-ios-simulator; do
        "$TOOLS/clang" -target "$target" -c "$work/ents.c" -o "ledger-${target%%-*}.o"
    done
}

# 2. A binary property list of the same entitlements.
plist() { "$TOOLS/plutil" -convert binary1 -o ledger.bplist src/ledger.plist; }

# 3. A provisioning profile: the plist in a CMS SignedData envelope (DER, content embedded), signed with a
#    throwaway EC key, the shape of embedded.mobileprovision.
profile() {
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=Fixture Signer" \
        -days 3650 -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
    openssl cms -sign -nodetach -binary -md sha256 -signer "$work/cert.pem" -inkey "$work/key.pem" \
        -in src/profile.plist -outform DER -out embedded.mobileprovision
}

# 4. iOS .app folders: binary Info.plist and the profile, with the arm64 object file as the executable (Ledger.app)
#    or the armv7+arm64 universal file of step 5 (LedgerUniversal.app).
app() {
    for name in Ledger LedgerUniversal; do
        rm -rf "$name.app"
        mkdir "$name.app"
        "$TOOLS/plutil" -convert binary1 -o "$name.app/Info.plist" src/info.plist
        cp embedded.mobileprovision "$name.app/embedded.mobileprovision"
    done
    cp ledger-arm64.o Ledger.app/Ledger
    cp ledger-armv7-arm64 LedgerUniversal.app/Ledger
}

# 5. Universal files, as lipo makes them (mach-o/fat.h: big-endian FAT_MAGIC header, slices aligned to 2^14):
#    armv7+arm64 (a device app of the Xcode 8 era) and i386+x86_64 (a simulator build of the same time).
universal() {
    python3 - <<'PY'
import struct
def fat(out, parts):
    align = 14
    header = struct.pack(">II", 0xcafebabe, len(parts))
    body, offset = b"", 8 + 20 * len(parts)
    entries = b""
    for path, cpu, subtype in parts:
        data = open(path, "rb").read()
        start = (offset + (1 << align) - 1) & ~((1 << align) - 1)
        body += b"\0" * (start - offset) + data
        entries += struct.pack(">IIIII", cpu, subtype, start, len(data), align)
        offset = start + len(data)
    open(out, "wb").write(header + entries + body)
fat("ledger-armv7-arm64", [("ledger-armv7.o", 12, 9), ("ledger-arm64.o", 0x0100000c, 0)])
fat("ledger-i386-x86_64", [("ledger-i386.o", 7, 3), ("ledger-x86_64.o", 0x01000007, 3)])
PY
}

# 6. A dSYM companion's Mach-O: the arm64 object with filetype MH_DSYM (0xa) and its __entitlements section's file
#    offset 0, as dsymutil keeps the section headers of the executable without their contents.
dsym() {
    python3 - <<'PY'
import struct
data = bytearray(open("ledger-arm64.o", "rb").read())
struct.pack_into("<I", data, 12, 0xa)
ncmds, = struct.unpack_from("<I", data, 16)
offset = 32
for _ in range(ncmds):
    cmd, size = struct.unpack_from("<II", data, offset)
    if cmd == 0x19:
        nsects, = struct.unpack_from("<I", data, offset + 64)
        for index in range(nsects):
            header = offset + 72 + 80 * index
            if data[header:header + 14] == b"__entitlements":
                struct.pack_into("<I", data, header + 48, 0)
    offset += size
open("ledger-arm64.dsym", "wb").write(bytes(data))
PY
}

# 7. What `codesign -d --entitlements - App.app > out.txt 2>&1` wrote with codesign before macOS 12: the
#    Executable= line (standard error), then the raw entitlements blob (standard output): magic 0xfade7171, a
#    big-endian length, the XML.
codesign() {
    python3 - <<'PY'
import struct
xml = open("src/ledger.plist", "rb").read()
blob = struct.pack(">II", 0xfade7171, 8 + len(xml)) + xml
open("codesign-stderr-stdout.txt", "wb").write(b"Executable=/Users/dev/Build/Products/Release-iphoneos/Ledger.app/Ledger\n" + blob)
PY
}

# 8. The profile's plist taken out of its envelope, as `security cms -D -i embedded.mobileprovision` prints it
#    (here `openssl cms -verify -noverify`), and the same as a binary plist under a .mobileprovision name.
unwrapped() {
    openssl cms -verify -noverify -inform DER -in embedded.mobileprovision -out profile-unwrapped.plist 2>/dev/null
    "$TOOLS/plutil" -convert binary1 -o profile-binary.mobileprovision profile-unwrapped.plist
}

steps=${*:-objects plist profile universal app dsym codesign unwrapped}
for step in $steps; do "$step"; done
