#!/usr/bin/env bash
# Runs scripts/demo against the built binaries with a scratch folder as its home, and checks what a
# new user relies on: it exits 0; the replay reports what happened in the store, and each memory it
# says was created is really there (listed or archived); the store stays in the folder it names, with
# memories in it; and the output ends with the next steps. Writes nothing outside its scratch folder.
# Usage: demo.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build_dir=$1
source_dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TMPDIR="$work"

fail() {
    printf '%s\n' "$output" >&2
    echo "demo check failed: $1" >&2
    exit 1
}

demo_home="$work/demo-home"
store="$demo_home/starling"
output=$("$source_dir/scripts/demo" "$build_dir" "$demo_home" 2>&1) || { output+=$'\n'"exit $?"; fail "scripts/demo did not exit 0"; }

grep -qF "in $store ==" <<<"$output" || fail "the first section does not name the store folder $store"

# The step lines the replay prints, e.g. "  created    user/short/….md".
step_lines=$(grep -E '^  (created|promoted|merged|archived|reinforced|updated) +[^ ]+$' <<<"$output" || true)
grep -qE '^  created ' <<<"$step_lines" || fail "no replayed step reports a memory created"
grep -qE '^  (promoted|merged|archived) ' <<<"$step_lines" || fail "no replayed step reports a promotion, merge or archive"

# Every memory reported as created exists: still listed (maybe promoted) or in the archive.
export HOME="$demo_home" STARLING_HOME="$store"
starling="$build_dir/bin/starling"
known_keys=$( { "$starling" list --json --cwd /work/shop; "$starling" list --json --cwd /work/infra; "$starling" archive --json; } \
    | jq -r '.[].key')
while read -r key; do
    short_or_long="${key/\/short\//\/long\/}"
    grep -qxF -e "$key" -e "$short_or_long" <<<"$known_keys" || fail "the demo reported $key created, but the store has no such memory"
done < <(grep -E '^  created ' <<<"$step_lines" | awk '{print $2}')

[ "$("$starling" list --json --cwd /work/shop | jq length)" -gt 0 ] || fail "the store $store holds no memory of /work/shop"
find "$store/memory" -name '*.md' ! -name INDEX.md | grep -q . || fail "no memory file under $store/memory"

next_steps=$(sed -n '/== Next steps ==/,$p' <<<"$output")
[ -n "$next_steps" ] || fail "the output has no Next steps section"
grep -q '== ' <<<"$(tail -n +2 <<<"$next_steps")" && fail "Next steps is not the last section"
grep -qF "export STARLING_HOME=\"$store\"" <<<"$next_steps" || fail "Next steps does not say how to explore the store"
grep -qF 'make install PREFIX=' <<<"$next_steps" || fail "Next steps does not say how to install"
grep -qF 'starling install claude-code' <<<"$next_steps" || fail "Next steps does not say how to add the hooks to an agent"
echo "demo: $(wc -l <<<"$step_lines") step lines, store left in the named folder, next steps last"
