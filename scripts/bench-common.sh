# Sourced by scripts/bench, scripts/bench-ab and scripts/bench-fresh-home: what their stores and
# payloads share, so that every benchmark times the hooks on the same clock, project and payloads.

# The controllable clock of every generated store and hook run.
now=2026-11-22T09:00:00Z
# The generated project; it need not exist, hooks only use the path to find the project's memories.
project_dir=/work/app

use_home() { # HOME_DIRECTORY: every starling binary after this reads its store and config from here
    export HOME=$1 STARLING_HOME=$1/starling STARLING_NOW=$now
}

# The fixture with its session id replaced by SESSION, its directories by the generated project's and
# any file_path by READ_PATH (when given). Paths with characters that need JSON or sed escaping are
# refused.
make_payload() { # FIXTURE SESSION [READ_PATH]
    local original path read_path=()
    for path in "$project_dir" "${3:-}"; do
        [[ $path != *[\"\\\|\&]* ]] || { echo "${0##*/}: cannot put '$path' into a payload" >&2; exit 1; }
    done
    [ -z "${3:-}" ] || read_path=(-e "s|\"file_path\": *\"[^\"]*\"|\"file_path\": \"$3\"|")
    original=$(sed -n -E 's/.*"(conversation_id|session_id)": *"([^"]*)".*/\2/p' "$1")
    original=${original%%$'\n'*}
    sed -e "s|$original|$2|g" -e "s|/home/dev/app|$project_dir|g" \
        -e "s|\"cwd\": *\"[^\"]*\"|\"cwd\": \"$project_dir\"|" "${read_path[@]}" "$1"
}
