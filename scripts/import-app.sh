#!/bin/sh
# Imports a real app's identity and entitlements as an archived build: builds/ID/build.json and
# builds/ID/entitlements.plist, so the build can take part in `upgrade-runner entitlements diff` and
# in the gate's entitlements scenario.
#
# Usage: scripts/import-app.sh PATH.app ID [--builds DIR] [--stand-in PRODUCT] [--force]
#   --builds DIR         the builds folder (default: $UPGRADE_RUNNER_BUILDS, else ./builds)
#   --stand-in PRODUCT   the manifest's "executable": an automation build in the products folder
#                        (e.g. LedgerV3) that the gate installs under the real entitlements (the
#                        manifest says "standIn": true: its launches name the stand-in's build id). Without
#                        it the manifest names the app's own CFBundleExecutable, which cannot run on
#                        Linux: the build then works with `entitlements diff` only.
#   --force              replace an existing builds/ID
#
# Apple's tools are used where present (/usr/libexec/PlistBuddy or plutil for Info.plist,
# codesign for the signature's entitlements); otherwise, and for simulator builds whose ad hoc
# signature shows only (com.apple.security.)get-task-allow, the project's reader: `upgrade-runner entitlements show`
# ($UPGRADE_RUNNER, else upgrade-runner on PATH, else .build/debug/upgrade-runner).
# Exit codes: 0 written, 2 bad usage or input (one line on standard error).
set -eu

die() { printf 'error: %s\n' "$1" >&2; exit 2; }

[ $# -ge 2 ] || die "usage: scripts/import-app.sh PATH.app ID [--builds DIR] [--stand-in PRODUCT] [--force]"
app=${1%/}
id=$2
shift 2
builds=${UPGRADE_RUNNER_BUILDS:-builds}
stand_in=
force=
while [ $# -gt 0 ]; do
    case $1 in
        --builds) [ $# -ge 2 ] || die "--builds needs a folder"; builds=$2; shift 2 ;;
        --builds=*) builds=${1#--builds=}; shift ;;
        --stand-in) [ $# -ge 2 ] || die "--stand-in needs a product name"; stand_in=$2; shift 2 ;;
        --stand-in=*) stand_in=${1#--stand-in=}; shift ;;
        --force) force=1; shift ;;
        *) die "unknown option $1" ;;
    esac
done

case $id in
    ''|none|.*|*/*|*,*|*' '*|*-to-*) die "build id \"$id\" cannot name a build folder and a path" ;;
esac
[ -d "$app" ] || die "$app: no such .app folder"
info=$app/Info.plist
[ -f "$info" ] || info=$app/Contents/Info.plist
[ -f "$info" ] || die "$app: no Info.plist: not an app bundle"
target=$builds/$id
if [ -e "$target" ] && [ -z "$force" ]; then die "$target already exists (use --force to replace it)"; fi

script_dir=$(cd "$(dirname "$0")" && pwd)
runner=${UPGRADE_RUNNER:-}
if [ -z "$runner" ]; then
    if command -v upgrade-runner >/dev/null 2>&1; then runner=upgrade-runner
    else runner=$script_dir/../.build/debug/upgrade-runner
    fi
fi
have_runner() { command -v "$runner" >/dev/null 2>&1 || [ -x "$runner" ]; }

# One Info.plist key, or nothing when it is missing.
info_key() {
    if [ -x /usr/libexec/PlistBuddy ]; then
        /usr/libexec/PlistBuddy -c "Print :$1" "$info" 2>/dev/null || true
    elif command -v plutil >/dev/null 2>&1; then
        plutil -extract "$1" raw -o - "$info" 2>/dev/null || true
    else
        have_runner || die "no PlistBuddy, plutil or upgrade-runner to read $info (swift build, or set UPGRADE_RUNNER)"
        "$runner" entitlements show "$app" --info | sed -n "s/^$1=//p"
    fi
}

bundle_id=$(info_key CFBundleIdentifier)
short_version=$(info_key CFBundleShortVersionString)
version=$(info_key CFBundleVersion)
executable=$(info_key CFBundleExecutable)
[ -n "$bundle_id" ] || die "$info: CFBundleIdentifier is missing"
[ -n "$executable" ] || die "$info: CFBundleExecutable is missing"
[ -n "$short_version" ] || short_version=$version
if [ -z "$version" ]; then
    version=$short_version
    printf 'warning: %s: CFBundleVersion is missing; the build number is CFBundleShortVersionString (%s)\n' "$info" "$version" >&2
fi
case $version in
    ''|*[!0-9.]*|.*|*.|*..*) die "$info: build number \"$version\" is not dotted integers" ;;
esac

tmp=$(mktemp -d "${TMPDIR:-/tmp}/import-app.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# Entitlements: codesign's, unless it shows only an ad hoc signature's (com.apple.security.)get-task-allow (a simulator
# build keeps its real entitlements in the __TEXT,__entitlements section, which only our reader reads).
source=
if command -v codesign >/dev/null 2>&1 \
    && codesign -d --entitlements - --xml "$app" >"$tmp/codesign.plist" 2>/dev/null \
    && grep -q 'application-identifier' "$tmp/codesign.plist"; then
    if have_runner; then
        "$runner" entitlements show "$tmp/codesign.plist" >"$tmp/entitlements.plist"
    else
        cp "$tmp/codesign.plist" "$tmp/entitlements.plist"
    fi
    source=codesign
else
    have_runner || die "no codesign or upgrade-runner to read the entitlements of $app (swift build, or set UPGRADE_RUNNER)"
    "$runner" entitlements show "$app" >"$tmp/entitlements.plist" || exit 2
    source="upgrade-runner entitlements show"
fi

json_string() { printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g'; }
product=${stand_in:-$executable}
if [ -n "$stand_in" ]; then
    notes="imported from $(basename "$app") by scripts/import-app.sh ($source); runs the stand-in $stand_in under the app's entitlements"
else
    notes="imported from $(basename "$app") by scripts/import-app.sh ($source); $executable is an iOS executable: entitlements diff only"
fi
cat >"$tmp/build.json" <<JSON
{
  "id": "$(json_string "$id")",
  "bundleID": "$(json_string "$bundle_id")",
  "marketingVersion": "$(json_string "$short_version")",
  "buildNumber": "$(json_string "$version")",
  "executable": "$(json_string "$product")",
  "schemaVersion": 0,
  "entitlements": "entitlements.plist",
  "notes": "$(json_string "$notes")"$( [ -n "$stand_in" ] && printf ',\n  "standIn": true' )
}
JSON

mkdir -p "$builds"
rm -rf "$target"
mkdir "$target"
cp "$tmp/build.json" "$tmp/entitlements.plist" "$target/"
printf '%s\n' "$target"
