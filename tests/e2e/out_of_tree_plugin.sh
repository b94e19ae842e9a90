#!/usr/bin/env bash
# Installs Starling from a build tree into a scratch prefix, builds docs/examples/recency-policy
# against the installed SDK with find_package(Starling), and checks that the installed `starling`
# loads and lists it. Usage: out_of_tree_plugin.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build_dir=$1
source_dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
cmake -S "$source_dir/docs/examples/recency-policy" -B "$work/example" \
      -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/example" >/dev/null

module="$work/example/starling-recency.so"
test -f "$module" || { echo "example module was not built: $module" >&2; exit 1; }
exported=$(nm -D --defined-only "$module" | awk '{print $3}' | sort | tr '\n' ' ')
[ "$exported" = "starling_module starling_plugin_entry_recency " ] \
    || { echo "example module exports more than its entry points: $exported" >&2; exit 1; }
manifest="$work/example/starling-recency.json"
grep -q '"recency"' "$manifest" || { echo "example module has no manifest naming it: $manifest" >&2; exit 1; }

mkdir -p "$work/home/plugins"
cp "$module" "$manifest" "$work/home/plugins/"
listing=$(HOME="$work" STARLING_HOME="$work/home" "$work/prefix/bin/starling" plugins)
echo "$listing"
grep -Eq "^relevance +recency +1\.0\.0 +$work/home/plugins/starling-recency\.so$" <<<"$listing" \
    || { echo "the installed starling does not list the example plugin" >&2; exit 1; }

settings=$(HOME="$work" STARLING_HOME="$work/home" "$work/prefix/bin/starling" config show)
grep -q '^\[settings.recency\]' <<<"$settings" && grep -q '^half_life_days = 14' <<<"$settings" \
    || { echo "config show lacks the example plugin's settings" >&2; exit 1; }
echo "out-of-tree example plugin: built against the installed SDK and listed"
