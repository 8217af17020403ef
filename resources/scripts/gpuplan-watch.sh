#!/usr/bin/env bash
# GPU Planner's spot interruption watcher: runs on a spot instance beside the training job that gpuplan-run.sh
# started (gpuplan-run.sh's `job` command starts it when the run's folder holds watch.conf), so that an interruption
# costs the run minutes, not its progress.
#
#   gpuplan-watch.sh DIR      watch the run in DIR until its job has ended; exits 0
#   gpuplan-watch.sh --help   this text
#
# DIR is the run's folder (see gpuplan-run.sh): job.sh, pid (the job's process group), exit-code once it has ended.
# DIR/watch.conf, a KEY=VALUE a line (no quoting; unknown keys are ignored; a bad value is said in watch.log and the
# default is used):
#   provider        aws | gcp | azure | alibaba | tencent | huawei | none (default none)
#   metadata_url    base URL of the instance metadata service (default: the provider's, see DEFAULT_URL below)
#   poll_seconds    how often the notice is polled, fractions allowed (default 5; azure 1, as Microsoft advises)
#   signal          the signal the job's process group gets on a notice (default USR1; any name `kill -s` takes)
#   checkpoint_dir  absolute path of the training's checkpoint folder
#   sync_seconds    push the checkpoint folder this often when it has changed; 0 = never (default 0)
#   push            absolute path of a script, run as `bash PUSH`, that copies checkpoint_dir to the run's bucket
#                   (exit 0 = synced)
#   lead_seconds    the notice's lead when its payload has no time, a shutdown's included (defaults: aws 120,
#                   alibaba 300, tencent 120, gcp 30, azure 30, huawei/none and a shutdown 25)
#
# The notice, by provider (sources cited beside each poll below):
#   aws      IMDSv2 token, then spot/instance-action (404 = none); events/recommendations/rebalance is a rebalance
#            recommendation: the checkpoint is pushed at once (reason rebalance), the job is not signalled
#   gcp      instance/preempted: FALSE / TRUE
#   azure    Scheduled Events: an event of EventType Preempt; acknowledged once the checkpoint is pushed
#   alibaba  hardened-mode token, then instance/spot/termination-time (404 = none)
#   tencent  spot/termination-time (404 = none), a time in UTC+8
#   huawei   no in-guest notice is documented: no polling
#   every provider: SIGTERM, SIGINT or SIGHUP to this watcher (systemd stopping the machine; GCP's ACPI soft-off) is
#   a notice of kind "shutdown"
# A metadata service that does not answer is no notice (said once in watch.log); a payload that does not read is a
# notice with the default lead (the instance is going), said in watch.log with what was received.
#
# On a notice (once): DIR/notice (KEY VALUE lines: provider, kind, action, seen, deadline, payload), DIR/preempt (the
# deadline; the training checks it through GPUPLAN_PREEMPT_FILE), the signal to the job's process group (DIR/signalled:
# time, signal, pgid, or "signal none"), a wait for DIR/checkpoint-ready (GPUPLAN_CHECKPOINT_READY) written after the
# notice or for the job's end, but no later than the deadline less a margin (twice the last push's duration, at least
# 5 s, at most half the time left), then the push (and Azure's acknowledgement). Polling and periodic pushes stop;
# the watcher waits for the job's end, pushes once more when the folder changed and time is left, and exits 0.
# Each push appends UNIX_START,UNIX_END,REASON,ok|failed,FILES to DIR/syncs.csv (REASON periodic, notice, rebalance
# or final; FILES the regular files in checkpoint_dir). Pushes run in a session of their own, so that polling goes
# on while a large checkpoint uploads. When the job ends on its own (DIR/exit-code), the watcher pushes one last time
# if the folder changed (reason final) and exits 0. DIR/watch.log has a line per event, UTC times.
set -u

usage() {
    sed -n '2,/^set -u$/{/^set -u$/d;s/^# \{0,1\}//;p}' "$0"
}

die() {
    echo "gpuplan-watch: $*" >&2
    exit 2
}

log() {
    local t
    # UTC whatever the machine's zone: TZ for this printf only.
    TZ=UTC printf -v t '%(%Y-%m-%dT%H:%M:%SZ)T' -1
    printf '%s %s\n' "$t" "$*" >>"$DIR/watch.log"
}

now() { # sets NOW to the unix time
    printf -v NOW '%(%s)T' -1
}

# What was received, for the log and the notice: the first line, control characters out, at most 200 bytes.
first_line() { # TEXT
    local s=${1%%$'\n'*}
    s=${s//[$'\001'-$'\037'$'\177']/ }
    LC_ALL=C printf '%.200s' "$s"
}

# --- internal: one push, in a session of its own ------------------------------------------------------------------
# gpuplan-watch.sh --push DIR PUSH REASON FILES: runs `bash PUSH`, appends its line to DIR/syncs.csv and writes
# "START END ok|failed" to DIR/.push-result. A TERM (the watcher cutting a periodic push short) counts as failed.
if [ "${1:-}" = --push ]; then
    DIR=$2
    push_script=$3 reason=$4 files=$5
    printf -v start '%(%s)T' -1
    # A TERM to this session reaches the push too; the handler keeps this shell alive to write the line.
    trap 'cut=1' TERM
    cut=0
    bash "$push_script" </dev/null >>"$DIR/push.log" 2>&1 &
    child=$!
    while :; do
        wait "$child"
        code=$?
        kill -0 "$child" 2>/dev/null || break
    done
    printf -v end '%(%s)T' -1
    status=failed
    [ "$code" -eq 0 ] && [ "$cut" -eq 0 ] && status=ok
    echo "$start,$end,$reason,$status,$files" >>"$DIR/syncs.csv"
    echo "$start $end $status" >"$DIR/.push-result.tmp" && mv "$DIR/.push-result.tmp" "$DIR/.push-result"
    exit 0
fi

case ${1:-} in
    --help | -h)
        usage
        exit 0
        ;;
    '') die "usage: gpuplan-watch.sh DIR (or --help)" ;;
esac
[ $# -eq 1 ] || die "usage: gpuplan-watch.sh DIR (or --help)"
DIR=$1
[ -d "$DIR" ] || die "no run folder $DIR"
SELF=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")

# --- watch.conf ---------------------------------------------------------------------------------------------------
declare -A DEFAULT_URL=(
    # source: https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/instancedata-data-retrieval.html
    [aws]=http://169.254.169.254
    # source: https://www.alibabacloud.com/help/en/ecs/user-guide/view-instance-metadata
    [alibaba]=http://100.100.100.200
    # source: https://www.tencentcloud.com/document/product/213/32487
    [tencent]=http://metadata.tencentyun.com
    # source: https://cloud.google.com/compute/docs/metadata/querying-metadata
    [gcp]=http://metadata.google.internal
    # source: https://learn.microsoft.com/en-us/azure/virtual-machines/linux/scheduled-events
    [azure]=http://169.254.169.254
)
declare -A DEFAULT_LEAD=([aws]=120 [alibaba]=300 [tencent]=120 [gcp]=30 [azure]=30 [huawei]=25 [none]=25)
SHUTDOWN_LEAD=25

PROVIDER=none METADATA_URL="" POLL="" SIGNAL=USR1 CHECKPOINT_DIR="" SYNC_SECONDS=0 PUSH="" LEAD=""

bad_value() { # KEY VALUE WHY
    log "watch.conf: $1=$(first_line "$2") is not $3; the default is used"
}

read_conf() {
    local line key value
    if [ ! -f "$DIR/watch.conf" ]; then
        log "watch.conf: missing; provider none, no periodic sync"
        return
    fi
    while IFS= read -r line || [ -n "$line" ]; do
        line=${line%$'\r'}
        case $line in '' | '#'*) continue ;; esac
        if [[ $line != *=* ]]; then
            log "watch.conf: line without '=' ignored: $(first_line "$line")"
            continue
        fi
        key=${line%%=*} value=${line#*=}
        # Blanks around the key and the value are not part of them.
        key=${key#"${key%%[![:space:]]*}"} key=${key%"${key##*[![:space:]]}"}
        value=${value#"${value%%[![:space:]]*}"} value=${value%"${value##*[![:space:]]}"}
        case $key in
            provider)
                case $value in
                    aws | gcp | azure | alibaba | tencent | huawei | none) PROVIDER=$value ;;
                    *) bad_value "$key" "$value" "a known provider" ;;
                esac
                ;;
            metadata_url)
                if [[ $value =~ ^https?://[^[:space:]]+$ ]]; then
                    METADATA_URL=${value%/}
                else
                    bad_value "$key" "$value" "an http URL"
                fi
                ;;
            poll_seconds)
                if [[ $value =~ ^[0-9]*\.?[0-9]+$ ]] && [[ $value =~ [1-9] ]] && [[ ! $value =~ \.[0-9]*\. ]]; then
                    POLL=$value
                else
                    bad_value "$key" "$value" "a positive number of seconds"
                fi
                ;;
            signal)
                if [[ $value =~ ^[A-Za-z0-9+-]+$ ]] && kill -l "$value" >/dev/null 2>&1; then
                    SIGNAL=${value#SIG}
                else
                    bad_value "$key" "$value" "a signal"
                fi
                ;;
            checkpoint_dir)
                if [[ $value == /* ]]; then CHECKPOINT_DIR=$value; else bad_value "$key" "$value" "an absolute path"; fi
                ;;
            sync_seconds)
                if [[ $value =~ ^[0-9]{1,7}$ ]]; then
                    SYNC_SECONDS=$((10#$value))
                else
                    bad_value "$key" "$value" "a whole number of seconds"
                fi
                ;;
            push)
                if [[ $value == /* ]]; then PUSH=$value; else bad_value "$key" "$value" "an absolute path"; fi
                ;;
            lead_seconds)
                if [[ $value =~ ^[0-9]{1,6}$ ]]; then
                    LEAD=$((10#$value))
                else
                    bad_value "$key" "$value" "a whole number of seconds"
                fi
                ;;
            *) log "watch.conf: unknown key $(first_line "$key") ignored" ;;
        esac
    done <"$DIR/watch.conf"
}

read_conf
[ -n "$METADATA_URL" ] || METADATA_URL=${DEFAULT_URL[$PROVIDER]:-}
if [ -z "$POLL" ]; then
    POLL=5
    # source: https://learn.microsoft.com/en-us/azure/virtual-machines/linux/scheduled-events ("poll ... every second")
    [ "$PROVIDER" = azure ] && POLL=1
fi
# A shutdown has no time either: lead_seconds, when watch.conf sets it, is its lead too.
[ -z "$LEAD" ] || SHUTDOWN_LEAD=$LEAD
[ -n "$LEAD" ] || LEAD=${DEFAULT_LEAD[$PROVIDER]}
if [ -n "$PUSH" ] && [ ! -f "$PUSH" ]; then
    log "push script $PUSH does not exist (yet): each push will fail until it does"
fi
if [ -n "$PUSH" ] && [ -z "$CHECKPOINT_DIR" ]; then
    log "push is set but checkpoint_dir is not: nothing to push"
    PUSH=""
fi
HAS_PYTHON=0
command -v python3 >/dev/null 2>&1 && HAS_PYTHON=1
# Testing only (tests/integration/spot_watcher): the sed and grep readers, as on an image without python3.
[ "${GPUPLAN_WATCH_NO_PYTHON:-0}" = 1 ] && HAS_PYTHON=0

# --- HTTP -----------------------------------------------------------------------------------------------------------
# fetch METHOD HEADERS_ARRAY_NAME URL...: one curl for all URLs (one process a poll). Sets CODES[i] and BODIES[i]
# (000 where nothing answered) and returns curl's exit status. Never through a proxy: the metadata service is
# link-local, and a proxy from the environment would answer for it.
MARK='#gpuplan-watch-status#'
fetch() {
    local method=$1
    local -n headers=$2
    shift 2
    local args=() h out rest i
    for h in "${headers[@]}"; do args+=(-H "$h"); done
    out=$(curl -s --noproxy '*' --connect-timeout 2 --max-time 2 -X "$method" "${args[@]}" \
        -w "\n$MARK %{http_code}\n" "$@" 2>/dev/null)
    local rc=$?
    CODES=() BODIES=()
    rest=$out
    for ((i = 0; i < $#; i++)); do
        if [[ $rest == *"$MARK "* ]]; then
            BODIES[i]=${rest%%$'\n'"$MARK "*}
            rest=${rest#*"$MARK "}
            CODES[i]=${rest%%$'\n'*}
            rest=${rest#*$'\n'}
        else
            BODIES[i]="" CODES[i]=000
        fi
    done
    return $rc
}

# The service's health, said once per change: "up", or why it is down.
SERVICE_STATE=unknown
service_down() { # WHY
    if [ "$SERVICE_STATE" != "down: $1" ]; then
        log "metadata service $METADATA_URL does not answer ($1): no notice; polling goes on"
        SERVICE_STATE="down: $1"
    fi
}
service_up() {
    if [ "$SERVICE_STATE" != up ]; then
        [ "$SERVICE_STATE" = unknown ] || log "metadata service $METADATA_URL answers again"
        SERVICE_STATE=up
    fi
}

# The outcome of a poll: N_STATE none | notice | down; for a notice N_ACTION, N_DEADLINE (unix s), N_PAYLOAD,
# N_EVENT (Azure's EventId).
N_STATE=none N_ACTION=- N_DEADLINE="" N_PAYLOAD="" N_EVENT=""
notice_found() { # ACTION DEADLINE PAYLOAD
    N_STATE=notice N_ACTION=$1 N_DEADLINE=$2 N_PAYLOAD=$3
}

# A time in a payload, to unix seconds, only in the form the provider documents (GNU date reads far more).
parse_time() { # FORM TEXT -> prints unix s, or fails
    local form=$1 t=$2
    case $form in
        iso-utc) [[ $t =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z$ ]] || return 1 ;;
        rfc1123) [[ $t =~ ^[A-Z][a-z]{2},\ [0-9]{1,2}\ [A-Z][a-z]{2}\ [0-9]{4}\ [0-9]{2}:[0-9]{2}:[0-9]{2}\ GMT$ ]] \
            || return 1 ;;
        beijing)
            [[ $t =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}\ [0-9]{2}:[0-9]{2}:[0-9]{2}$ ]] || return 1
            t="$t +0800"
            ;;
    esac
    date -u -d "$t" +%s 2>/dev/null
}

# A payload that does not read: said, and a notice with the default lead, since the instance is going.
unreadable() { # WHAT BODY
    now
    log "$1 does not read (received: $(first_line "$2")): taken as a notice with the default lead of ${LEAD}s"
    notice_found - $((NOW + LEAD)) "$2"
}

# One JSON string field of a flat object: python3 when present, else sed.
json_field() { # FIELD JSON -> prints the value, fails when absent or the JSON does not read
    if [ $HAS_PYTHON = 1 ]; then
        python3 -c 'import json,sys
d=json.loads(sys.argv[2])
v=d[sys.argv[1]] if isinstance(d,dict) else None
if not isinstance(v,str): sys.exit(1)
print(v)' "$1" "$2" 2>/dev/null
    else
        local v
        v=$(printf '%s' "$2" | tr -d '\n' | sed -n 's/.*"'"$1"'"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p')
        [ -n "$v" ] && [[ $2 =~ ^[[:space:]]*\{.*\}[[:space:]]*$ ]] && printf '%s\n' "$v"
    fi
}

# --- the providers' polls ---------------------------------------------------------------------------------------------
TOKEN="" TOKEN_AT=0 TOKEN_RETRY_AT=0
TOKEN_TTL=21600
TOKEN_WARNED=0
# IMDSv2 (AWS) and the hardened mode (Alibaba): a session token from a PUT, renewed 5 minutes before it expires
# and when a request is refused with it.
renew_token() { # TTL_HEADER
    local hdr=("$1: $TOKEN_TTL")
    fetch PUT hdr "$METADATA_URL/latest/api/token"
    now
    if [ "${CODES[0]}" = 200 ] && [ -n "${BODIES[0]}" ]; then
        TOKEN=${BODIES[0]} TOKEN_AT=$NOW
        return 0
    fi
    TOKEN=""
    # A service that answers but gives no token (IMDSv1, Alibaba's normal mode): asked again in 10 minutes.
    [ "${CODES[0]}" = 000 ] || TOKEN_RETRY_AT=$((NOW + 600))
    if [ "${CODES[0]}" != 000 ] && [ $TOKEN_WARNED = 0 ]; then
        log "metadata token request answered HTTP ${CODES[0]}: polling without a token"
        TOKEN_WARNED=1
    fi
    [ "${CODES[0]}" != 000 ]
}

token_poll() { # TTL_HEADER TOKEN_HEADER URL...: CODES/BODIES of the URLs with the token; 1 when nothing answered
    local ttl_header=$1 token_header=$2 hdr attempt
    shift 2
    for attempt in 1 2; do
        now
        if { [ -z "$TOKEN" ] && [ "$NOW" -ge "$TOKEN_RETRY_AT" ]; } \
            || { [ -n "$TOKEN" ] && [ $((NOW - TOKEN_AT)) -ge $((TOKEN_TTL - 300)) ]; }; then
            renew_token "$ttl_header" || return 1
        fi
        hdr=()
        [ -n "$TOKEN" ] && hdr=("$token_header: $TOKEN")
        fetch GET hdr "$@"
        # 401 (AWS) or 403 (Alibaba's hardened mode): the token expired or was refused; a new one, then again.
        if [ -n "$TOKEN" ] && { [ "${CODES[0]}" = 401 ] || [ "${CODES[0]}" = 403 ]; } && [ $attempt = 1 ]; then
            log "metadata service refused the token (HTTP ${CODES[0]}): a new one"
            TOKEN="" TOKEN_RETRY_AT=0
            continue
        fi
        break
    done
    [ "${CODES[0]}" != 000 ]
}

REBALANCE_SEEN=0
poll_aws() {
    # source: https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/spot-instance-termination-notices.html
    # source: https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/rebalance-recommendations.html
    # source: https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/configuring-instance-metadata-service.html
    local urls=("$METADATA_URL/latest/meta-data/spot/instance-action")
    [ $REBALANCE_SEEN = 0 ] && urls+=("$METADATA_URL/latest/meta-data/events/recommendations/rebalance")
    token_poll X-aws-ec2-metadata-token-ttl-seconds X-aws-ec2-metadata-token "${urls[@]}" || {
        service_down "no connection"
        return
    }
    if [ ${#urls[@]} -gt 1 ] && [ "${CODES[1]}" = 200 ]; then
        REBALANCE_SEEN=1
        local when
        when=$(json_field noticeTime "${BODIES[1]}") || when=-
        rebalance "$when" "${BODIES[1]}"
    fi
    case ${CODES[0]} in
        404) service_up ;;
        200)
            service_up
            local action time deadline
            if ! action=$(json_field action "${BODIES[0]}") || ! time=$(json_field time "${BODIES[0]}"); then
                unreadable "spot/instance-action" "${BODIES[0]}"
                return
            fi
            if ! deadline=$(parse_time iso-utc "$time"); then
                unreadable "spot/instance-action's time" "${BODIES[0]}"
                N_ACTION=$action
                return
            fi
            notice_found "$action" "$deadline" "${BODIES[0]}"
            ;;
        *) service_down "HTTP ${CODES[0]}" ;;
    esac
}

poll_gcp() {
    # source: https://cloud.google.com/compute/docs/instances/create-use-spot#detect-preemption
    # source: https://cloud.google.com/compute/docs/metadata/querying-metadata (Metadata-Flavor: Google)
    local hdr=("Metadata-Flavor: Google") body
    fetch GET hdr "$METADATA_URL/computeMetadata/v1/instance/preempted"
    case ${CODES[0]} in
        000) service_down "no connection" ;;
        200)
            service_up
            body=${BODIES[0]//[[:space:]]/}
            case ${body^^} in
                FALSE) ;;
                TRUE)
                    now
                    notice_found preempt $((NOW + LEAD)) "${BODIES[0]}"
                    ;;
                *) unreadable "instance/preempted" "${BODIES[0]}" ;;
            esac
            ;;
        *) service_down "HTTP ${CODES[0]}" ;;
    esac
}

AZURE_URL_PATH="/metadata/scheduledevents?api-version=2020-07-01"
poll_azure() {
    # source: https://learn.microsoft.com/en-us/azure/virtual-machines/linux/scheduled-events
    local hdr=("Metadata: true") found id notbefore deadline
    fetch GET hdr "$METADATA_URL$AZURE_URL_PATH"
    case ${CODES[0]} in
        000) service_down "no connection" ;;
        200)
            service_up
            found=$(azure_preempt "${BODIES[0]}")
            case $found in
                none) ;;
                preempt*)
                    IFS=$'\t' read -r _ id notbefore <<<"$found"
                    now
                    if [ -z "$notbefore" ]; then
                        deadline=$((NOW + LEAD))
                    elif ! deadline=$(parse_time rfc1123 "$notbefore"); then
                        log "Scheduled Events' NotBefore does not read ($(first_line "$notbefore")): default lead"
                        deadline=$((NOW + LEAD))
                    fi
                    notice_found preempt "$deadline" "${BODIES[0]}"
                    N_EVENT=$id
                    ;;
                *) unreadable "scheduledevents" "${BODIES[0]}" ;;
            esac
            ;;
        *) service_down "HTTP ${CODES[0]}" ;;
    esac
}

# The first event of EventType Preempt in a Scheduled Events document: "preempt<TAB>EventId<TAB>NotBefore", "none",
# or "bad" when the document does not read.
azure_preempt() { # JSON
    # The usual answer, no event at all, without starting python3 each second.
    local s='[[:space:]]*' empty
    empty="^$s\\{$s\"DocumentIncarnation\"$s:${s}[0-9]+$s,$s\"Events\"$s:$s\\[$s\\]$s\\}$s\$"
    if [[ $1 =~ $empty ]]; then
        echo none
        return
    fi
    if [ $HAS_PYTHON = 1 ]; then
        python3 -c 'import json,sys
try:
    d=json.loads(sys.argv[1]); ev=d["Events"]; assert isinstance(ev,list)
except Exception:
    print("bad"); sys.exit()
for e in ev:
    if isinstance(e,dict) and e.get("EventType")=="Preempt":
        print("preempt\t%s\t%s" % (str(e.get("EventId","")), str(e.get("NotBefore") or ""))); break
else:
    print("none")' "$1"
        return
    fi
    # Without python3: each event is a flat object (its only array holds strings), so one event a chunk after "{".
    [[ $1 =~ \"Events\"[[:space:]]*:[[:space:]]*\[ ]] || {
        echo bad
        return
    }
    local chunk id nb
    while IFS= read -r chunk || [ -n "$chunk" ]; do
        if [[ $chunk =~ \"EventType\"[[:space:]]*:[[:space:]]*\"Preempt\" ]]; then
            id="" nb=""
            [[ $chunk =~ \"EventId\"[[:space:]]*:[[:space:]]*\"([^\"]*)\" ]] && id=${BASH_REMATCH[1]}
            [[ $chunk =~ \"NotBefore\"[[:space:]]*:[[:space:]]*\"([^\"]*)\" ]] && nb=${BASH_REMATCH[1]}
            printf 'preempt\t%s\t%s\n' "$id" "$nb"
            return
        fi
    done < <(printf '%s' "$1" | tr -d '\n' | tr '{' '\n')
    echo none
}

azure_ack() { # EVENT_ID
    # source: https://learn.microsoft.com/en-us/azure/virtual-machines/linux/scheduled-events ("Start an event")
    local code
    if [[ ! $1 =~ ^[A-Za-z0-9-]{1,100}$ ]]; then
        log "Scheduled Event id $(first_line "$1") is not a GUID: not acknowledged"
        return
    fi
    # wire: the body Azure's Scheduled Events service reads to start (acknowledge) the event
    code=$(curl -s --noproxy '*' --connect-timeout 2 --max-time 5 -o /dev/null -w '%{http_code}' -X POST \
        -H "Metadata: true" -H "Content-Type: application/json" \
        --data "{\"StartRequests\":[{\"EventId\":\"$1\"}]}" "$METADATA_URL$AZURE_URL_PATH" 2>/dev/null)
    log "acknowledged Scheduled Event $1: HTTP ${code:-000}"
}

poll_alibaba() {
    # source: https://www.alibabacloud.com/help/en/ecs/user-guide/best-practices-for-preemptible-instances
    # source: https://www.alibabacloud.com/help/en/ecs/user-guide/view-instance-metadata (token TTL 1-21600 s)
    local deadline body
    token_poll X-aliyun-ecs-metadata-token-ttl-seconds X-aliyun-ecs-metadata-token \
        "$METADATA_URL/latest/meta-data/instance/spot/termination-time" || {
        service_down "no connection"
        return
    }
    case ${CODES[0]} in
        404) service_up ;;
        200)
            service_up
            body=${BODIES[0]//[[:space:]]/}
            if deadline=$(parse_time iso-utc "$body"); then
                notice_found terminate "$deadline" "${BODIES[0]}"
            else
                unreadable "instance/spot/termination-time" "${BODIES[0]}"
            fi
            ;;
        *) service_down "HTTP ${CODES[0]}" ;;
    esac
}

poll_tencent() {
    # source: https://www.tencentcloud.com/document/product/213/32487 (404 = none; the time is UTC+8)
    # shellcheck disable=SC2034 # fetch reads it by name
    local hdr=() deadline body
    fetch GET hdr "$METADATA_URL/latest/meta-data/spot/termination-time"
    case ${CODES[0]} in
        000) service_down "no connection" ;;
        404) service_up ;;
        200)
            service_up
            body=${BODIES[0]#"${BODIES[0]%%[![:space:]]*}"}
            body=${body%"${body##*[![:space:]]}"}
            if deadline=$(parse_time beijing "$body"); then
                notice_found terminate "$deadline" "${BODIES[0]}"
            else
                unreadable "spot/termination-time" "${BODIES[0]}"
            fi
            ;;
        *) service_down "HTTP ${CODES[0]}" ;;
    esac
}

poll() {
    N_STATE=none N_ACTION=- N_DEADLINE="" N_PAYLOAD="" N_EVENT=""
    case $PROVIDER in
        aws) poll_aws ;;
        gcp) poll_gcp ;;
        azure) poll_azure ;;
        alibaba) poll_alibaba ;;
        tencent) poll_tencent ;;
        *) ;; # huawei: no in-guest notice is documented; none: nothing to poll
    esac
}

# --- the job --------------------------------------------------------------------------------------------------------
job_pgid() { # prints the job's process group id, when DIR/pid names one
    local pid
    pid=$(cat "$DIR/pid" 2>/dev/null) || return 1
    [[ $pid =~ ^[0-9]+$ ]] && [ "$pid" -gt 1 ] && echo "$pid"
}

job_running() {
    local pgid
    pgid=$(job_pgid) && kill -0 -- "-$pgid" 2>/dev/null
}

# --- pushes ---------------------------------------------------------------------------------------------------------
PUSH_PID="" PUSH_SIGNATURE="" PUSH_REASON=""
PUSHED_SIGNATURE="" LAST_PUSH_SECONDS=0 LAST_PUSH_STATUS=""

# The checkpoint folder's state: "FILES NEWEST_MTIME" (0 0 when empty or absent).
signature() {
    find "$CHECKPOINT_DIR" -type f -printf '%T@\n' 2>/dev/null \
        | awk 'BEGIN { n = 0; m = 0 } { n++; if ($1 > m) m = $1 } END { printf "%d %s\n", n, m }'
}

start_push() { # REASON [SIGNATURE]
    [ -n "$PUSH" ] || return 1
    local sig=${2:-$(signature)}
    rm -f "$DIR/.push-result"
    setsid bash "$SELF" --push "$DIR" "$PUSH" "$1" "${sig%% *}" </dev/null >/dev/null 2>&1 &
    PUSH_PID=$! PUSH_SIGNATURE=$sig PUSH_REASON=$1
    log "push ($1) started: ${sig%% *} files"
}

# Collects a finished push: its duration for the margin, and what the bucket now holds.
reap_push() {
    [ -n "$PUSH_PID" ] || return 0
    kill -0 "$PUSH_PID" 2>/dev/null && return 1
    wait "$PUSH_PID" 2>/dev/null
    local start end status
    read -r start end status <"$DIR/.push-result" 2>/dev/null || status=failed
    if [ "$status" = ok ]; then
        PUSHED_SIGNATURE=$PUSH_SIGNATURE
        LAST_PUSH_SECONDS=$((end - start))
    fi
    LAST_PUSH_STATUS=$status
    log "push ($PUSH_REASON) $status${end:+ in $((end - start))s}"
    PUSH_PID=""
    return 0
}

wait_push() { # [UNTIL]: waits for the push in flight, at most until UNIX UNTIL
    while ! reap_push; do
        now
        [ -n "${1:-}" ] && [ "$NOW" -ge "$1" ] && return 1
        sleep 0.2
    done
}

cut_push() {
    [ -n "$PUSH_PID" ] || return 0
    log "push ($PUSH_REASON) in flight cut short for the notice's push"
    kill -TERM -- "-$PUSH_PID" 2>/dev/null
    wait_push
}

changed() { # true when the folder differs from what was last pushed
    [ -n "$PUSH" ] || return 1
    local sig
    sig=$(signature)
    [ "${sig%% *}" != 0 ] && [ "$sig" != "$PUSHED_SIGNATURE" ]
}

rebalance() { # NOTICE_TIME PAYLOAD
    now
    {
        echo "seen $NOW"
        echo "notice_time $1"
        echo "payload $(first_line "$2")"
    } >"$DIR/rebalance.tmp" && mv "$DIR/rebalance.tmp" "$DIR/rebalance"
    log "rebalance recommendation (noticeTime $1): the checkpoint is pushed now; no signal"
    if [ -n "$PUSH" ]; then
        cut_push
        start_push rebalance
    fi
}

# --- the notice -----------------------------------------------------------------------------------------------------
write_atomic() { # FILE TEXT
    printf '%s\n' "$2" >"$1.tmp" && mv "$1.tmp" "$1"
}

handle_notice() { # KIND ACTION DEADLINE PAYLOAD [EVENT_ID]
    local kind=$1 action=$2 deadline=$3 payload=$4 event=${5:-} seen pgid ready_before=0 margin until
    now
    seen=$NOW
    if [ "$deadline" -lt "$seen" ]; then
        log "the notice's deadline $deadline has passed already: acting at once"
        deadline=$seen
    fi
    # 1. The notice, for the desktop app and for a later look.
    write_atomic "$DIR/notice" "provider $PROVIDER
kind $kind
action $action
seen $seen
deadline $deadline
payload $(first_line "$payload")"
    log "notice: $kind ($PROVIDER, action $action), deadline in $((deadline - seen))s;" \
        "payload: $(first_line "$payload")"
    # 2. The marker the training checks between steps.
    write_atomic "$DIR/preempt" "$deadline"
    # 3. The signal to the job's process group (job.sh passes it to the training program only).
    [ -e "$DIR/checkpoint-ready" ] && ready_before=1
    if pgid=$(job_pgid) && kill -s "$SIGNAL" -- "-$pgid" 2>/dev/null; then
        write_atomic "$DIR/signalled" "time $seen
signal $SIGNAL
pgid $pgid"
        log "signalled $SIGNAL to the job's process group $pgid"
    else
        pgid=""
        write_atomic "$DIR/signalled" "time $seen
signal none"
        log "no job runs: nothing signalled"
    fi
    # 4. The checkpoint: DIR/checkpoint-ready newer than the notice, or the job's end; no later than the deadline
    #    less the margin a push needs.
    margin=$((2 * LAST_PUSH_SECONDS))
    [ $margin -ge 5 ] || margin=5
    [ $margin -le $(((deadline - seen) / 2)) ] || margin=$(((deadline - seen) / 2))
    until=$((deadline - margin))
    while :; do
        if [ -e "$DIR/checkpoint-ready" ] \
            && { [ $ready_before = 0 ] || [ "$DIR/checkpoint-ready" -nt "$DIR/notice" ]; }; then
            log "checkpoint ready"
            break
        fi
        if [ -n "$pgid" ] && ! kill -0 -- "-$pgid" 2>/dev/null; then
            log "the job has ended"
            break
        fi
        if [ -z "$pgid" ]; then break; fi
        now
        if [ "$NOW" -ge "$until" ]; then
            log "no checkpoint-ready by deadline - ${margin}s: pushing what there is"
            break
        fi
        sleep 0.2
    done
    # 5. The push, then Azure's acknowledgement (which lets the eviction start sooner).
    if [ -n "$PUSH" ]; then
        cut_push
        start_push notice
        wait_push
    else
        log "no push configured: nothing to sync"
    fi
    if [ -n "$event" ]; then
        if [ -z "$PUSH" ] || [ "$LAST_PUSH_STATUS" = ok ]; then
            azure_ack "$event"
        else
            log "the notice's push failed: Scheduled Event $event is not acknowledged (it starts at NotBefore)"
        fi
    fi
    NOTICE_DEADLINE=$deadline
}

# --- main loop --------------------------------------------------------------------------------------------------------
SHUTDOWN=0 SHUTDOWN_SIGNAL="" SLEEPER=""
on_signal() { # NAME
    SHUTDOWN=1 SHUTDOWN_SIGNAL=$1
    [ -n "$SLEEPER" ] && kill "$SLEEPER" 2>/dev/null
}
# systemd stopping the unit at shutdown, GCP's ACPI soft-off, a hang-up: a notice of kind shutdown.
trap 'on_signal SIGTERM' TERM
trap 'on_signal SIGINT' INT
trap 'on_signal SIGHUP' HUP

nap() { # SECONDS, cut short by a signal
    sleep "$1" &
    SLEEPER=$!
    wait "$SLEEPER" 2>/dev/null
    SLEEPER=""
}

final_push() {
    wait_push
    if changed; then
        start_push final
        wait_push
    fi
}

log "watching: provider $PROVIDER${METADATA_URL:+ at $METADATA_URL}, poll ${POLL}s, signal $SIGNAL," \
    "sync ${SYNC_SECONDS}s"
if ! command -v curl >/dev/null && [ "$PROVIDER" != huawei ] && [ "$PROVIDER" != none ]; then
    log "curl is missing on this machine: the provider's notice cannot be polled (only a shutdown is seen);" \
        "install curl"
fi
now
NEXT_SYNC=$((NOW + SYNC_SECONDS))
NOTICE_DEADLINE=""
GONE_SINCE=""
while :; do
    reap_push
    if [ $SHUTDOWN = 1 ]; then
        SHUTDOWN=0
        now
        handle_notice shutdown - $((NOW + SHUTDOWN_LEAD)) "$SHUTDOWN_SIGNAL to the watcher"
        break
    fi
    if [ -e "$DIR/exit-code" ]; then
        log "the job ended (exit code $(first_line "$(cat "$DIR/exit-code" 2>/dev/null)"))"
        final_push
        log "done"
        exit 0
    fi
    # A job whose supervisor died leaves no exit-code: its process group gone for 10 s counts as its end.
    if [ -e "$DIR/pid" ] && ! job_running; then
        now
        [ -n "$GONE_SINCE" ] || GONE_SINCE=$NOW
        if [ $((NOW - GONE_SINCE)) -ge 10 ] && [ ! -e "$DIR/exit-code" ]; then
            log "the job's process group is gone and no exit-code came"
            final_push
            log "done"
            exit 0
        fi
    else
        GONE_SINCE=""
    fi
    poll
    if [ "$N_STATE" = notice ]; then
        handle_notice termination "$N_ACTION" "$N_DEADLINE" "$N_PAYLOAD" "$N_EVENT"
        break
    fi
    if [ "$SYNC_SECONDS" -gt 0 ] && [ -n "$PUSH" ]; then
        now
        if [ "$NOW" -ge "$NEXT_SYNC" ]; then
            NEXT_SYNC=$((NOW + SYNC_SECONDS))
            [ -z "$PUSH_PID" ] && changed && start_push periodic
        fi
    fi
    nap "$POLL"
done

# After the notice: no more polls or periodic pushes; the job's end (or this watcher's own termination), a last
# push when the folder changed and the deadline has not passed, exit 0.
while :; do
    if [ $SHUTDOWN = 1 ]; then
        log "stopped after the notice"
        exit 0
    fi
    if [ -e "$DIR/exit-code" ] || ! job_running; then
        now
        if [ "$NOW" -lt "$NOTICE_DEADLINE" ] && changed; then
            start_push final
            wait_push "$NOTICE_DEADLINE"
        fi
        log "the job has ended after the notice; done"
        exit 0
    fi
    nap 0.5
done
