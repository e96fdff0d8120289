#!/bin/sh
# Regenerates the binary fixtures of EntitlementsTests from the sources in src/.
# Run from anywhere: Tests/EntitlementsTests/Fixtures/make-fixtures.sh
# Needs the Swift toolchain's clang and plutil (/opt/swift/usr/bin) and openssl.
# The hand-written text fixtures (codesign-*.txt, *.entitlements) are not generated; universal files and code
# signature SuperBlobs are assembled byte by byte in the tests (MachOBuilder.swift) from the object files below.
set -eu
cd "$(dirname "$0")"
TOOLS=${TOOLS:-/opt/swift/usr/bin}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 1. Object files for Apple simulator targets whose __TEXT,__entitlements section holds src/ledger.plist,
#    as Xcode links a simulator build's real entitlements. (lld here cannot link for iOS, so these are MH_OBJECT
#    files; the reader treats them like executables: it matches the section's own segment name.)
python3 - src/ledger.plist > "$work/ents.c" <<'PY'
import sys, json
text = open(sys.argv[1]).read()
print('__attribute__((section("__TEXT,__entitlements"), used))')
print('const char ents[] = ' + json.dumps(text) + ';')
print('int main(void) { return 0; }')
PY
for arch in arm64 x86_64; do
    "$TOOLS/clang" -target "$arch-apple-ios17.0-simulator" -c "$work/ents.c" -o "ledger-$arch.o"
done

# 2. A binary property list of the same entitlements.
"$TOOLS/plutil" -convert binary1 -o ledger.bplist src/ledger.plist

# 3. A provisioning profile: the plist in a CMS SignedData envelope (DER, content embedded), signed with a
#    throwaway EC key, the shape of embedded.mobileprovision.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=Fixture Signer" \
    -days 3650 -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
openssl cms -sign -nodetach -binary -md sha256 -signer "$work/cert.pem" -inkey "$work/key.pem" \
    -in src/profile.plist -outform DER -out embedded.mobileprovision

# 4. An iOS .app folder: binary Info.plist, the arm64 object file as its executable, the profile.
rm -rf Ledger.app
mkdir Ledger.app
"$TOOLS/plutil" -convert binary1 -o Ledger.app/Info.plist src/info.plist
cp ledger-arm64.o Ledger.app/Ledger
cp embedded.mobileprovision Ledger.app/embedded.mobileprovision
