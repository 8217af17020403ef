#!/usr/bin/env bash
# Core says things as a key with raw parameters (core/include/gpuplan/core/Reason.h); ui/wording words them, the
# CLI in English and the GUI in English or Chinese (translations-complete.sh holds every tr() string translated).
# Fails when:
#   1. a key core can emit ("excluded.budget", "probe.ecc.off", "note.high_end_capped") is not worded in
#      ui/wording: its literal appears nowhere there;
#   2. core builds a key at run time ("probe.error." + code): neither this check nor a reader can follow it;
#   3. ui/ reads core's text back: a regular expression in the wording (it words keys and parameters; it never
#      parses sentences);
#   4. core words an error itself ("error.front_end.text" is for the front ends' own messages);
#   5. a string literal of core holds English prose outside the developer log (prose-in-core.py).
set -u
root=${1:?usage: core-says-keys.sh SOURCE_DIR}
cd "$root" || exit 1
prefixes='reason|excluded|unknown|fit|efficiency|note|buy|probe|deploy|saved|error|figure|refresh|reconcile|ledger|step|unsupported|run'
status=0

mapfile -t keys < <(grep -rhoE "\"($prefixes)\.[a-z0-9_]+(\.[a-z0-9_]+)*\"" core --include='*.cpp' --include='*.h' \
    | sort -u)
[ "${#keys[@]}" -gt 100 ] || { echo "found only ${#keys[@]} keys in core: is this the source tree?"; exit 1; }
for key in "${keys[@]}"; do
    if ! grep -rqF -- "$key" ui/wording; then
        echo "not worded in ui/wording: $key"
        status=1
    fi
done

built=$(grep -rnE "\"($prefixes)\.[a-z0-9_.]*\.\"[[:space:]]*\+" core --include='*.cpp' --include='*.h')
if [ -n "$built" ]; then
    echo "core builds a key at run time (write each key as one literal):"
    echo "$built"
    status=1
fi

frontend=$(grep -rn '"error.front_end.text"' core --include='*.cpp' --include='*.h')
if [ -n "$frontend" ]; then
    echo "core words an error itself (say it as a key with parameters, worded in ui/wording/errors/):"
    echo "$frontend"
    status=1
fi
regex=$(grep -rn "QRegularExpression" ui/wording)
if [ -n "$regex" ]; then
    echo "ui/wording parses text (it words keys and parameters):"
    echo "$regex"
    status=1
fi

python3 "$(dirname "$0")/prose-in-core.py" . || status=1

[ "$status" -eq 0 ] && echo "${#keys[@]} keys from core, each worded in ui/wording; ui parses no core text; no prose in core"
exit "$status"
