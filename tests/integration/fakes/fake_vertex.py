#!/usr/bin/env python3
"""A FAKE of Vertex AI custom jobs and of Cloud Logging's entries:list (with the OAuth 2.0 token endpoint of a service
account) for GPU Planner's managed job tests.

It is not Google Cloud: it answers the calls core/cloud/providers/gcp/VertexJobs.cpp makes (and those the official SDKs
@google-cloud/aiplatform 6.11.0 JobServiceClient and @google-cloud/logging 11.4.0 LoggingServiceV2Client make for the
same operations in their REST fallback), on one loopback port, in the documented JSON shapes, and it produces on demand
the faults a real service will not (throttling, a dropped answer, a quota refusal, a failed job, a job that is not
visible yet).

    python3 fake_vertex.py --port-file FILE [--client-email EMAIL --public-key-file PEM] [--running-after N]
                           [--finish-after N]

Defaults: client email gpuplan-test@gpuplan-test.iam.gserviceaccount.com, public key
tests/data/test-service-account-key.pub.pem (its private half is tests/data/test-service-account-key.pem; as
fake_gce.py), --running-after 1, --finish-after 2 (0: the job runs until it is cancelled). --access-key-id and
--secret-key are accepted and ignored (FakeCloud.h passes them to every fake by default). Binds 127.0.0.1 on a free
port, writes the port to FILE (FILE.tmp, then renamed), serves until killed (ThreadingHTTPServer, HTTP/1.1).

Where the shapes come from
- Paths, methods, JSON names and enum values: the SDK's protos (tests/integration/sdk/node_modules/@google-cloud/
  aiplatform/build/protos/google/cloud/aiplatform/v1: job_service.proto (the http rules of CreateCustomJob,
  GetCustomJob, ListCustomJobs, CancelCustomJob; ListCustomJobsRequest.filter's documented fields), custom_job.proto,
  machine_resources.proto, accelerator_type.proto, env_var.proto, job_state.proto; @google-cloud/logging-api's
  google/logging/v2/logging.proto ListLogEntriesRequest) and the REST references
  https://cloud.google.com/vertex-ai/docs/reference/rest/v1/projects.locations.customJobs and
  https://cloud.google.com/logging/docs/reference/v2/rest/v2/entries/list (LogEntry: .../rest/v2/LogEntry).
  Captured from the SDKs here: with `fallback: true` they send POST .../customJobs with the CustomJob (enums as numbers,
  int64 replicaCount as a string, Duration "3600s", the output-only webAccessUris {}), GET .../customJobs/{id},
  GET .../customJobs?filter=..., POST .../customJobs/{id}:cancel with {}, POST /v2/entries:list, each with the query
  $alt=json;enum-encoding=int. Answers are in the shapes of tests/data/cloud/vertex (job_*.json, list_page*.json,
  entries.json); names carry the project NUMBER as Vertex's do; int32 counts are numbers, Timestamps RFC 3339 in UTC
  ("Z") with 6 fractional digits (log entries: 9).
- Token: as fake_gce.py (the JWT bearer grant, RS256 verified with --public-key-file, its error answers); the scope
  must be https://www.googleapis.com/auth/cloud-platform (Vertex AI takes no narrower one).
- Errors: {"error": {"code", "message", "status", "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
  "reason", "domain", "metadata"}]}} (https://cloud.google.com/apis/design/errors). The 429 training quota body is
  error_quota.json's (quoted from gcloud, provider_launch_apis.md 9.1); the metric per GPU (custom_model_training_
  nvidia_l4_gpus, ..._nvidia_t4_gpus, ..._nvidia_a100_gpus, ..._nvidia_a100_80gb_gpus, ..._nvidia_h100_gpus, ...;
  "preemptible_" after "custom_model_training_" for SPOT) follows Vertex AI's quota names
  (https://cloud.google.com/vertex-ai/docs/quotas), plausible per GPU. The rate limit (throttle) is Google's standard
  RATE_LIMIT_EXCEEDED body ("Quota exceeded for quota metric '...' and limit '...' of service '...' for consumer
  'project_number:N'.", ErrorInfo metadata service, quota_metric, quota_limit, consumer), the metric names plausible.
  The permission and disabled-API bodies: error_permission.json and error_service_disabled.json. A cancel of an ended
  job: error_cancel_finished.json (400 FAILED_PRECONDITION). A missing job: 404 NOT_FOUND "The CustomJob does not
  exist." (error_not_found.json). An unknown JSON member: 400 INVALID_ARGUMENT "Invalid JSON payload received. Unknown
  name \"x\" at 'custom_job.job_spec': Cannot find field." (the ESF's proto3 JSON parser); a required field missing:
  "List of found errors:\\t1.Field: custom_job.display_name; Message: Required field is not set.\\t" (Vertex's
  validation form). Texts not quoted from a source are plausible.

Behaviour
- Auth. POST /token: as fake_gce.py. Every API call needs "Authorization: Bearer <a token this fake issued, not
  expired>", else 401 UNAUTHENTICATED "Request had invalid authentication credentials. ..." (error_unauthenticated).
- Paths: /aiplatform/v1/... (GPU Planner with its endpoint override E: E + "/aiplatform/v1") and /v1/... (the SDK with
  apiEndpoint 127.0.0.1) for Vertex AI; /logging/v2/entries:list and /v2/entries:list for Cloud Logging. Every project
  in a path is accepted (its number too, once it was named by id); jobs are per project and region. The region must
  look like one (us-central1), else 400 INVALID_ARGUMENT.
- customJobs.create (POST /v1/projects/{p}/locations/{r}/customJobs): the CustomJob's members are checked against the
  protos (an unknown one: 400 as above); displayName, jobSpec.workerPoolSpecs (>= 1), each pool's machineSpec.
  machineType (a G2, A2, A3 or N1 type) and containerSpec.imageUri are required; acceleratorType (name or number) must
  be the type's own GPU (g2-standard-N: NVIDIA_L4, a2-highgpu: NVIDIA_TESLA_A100, a2-ultragpu: NVIDIA_A100_80GB,
  a3-highgpu-8g: NVIDIA_H100_80GB, a3-ultragpu-8g: NVIDIA_H200_141GB, with its count) or, for N1, one of
  NVIDIA_TESLA_T4/V100/P100/P4 with a count of 1, 2, 4 (V100 also 8); replicaCount (string or number) >= 1; labels as
  GCE's (keys [a-z][a-z0-9_-]{0,62}, values [a-z0-9_-]{0,63}, at most 64); scheduling.timeout a Duration ("7200s"),
  scheduling.strategy a Strategy name or number. The job is created at once: id a 19-digit number, name
  projects/{project number}/locations/{r}/customJobs/{id}, state JOB_STATE_QUEUED, createTime/updateTime, labels and
  jobSpec as received (enums as names, replicaCount as a string). customJobs.create takes no request id: a resend
  creates a second job.
- The lifecycle advances with the gets of the job (customJobs.get advances it, then shows it; a list shows the jobs
  as they are, it advances none):
    QUEUED -> PENDING on each of the first `running_after` gets (--running-after, default 1), then RUNNING on the next
    (startTime set; the log gets "gpuplan-fake: job <id> started: <the container command and args joined with
    spaces>" then "step 1"); RUNNING -> RUNNING on each get until `finish_after` gets showed it RUNNING (the log gets
    "step <k>" for each), then SUCCEEDED on the next (endTime; the log gets "done"). finish_after 0: it runs (and
    logs steps) until cancelled. A failing job (fault fail_job) reads JOB_STATE_FAILED on the get after the one that
    first showed it RUNNING, with error {"code": 3, "message": "The replica workerpool0-0 exited with a non-zero status
    of 1. ..."} (job_failed.json) and the log line "gpuplan-fake: job <id> failed: <message>".
  So by default: create QUEUED, get PENDING, get RUNNING, get RUNNING, get SUCCEEDED.
- customJobs.cancel (POST .../customJobs/{id}:cancel, body {} or none): a job not ended reads JOB_STATE_CANCELLING
  (in lists and /_fake/state; its log gets "gpuplan-fake: job <id> cancel requested" when it had started), and
  JOB_STATE_CANCELLED (endTime; error {"code": 1, "message": "CANCELED"}: code 1 as job_service.proto's
  CancelCustomJob documents it, the message plausible) on its next get; answers {} (google.protobuf.Empty). An ended
  job: 400 FAILED_PRECONDITION; a missing one: 404. A second cancel of a cancelling job: {} again.
- customJobs.list (GET .../customJobs[?filter=&pageSize=&pageToken=]): the jobs of the project and region in creation
  order; filter as ListCustomJobsRequest documents it (AIP-160: display_name =, != and ":" (a trailing * a prefix),
  state =, !=, create_time comparisons with RFC 3339, labels.key=value, labels.key:*; AND, OR, NOT, "-", parentheses;
  values quoted or not); another field or a syntax error: 400 INVALID_ARGUMENT "Unsupported filter: ...". pageSize
  (default the fault page_size, 100), pageToken opaque; nextPageToken when more follow. Nothing: {}.
- customJobs.get (GET .../customJobs/{id}): the job (advanced as above), 404 when absent or in another region.
- entries.list (POST /v2/entries:list {resourceNames ["projects/<p>"] (required), filter, orderBy "timestamp asc"
  (default) | "timestamp desc", pageSize (default 50, at most 1000; negative: 400), pageToken}): the project's job log
  entries that match the filter: Cloud Logging's query language for the comparisons of resource.type,
  resource.labels.<k>, labels.<k>, logName, insertId, severity, textPayload (=, !=, ":" has) and timestamp /
  receiveTimestamp (=, !=, <, <=, >, >= by time), joined with AND (or juxtaposed), OR, NOT and parentheses. Each entry:
  {"insertId" (increasing), "logName": "projects/<p>/logs/workerpool0-0", "resource": {"type": "ml_job", "labels":
  {"job_id", "project_id", "task_name": "workerpool0-0"}}, "timestamp" (RFC 3339 with nanoseconds, strictly increasing
  over the fake's life), "receiveTimestamp", "severity": "INFO", "textPayload": the line}. Nothing: {}.
- With the query $alt=json;enum-encoding=int (the SDKs) enums are answered as numbers (state, acceleratorType,
  strategy), as Google answers that request; without it, as names.
- Unknown paths: 404 NOT_FOUND "The requested URL was not found on this server."

Control (not part of the API)
- GET /_fake/state: {"jobs": [{"id" (the numeric id), "name", "displayName", "state", "labels", "jobSpec" (as
  received, enums as names), "cancel_requested", "client_token" (the gpuplanner-token label), "project", "region",
  "error", "log" (the job's lines), "body" (the create's body exactly as received)}], "requests": [{"method", "path"}]
  (every request but the control ones, in order), "calls": [{"action" (token, customJobs.create, customJobs.get,
  customJobs.list, customJobs.cancel, entries.list, unknown), "method", "path", "params" (the query, decoded), "body"}],
  "faults"}.
- POST /_fake/faults (JSON merged into the faults; a count also takes true for 1):
  throttle N           the next N API calls (not the token) answer 429 RESOURCE_EXHAUSTED RATE_LIMIT_EXCEEDED (the
                       rate limit of aiplatform.googleapis.com, or of logging.googleapis.com for entries.list);
  drop_after_accept N  the next N creates create the job, then close the connection without an answer;
  quota N | "metric"   the next N creates answer 429 RESOURCE_EXHAUSTED "The following quota metrics exceed quota
                       limits: aiplatform.googleapis.com/<metric of the job's GPU>" (or that metric) and create nothing;
  fail_job N | "token" the next N jobs created (or the job whose gpuplanner-token label or displayName is "token")
                       fail as above;
  invisible_s S        for S s after its create, a job answers 404 to get and cancel and is left out of lists (eventual
                       consistency);
  unauthorized [actions]  those calls answer 403 PERMISSION_DENIED IAM_PERMISSION_DENIED "Permission '<permission>'
                       denied on resource '//aiplatform.googleapis.com/projects/<p>/locations/<r>' (or it may not
                       exist).";
  api_disabled         every API call answers 403 SERVICE_DISABLED "Vertex AI API has not been used in project <n> ...";
  running_after N, finish_after N   the knobs above, for the jobs' next steps;
  page_size N          jobs per list page when the request names none.
"""

import argparse
import base64
import calendar
import datetime
import hashlib
import json
import os
import random
import re
import socket
import sys
import threading
import time
import uuid
from urllib.parse import parse_qsl, unquote

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fake_gce  # noqa: E402  (its RS256 check, PEM reader and handler plumbing, shared with the Compute Engine fake)

DEFAULT_KEY = fake_gce.DEFAULT_KEY
DEFAULT_EMAIL = fake_gce.DEFAULT_EMAIL
GOOGLE_TOKEN_URL = fake_gce.GOOGLE_TOKEN_URL
GRANT_TYPE = fake_gce.GRANT_TYPE
SCOPE = "https://www.googleapis.com/auth/cloud-platform"
OWNER_LABEL = "gpuplanner-token"
LABEL_KEY_RE = re.compile(r"^[a-z][a-z0-9_-]{0,62}$")
LABEL_VALUE_RE = re.compile(r"^[a-z0-9_-]{0,63}$")
REGION_RE = re.compile(r"^[a-z]+-[a-z]+[0-9]+$")
DURATION_RE = re.compile(r"^-?\d+(\.\d{1,9})?s$")

# Enums of the v1 protos (accelerator_type.proto, job_state.proto, custom_job.proto Scheduling.Strategy).
ACCELERATOR_TYPES = {"ACCELERATOR_TYPE_UNSPECIFIED": 0, "NVIDIA_TESLA_K80": 1, "NVIDIA_TESLA_P100": 2,
                     "NVIDIA_TESLA_V100": 3, "NVIDIA_TESLA_P4": 4, "NVIDIA_TESLA_T4": 5, "NVIDIA_TESLA_A100": 8,
                     "NVIDIA_A100_80GB": 9, "NVIDIA_L4": 11, "NVIDIA_H100_80GB": 13, "NVIDIA_H100_MEGA_80GB": 14,
                     "NVIDIA_H200_141GB": 15, "NVIDIA_B200": 16, "NVIDIA_GB200": 17, "NVIDIA_RTX_PRO_6000": 18,
                     "TPU_V2": 6, "TPU_V3": 7, "TPU_V4_POD": 10, "TPU_V5_LITEPOD": 12}
JOB_STATES = {"JOB_STATE_UNSPECIFIED": 0, "JOB_STATE_QUEUED": 1, "JOB_STATE_PENDING": 2, "JOB_STATE_RUNNING": 3,
              "JOB_STATE_SUCCEEDED": 4, "JOB_STATE_FAILED": 5, "JOB_STATE_CANCELLING": 6, "JOB_STATE_CANCELLED": 7,
              "JOB_STATE_PAUSED": 8, "JOB_STATE_EXPIRED": 9, "JOB_STATE_UPDATING": 10,
              "JOB_STATE_PARTIALLY_SUCCEEDED": 11}
STRATEGIES = {"STRATEGY_UNSPECIFIED": 0, "ON_DEMAND": 1, "LOW_COST": 2, "STANDARD": 3, "SPOT": 4, "FLEX_START": 6}
ENDED = ("JOB_STATE_SUCCEEDED", "JOB_STATE_FAILED", "JOB_STATE_CANCELLED", "JOB_STATE_EXPIRED",
         "JOB_STATE_PARTIALLY_SUCCEEDED")

# The members of each message (the protos' field names; proto3 JSON takes the lowerCamel and the original name).
MESSAGES = {
    "CustomJob": ["name", "display_name", "job_spec", "state", "create_time", "start_time", "end_time", "update_time",
                  "error", "labels", "encryption_spec", "web_access_uris", "satisfies_pzs", "satisfies_pzi"],
    "CustomJobSpec": ["persistent_resource_id", "worker_pool_specs", "scheduling", "service_account", "network",
                      "reserved_ip_ranges", "psc_interface_config", "base_output_directory",
                      "protected_artifact_location_id", "tensorboard", "enable_web_access", "enable_dashboard_access",
                      "experiment", "experiment_run", "models"],
    # container_spec and python_package_spec are the oneof task of WorkerPoolSpec
    "WorkerPoolSpec": ["container_spec", "python_package_spec", "machine_spec", "replica_count", "nfs_mounts",
                       "lustre_mounts", "disk_spec"],
    "ContainerSpec": ["image_uri", "command", "args", "env"],
    "Scheduling": ["timeout", "restart_job_on_worker_restart", "strategy", "disable_retries", "max_wait_duration"],
    "MachineSpec": ["machine_type", "accelerator_type", "accelerator_count", "gpu_partition_size", "tpu_topology",
                    "reservation_affinity"],
    "DiskSpec": ["boot_disk_type", "boot_disk_size_gb"],
    "EnvVar": ["name", "value"],
}
ENTRIES_REQUEST = ["resource_names", "filter", "order_by", "page_size", "page_token", "project_ids"]

# N1 GPUs and the counts Compute Engine allows on N1 (https://cloud.google.com/compute/docs/gpus).
N1_GPUS = {"NVIDIA_TESLA_T4": (1, 2, 4), "NVIDIA_TESLA_P100": (1, 2, 4), "NVIDIA_TESLA_P4": (1, 2, 4),
           "NVIDIA_TESLA_V100": (1, 2, 4, 8)}
# The quota metric's GPU part per accelerator (custom_model_training_<part>_gpus).
QUOTA_GPU = {"NVIDIA_L4": "nvidia_l4", "NVIDIA_TESLA_T4": "nvidia_t4", "NVIDIA_TESLA_V100": "nvidia_v100",
             "NVIDIA_TESLA_P100": "nvidia_p100", "NVIDIA_TESLA_P4": "nvidia_p4", "NVIDIA_TESLA_A100": "nvidia_a100",
             "NVIDIA_A100_80GB": "nvidia_a100_80gb", "NVIDIA_H100_80GB": "nvidia_h100",
             "NVIDIA_H200_141GB": "nvidia_h200"}
PERMISSIONS = {"customJobs.create": "aiplatform.customJobs.create", "customJobs.get": "aiplatform.customJobs.get",
               "customJobs.list": "aiplatform.customJobs.list", "customJobs.cancel": "aiplatform.customJobs.cancel",
               "entries.list": "logging.logEntries.list"}
FAILED_MESSAGE = ("The replica workerpool0-0 exited with a non-zero status of 1. To find out more about why your job "
                  "exited please check the logs: https://console.cloud.google.com/logs/viewer")


def builtin_gpus(machine_type):
    """(accelerator type, count) of a G2/A2/A3 type, None for N1, False for an unknown type."""
    m = re.match(r"^g2-standard-(\d+)$", machine_type)
    if m:
        count = {4: 1, 8: 1, 12: 1, 16: 1, 32: 1, 24: 2, 48: 4, 96: 8}.get(int(m.group(1)))
        return ("NVIDIA_L4", count) if count else False
    m = re.match(r"^a2-(highgpu|ultragpu)-(\d+)g$", machine_type)
    if m and int(m.group(2)) in (1, 2, 4, 8):
        return ("NVIDIA_TESLA_A100" if m.group(1) == "highgpu" else "NVIDIA_A100_80GB", int(m.group(2)))
    if machine_type == "a2-megagpu-16g":
        return ("NVIDIA_TESLA_A100", 16)
    if machine_type == "a3-highgpu-8g":
        return ("NVIDIA_H100_80GB", 8)
    if machine_type == "a3-ultragpu-8g":
        return ("NVIDIA_H200_141GB", 8)
    if re.match(r"^n1-(standard|highmem|highcpu)-(1|2|4|8|16|32|64|96)$", machine_type):
        return None
    return False


def camel(name):
    head, *rest = name.split("_")
    return head + "".join(p.capitalize() for p in rest)


def rfc3339(t=None, digits=6):
    """Vertex's timestamps: UTC, "Z", 6 fractional digits (entries: 9, from nanoseconds)."""
    if digits == 9:
        ns = t
        seconds, nanos = divmod(ns, 10 ** 9)
        base = datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
        return "%s.%09dZ" % (base, nanos)
    t = time.time() if t is None else t
    d = datetime.datetime.fromtimestamp(t, datetime.timezone.utc)
    return d.strftime("%Y-%m-%dT%H:%M:%S.") + "%06dZ" % d.microsecond


def parse_time_ns(text):
    """Nanoseconds since the epoch of an RFC 3339 date-time; None when it is not one."""
    m = re.match(r"^(\d{4})-(\d\d)-(\d\d)[Tt](\d\d):(\d\d):(\d\d)(\.\d{1,9})?([Zz]|[+-]\d\d:\d\d)$", text or "")
    if not m:
        return None
    seconds = calendar.timegm(tuple(int(m.group(i)) for i in range(1, 7)))
    zone = m.group(8)
    if zone not in ("Z", "z"):
        sign = 1 if zone[0] == "+" else -1
        seconds -= sign * (int(zone[1:3]) * 3600 + int(zone[4:6]) * 60)
    frac = (m.group(7) or ".")[1:]
    return seconds * 10 ** 9 + int((frac + "000000000")[:9])


def count_of(value):
    if value is True:
        return 1
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return int(value)
    return 0


ApiError = fake_gce.ApiError  # the handler's plumbing (fake_gce.GoogleHandlerBase) answers it


def google_error(code, status, message, details=None):
    error = {"code": code, "message": message, "status": status}
    if details:
        error["details"] = details
    return ApiError(code, {"error": error})


def error_info(reason, domain, metadata):
    return {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": reason, "domain": domain,
            "metadata": metadata}


def invalid(message, field=None):
    details = None
    if field:
        details = [{"@type": "type.googleapis.com/google.rpc.BadRequest",
                    "fieldViolations": [{"field": field, "description": message}]}]
    return google_error(400, "INVALID_ARGUMENT", message, details)


def required(field):
    return invalid("List of found errors:\t1.Field: %s; Message: Required field is not set.\t" % field, field)


def not_found():
    return google_error(404, "NOT_FOUND", "The CustomJob does not exist.")


def token_error(error, description):
    return ApiError(400, {"error": error, "error_description": description})


# ---- filters: the AIP-160 subset of ListCustomJobsRequest.filter and Cloud Logging's query language, as one parser
# (expression: sequences joined by AND; sequence: factors side by side, an implicit AND; factor: terms joined by OR;
# term: [NOT | -] ( "(" expression ")" | field op value )).

class FilterError(Exception):
    pass


TOKEN_RE = re.compile(r'\s*(?:(?P<lp>\()|(?P<rp>\))|(?P<op>>=|<=|!=|=|>|<|:)|(?P<str>"(?:[^"\\]|\\.)*")|'
                      r'(?P<word>[^\s()"=<>!:]+))')


class Filter:
    def __init__(self, text):
        self.text = text or ""
        self.at = 0

    def peek(self):
        m = TOKEN_RE.match(self.text, self.at)
        return m if m and m.end() > self.at and m.lastgroup else None

    def take(self):
        m = self.peek()
        if m is None:
            raise FilterError("unexpected text at %d" % self.at)
        self.at = m.end()
        return m

    def at_end(self):
        return self.text[self.at:].strip() == ""

    def value(self):
        """A comparison's value: a quoted string, or the text up to a space or a parenthesis."""
        rest = self.text[self.at:]
        stripped = rest.lstrip()
        start = self.at + len(rest) - len(stripped)
        if stripped.startswith('"'):
            m = re.match(r'"(?:[^"\\]|\\.)*"', stripped)
            if not m:
                raise FilterError("an unterminated string")
            self.at = start + m.end()
            return json.loads(m.group(0))
        m = re.match(r"[^\s()]+", stripped)
        if not m:
            raise FilterError("a comparison without a value")
        self.at = start + m.end()
        return m.group(0)

    def parse(self):
        if self.at_end():
            return ("true",)
        tree = self.expression()
        if not self.at_end():
            raise FilterError("unexpected text at %d" % self.at)
        return tree

    def expression(self):
        parts = [self.sequence()]
        while True:
            m = self.peek()
            if m and m.lastgroup == "word" and m.group("word") == "AND":
                self.take()
                parts.append(self.sequence())
            else:
                return ("and", parts)

    def sequence(self):
        parts = [self.factor()]
        while True:
            m = self.peek()
            if m is None or m.lastgroup == "rp" or (m.lastgroup == "word" and m.group("word") == "AND"):
                return ("and", parts)
            parts.append(self.factor())

    def factor(self):
        parts = [self.term()]
        while True:
            m = self.peek()
            if m and m.lastgroup == "word" and m.group("word") == "OR":
                self.take()
                parts.append(self.term())
            else:
                return ("or", parts)

    def term(self):
        m = self.take()
        if m.lastgroup == "word" and (m.group("word") == "NOT" or m.group("word") == "-"):
            return ("not", self.term())
        if m.lastgroup == "word" and m.group("word").startswith("-") and len(m.group("word")) > 1:
            self.at = m.start("word") + 1
            return ("not", self.term())
        if m.lastgroup == "lp":
            inner = self.expression()
            if self.take().lastgroup != "rp":
                raise FilterError("a parenthesis is not closed")
            return inner
        if m.lastgroup != "word":
            raise FilterError("a comparison must start with a field")
        field = m.group("word")
        op = self.take()
        if op.lastgroup != "op":
            raise FilterError("no operator after " + field)
        return ("cmp", field, op.group("op"), self.value())


def evaluate(tree, lookup):
    """lookup(field, op, value) -> bool for one comparison (FilterError for a field that is not supported)."""
    kind = tree[0]
    if kind == "true":
        return True
    if kind == "and":
        return all(evaluate(t, lookup) for t in tree[1])
    if kind == "or":
        return any(evaluate(t, lookup) for t in tree[1])
    if kind == "not":
        return not evaluate(tree[1], lookup)
    return lookup(tree[1], tree[2], tree[3])


def compare_text(got, op, value, wildcard_prefix=False):
    if op == ":":
        if value == "*":
            return got is not None
        if got is None:
            return False
        if wildcard_prefix and value.endswith("*"):
            return got.startswith(value[:-1])
        return value.lower() in got.lower()
    if op == "=":
        return got == value
    if op == "!=":
        return got != value
    raise FilterError("the operator %s does not apply here" % op)


def compare_time(got_ns, op, value):
    wanted = parse_time_ns(value)
    if wanted is None:
        raise FilterError("not a time: " + value)
    if got_ns is None:
        return False
    return {"=": got_ns == wanted, "!=": got_ns != wanted, "<": got_ns < wanted, "<=": got_ns <= wanted,
            ">": got_ns > wanted, ">=": got_ns >= wanted}.get(op, False)


class State:
    def __init__(self, args):
        self.lock = threading.Lock()
        self.client_email = args.client_email
        with open(args.public_key_file) as f:
            self.public_key = fake_gce.rsa_public_key(f.read())
        self.running_after = args.running_after
        self.finish_after = args.finish_after
        self.faults = {"throttle": 0, "drop_after_accept": 0, "quota": 0, "fail_job": 0, "invisible_s": 0,
                       "unauthorized": [], "api_disabled": False, "page_size": 100}
        self.tokens = {}
        self.jobs = []
        self.entries = []
        self.calls = []
        self.requests = []
        self.projects = set()
        self.last_ns = 0
        self.inserts = 0

    @staticmethod
    def project_number(project):
        return str(int(hashlib.sha256(project.encode()).hexdigest(), 16) % 10 ** 12)

    def project_of(self, name):
        """The project id of a path's project (its id, or the number of a project named before)."""
        if name.isdigit():
            for p in self.projects:
                if self.project_number(p) == name:
                    return p
        self.projects.add(name)
        return name

    def log(self, job, text):
        """Appends one entry to the job's log (the lock held)."""
        ns = max(time.time_ns(), self.last_ns + 1)
        self.last_ns = ns
        self.inserts += 1
        job["log"].append(text)
        self.entries.append({"project": job["project"], "job_id": job["id"], "ns": ns, "text": text,
                             "insertId": "%016x" % (0x1000000000 + self.inserts)})


class Handler(fake_gce.GoogleHandlerBase):
    def note_request(self, method, path):
        with self.state.lock:
            self.state.requests.append({"method": method, "path": path})

    # ---- control

    def control(self, method, path, body):
        st = self.state
        if method == "GET" and path == "/_fake/state":
            with st.lock:
                self.reply(200, {"jobs": [self.public(j) for j in st.jobs], "requests": list(st.requests),
                                 "calls": list(st.calls), "faults": dict(st.faults)})
            return
        if method == "POST" and path == "/_fake/faults":
            try:
                wanted = json.loads(body or b"{}")
            except ValueError:
                self.reply(400, {"ok": False, "error": "not JSON"})
                return
            with st.lock:
                for key, value in wanted.items():
                    if key == "running_after":
                        st.running_after = int(value)
                    elif key == "finish_after":
                        st.finish_after = int(value)
                    else:
                        st.faults[key] = value
            self.reply(200, {"ok": True})
            return
        self.reply(404, {"error": "unknown path"})

    @staticmethod
    def public(j):
        return {"id": j["id"], "name": j["name"], "displayName": j["displayName"], "state": j["state"],
                "labels": dict(j["labels"]), "jobSpec": j["jobSpec"], "cancel_requested": j["cancel_requested"],
                "client_token": j["labels"].get(OWNER_LABEL), "project": j["project"], "region": j["region"],
                "error": j["error"], "log": list(j["log"]), "body": j["body"]}

    # ---- the token endpoint (as fake_gce.py's)

    def token(self, method, body):
        st = self.state
        form = dict(parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True))
        with st.lock:
            st.calls.append({"action": "token", "method": method, "path": "/token", "params": {}, "body": form})
        if method != "POST":
            raise ApiError(405, {"error": "invalid_request", "error_description": "Method not allowed"})
        grant = form.get("grant_type", "")
        if grant != GRANT_TYPE:
            raise token_error("unsupported_grant_type", "Invalid grant_type: " + grant)
        parts = form.get("assertion", "").split(".")
        if len(parts) != 3:
            raise token_error("invalid_grant", "Invalid JWT: the assertion is not a JWT.")
        try:
            header = json.loads(fake_gce.b64url_decode(parts[0]))
            claims = json.loads(fake_gce.b64url_decode(parts[1]))
            signature = fake_gce.b64url_decode(parts[2])
        except ValueError:
            raise token_error("invalid_grant", "Invalid JWT: the assertion is not a JWT.")
        if header.get("alg") != "RS256":
            raise token_error("invalid_grant", "Invalid JWT Signature.")
        if not fake_gce.rs256_verify(st.public_key, (parts[0] + "." + parts[1]).encode(), signature):
            raise token_error("invalid_grant", "Invalid JWT Signature.")
        if claims.get("iss") != st.client_email:
            raise token_error("invalid_grant", "Invalid grant: account not found")
        here = "http://127.0.0.1:%d/token" % self.server.server_address[1]
        if claims.get("aud") not in (GOOGLE_TOKEN_URL, here):
            raise token_error("invalid_grant", "Invalid JWT: Failed audience check.")
        iat, exp = claims.get("iat"), claims.get("exp")
        now = time.time()
        if (not isinstance(iat, (int, float)) or not isinstance(exp, (int, float)) or exp - iat > 3600
                or exp <= iat or now < iat - 300 or now > exp):
            raise token_error("invalid_grant", "Invalid JWT: Token must be a short-lived token (60 minutes) and in a "
                                               "reasonable timeframe. Check your iat and exp values in the JWT claim.")
        if SCOPE not in str(claims.get("scope", "")).split():
            raise token_error("invalid_scope", "Invalid OAuth scope or ID token audience provided.")
        access = "ya29.fake-" + uuid.uuid4().hex + uuid.uuid4().hex
        with st.lock:
            st.tokens[access] = now + 3599
        self.reply(200, {"access_token": access, "expires_in": 3599, "token_type": "Bearer"})

    # ---- API

    ROUTES = [(m, re.compile(p), a) for m, p, a in (
        ("POST", r"^/(?:aiplatform/)?v1/projects/(?P<project>[^/]+)/locations/(?P<region>[^/]+)/customJobs/?$",
         "customJobs.create"),
        ("GET", r"^/(?:aiplatform/)?v1/projects/(?P<project>[^/]+)/locations/(?P<region>[^/]+)/customJobs/?$",
         "customJobs.list"),
        ("GET", r"^/(?:aiplatform/)?v1/projects/(?P<project>[^/]+)/locations/(?P<region>[^/]+)/customJobs/"
                r"(?P<job>[^/:]+)$", "customJobs.get"),
        ("POST", r"^/(?:aiplatform/)?v1/projects/(?P<project>[^/]+)/locations/(?P<region>[^/]+)/customJobs/"
                 r"(?P<job>[^/:]+):cancel$", "customJobs.cancel"),
        ("POST", r"^/(?:logging/)?v2/entries:list$", "entries.list"),
    )]

    def api(self, method, body):
        st = self.state
        raw_path, _, raw_query = self.path.partition("?")
        path = unquote(raw_path)
        params = {}
        for key, value in parse_qsl(raw_query, keep_blank_values=True):
            params.setdefault(key, value)
        route = None
        for m, pattern, action in self.ROUTES:
            match = pattern.match(path)
            if match and m == method:
                route = (action, match.groupdict())
                break
        action, groups = route if route else ("unknown", {})
        try:
            payload = json.loads(body) if body.strip() else None
        except ValueError:
            payload = ValueError
        with st.lock:
            st.calls.append({"action": action, "method": method, "path": raw_path, "params": params,
                             "body": None if payload is ValueError else payload})
        auth = self.headers.get("Authorization", "")
        token = auth[len("Bearer "):] if auth.startswith("Bearer ") else ""
        with st.lock:
            good = token in st.tokens and st.tokens[token] > time.time()
        if not good:
            raise google_error(401, "UNAUTHENTICATED", "Request had invalid authentication credentials. Expected OAuth "
                               "2 access token, login cookie or other valid authentication credential. See "
                               "https://developers.google.com/identity/sign-in/web/devconsole-project.")
        if route is None:
            raise google_error(404, "NOT_FOUND", "The requested URL was not found on this server.")
        if "project" in groups:
            with st.lock:
                project = st.project_of(groups["project"])
        else:  # entries.list: the project of its first resource name, for the faults' messages
            names = payload.get("resourceNames") if isinstance(payload, dict) else None
            first = names[0] if isinstance(names, list) and names and isinstance(names[0], str) else ""
            project = first[len("projects/"):] if first.startswith("projects/") else ""
        self.check_faults(action, groups, project)
        if payload is ValueError:
            raise invalid("Invalid JSON payload received. Unexpected token.")
        if "region" in groups and not REGION_RE.match(groups["region"]):
            raise invalid("Location %s is not found or access is unauthorized." % groups["region"])
        numeric = "enum-encoding=int" in params.get("$alt", "")
        getattr(self, "act_" + action.replace(".", "_"))(project, groups, params, payload, numeric)

    @staticmethod
    def service_of(action):
        return "logging.googleapis.com" if action == "entries.list" else "aiplatform.googleapis.com"

    def check_faults(self, action, groups, project):
        st = self.state
        with st.lock:
            service = self.service_of(action)
            number = st.project_number(project or "")
            if st.faults.get("api_disabled"):
                url = "https://console.developers.google.com/apis/api/%s/overview?project=%s" % (service, number)
                name = "Cloud Logging API" if action == "entries.list" else "Vertex AI API"
                raise google_error(403, "PERMISSION_DENIED",
                                   "%s has not been used in project %s before or it is disabled. Enable it by "
                                   "visiting %s then retry. If you enabled this API recently, wait a few minutes for "
                                   "the action to propagate to our systems and retry." % (name, number, url),
                                   [error_info("SERVICE_DISABLED", "googleapis.com",
                                               {"service": service, "consumer": "projects/" + number})])
            if count_of(st.faults.get("throttle")) > 0:
                st.faults["throttle"] = count_of(st.faults["throttle"]) - 1
                if action == "entries.list":
                    metric, limit = "Read requests", "Read requests per minute"
                    quota_metric = "logging.googleapis.com/read_requests"
                else:
                    metric, limit = ("Resource management (CRUD) requests",
                                     "Resource management (CRUD) requests per minute per region")
                    quota_metric = "aiplatform.googleapis.com/resource_management_requests"
                raise google_error(429, "RESOURCE_EXHAUSTED",
                                   "Quota exceeded for quota metric '%s' and limit '%s' of service '%s' for consumer "
                                   "'project_number:%s'." % (metric, limit, service, number),
                                   [error_info("RATE_LIMIT_EXCEEDED", "googleapis.com",
                                               {"service": service, "quota_metric": quota_metric,
                                                "quota_limit": limit.replace(" ", ""),
                                                "consumer": "projects/" + number})])
            if action in (st.faults.get("unauthorized") or []):
                permission = PERMISSIONS.get(action, action)
                if action == "entries.list":
                    resource = "projects/%s" % project
                else:
                    resource = "//aiplatform.googleapis.com/projects/%s/locations/%s" % (project, groups.get("region"))
                raise google_error(403, "PERMISSION_DENIED",
                                   "Permission '%s' denied on resource '%s' (or it may not exist)." % (permission,
                                                                                                       resource),
                                   [error_info("IAM_PERMISSION_DENIED", service,
                                               {"permission": permission, "resource": resource.lstrip("/")})])

    # ---- jobs

    def visible(self, job):
        return time.time() - job["created_at"] >= float(self.state.faults.get("invisible_s") or 0)

    def find(self, project, region, job_id):
        for j in self.state.jobs:
            if j["project"] == project and j["region"] == region and j["id"] == job_id and self.visible(j):
                return j
        return None

    def render(self, j, numeric):
        out = {"name": j["name"], "displayName": j["displayName"], "jobSpec": json.loads(json.dumps(j["jobSpec"])),
               "state": j["state"], "createTime": j["createTime"], "updateTime": j["updateTime"],
               "labels": dict(j["labels"])}
        for key in ("startTime", "endTime", "error"):
            if j.get(key):
                out[key] = j[key]
        if numeric:
            out["state"] = JOB_STATES[out["state"]]
            for pool in out["jobSpec"].get("workerPoolSpecs", []):
                machine = pool.get("machineSpec") or {}
                if isinstance(machine.get("acceleratorType"), str):
                    machine["acceleratorType"] = ACCELERATOR_TYPES.get(machine["acceleratorType"], 0)
            scheduling = out["jobSpec"].get("scheduling") or {}
            if isinstance(scheduling.get("strategy"), str):
                scheduling["strategy"] = STRATEGIES.get(scheduling["strategy"], 0)
        return out

    @staticmethod
    def check_members(obj, message, where):
        if not isinstance(obj, dict):
            raise invalid("Invalid JSON payload received. Expected an object at '%s'." % where)
        names = MESSAGES[message]
        known = set(names) | {camel(n) for n in names}
        for key in obj:
            if key not in known:
                raise invalid("Invalid JSON payload received. Unknown name \"%s\" at '%s': Cannot find field."
                              % (key, where), where)

    @staticmethod
    def member(obj, name):
        """A member by its lowerCamel or its proto name."""
        if camel(name) in obj:
            return obj[camel(name)]
        return obj.get(name)

    def enum_name(self, value, table, where):
        if isinstance(value, bool):
            raise invalid("Invalid value at '%s', Invalid value." % where, where)
        if isinstance(value, int):
            for k, v in table.items():
                if v == value:
                    return k
            raise invalid("Invalid value at '%s' (%d), Invalid enum value." % (where, value), where)
        if isinstance(value, str) and value in table:
            return value
        raise invalid("Invalid value at '%s' (%s), \"%s\"" % (where, type(value).__name__, value), where)

    def job_spec(self, body):
        """Checks the CustomJob; the jobSpec as kept (enums as names, replicaCount a string)."""
        self.check_members(body, "CustomJob", "custom_job")
        if not self.member(body, "display_name"):
            raise required("custom_job.display_name")
        labels = self.member(body, "labels") or {}
        if not isinstance(labels, dict) or len(labels) > 64:
            raise invalid("At most 64 labels can be attached to a resource.", "custom_job.labels")
        for key, value in labels.items():
            if not LABEL_KEY_RE.match(key) or not isinstance(value, str) or not LABEL_VALUE_RE.match(value):
                raise invalid("Invalid label: key \"%s\", value \"%s\". Label keys must start with a lowercase letter "
                              "and contain only lowercase letters, digits, '_' and '-' (at most 63), values only "
                              "those." % (key, value), "custom_job.labels")
        spec = self.member(body, "job_spec")
        if spec is None:
            raise required("custom_job.job_spec")
        self.check_members(spec, "CustomJobSpec", "custom_job.job_spec")
        spec = json.loads(json.dumps(spec))
        pools = self.member(spec, "worker_pool_specs")
        if not isinstance(pools, list) or not pools:
            raise required("custom_job.job_spec.worker_pool_specs")
        for i, pool in enumerate(pools):
            where = "custom_job.job_spec.worker_pool_specs[%d]" % i
            self.check_members(pool, "WorkerPoolSpec", where)
            machine = self.member(pool, "machine_spec")
            if not isinstance(machine, dict) or not self.member(machine, "machine_type"):
                raise required(where + ".machine_spec.machine_type")
            self.check_members(machine, "MachineSpec", where + ".machine_spec")
            machine_type = self.member(machine, "machine_type")
            accelerator = self.member(machine, "accelerator_type")
            count = self.member(machine, "accelerator_count") or 0
            if accelerator is not None:
                accelerator = self.enum_name(accelerator, ACCELERATOR_TYPES, where + ".machine_spec.accelerator_type")
                machine.pop("accelerator_type", None)
                machine["acceleratorType"] = accelerator
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                raise invalid("Invalid value at '%s.machine_spec.accelerator_count'" % where,
                              where + ".machine_spec.accelerator_count")
            gpus = builtin_gpus(machine_type)
            if gpus is False:
                raise invalid("Machine type \"%s\" is not supported." % machine_type, where + ".machine_spec")
            if gpus is None:
                if accelerator not in (None, "ACCELERATOR_TYPE_UNSPECIFIED") and \
                        (accelerator not in N1_GPUS or count not in N1_GPUS[accelerator]):
                    raise invalid("Accelerator \"%s\" with count %d is not supported for machine type \"%s\"."
                                  % (accelerator, count, machine_type), where + ".machine_spec")
            elif (accelerator, count) != gpus:
                raise invalid("Accelerator \"%s\" with count %d is not supported for machine type \"%s\"."
                              % (accelerator, count, machine_type), where + ".machine_spec")
            replicas = self.member(pool, "replica_count")
            try:
                replicas = int(replicas) if not isinstance(replicas, bool) else -1
            except (TypeError, ValueError):
                replicas = -1
            if replicas < (1 if i == 0 else 0):
                raise invalid("The first worker pool's replica_count must be 1 or more.", where + ".replica_count")
            pool.pop("replica_count", None)
            pool["replicaCount"] = str(replicas)
            disk = self.member(pool, "disk_spec")
            if disk is not None:
                self.check_members(disk, "DiskSpec", where + ".disk_spec")
            container = self.member(pool, "container_spec")
            if container is None:
                raise required(where + ".container_spec.image_uri")  # the fake runs containers only
            self.check_members(container, "ContainerSpec", where + ".container_spec")
            if not self.member(container, "image_uri"):
                raise required(where + ".container_spec.image_uri")
            for key in ("command", "args"):
                value = self.member(container, key)
                if value is not None and (not isinstance(value, list) or not all(isinstance(v, str) for v in value)):
                    raise invalid("Invalid value at '%s.container_spec.%s'" % (where, key), where)
            for k, env in enumerate(self.member(container, "env") or []):
                self.check_members(env, "EnvVar", "%s.container_spec.env[%d]" % (where, k))
                if not env.get("name"):
                    raise required("%s.container_spec.env[%d].name" % (where, k))
        scheduling = self.member(spec, "scheduling")
        if scheduling is not None:
            self.check_members(scheduling, "Scheduling", "custom_job.job_spec.scheduling")
            timeout = self.member(scheduling, "timeout")
            if timeout is not None and (not isinstance(timeout, str) or not DURATION_RE.match(timeout)
                                        or float(timeout[:-1]) <= 0):
                raise invalid("Invalid value at 'custom_job.job_spec.scheduling.timeout' (type.googleapis.com/"
                              "google.protobuf.Duration), Field 'timeout', Illegal duration format; duration must "
                              "end with 's'", "custom_job.job_spec.scheduling.timeout")
            strategy = self.member(scheduling, "strategy")
            if strategy is not None:
                scheduling.pop("strategy", None)
                scheduling["strategy"] = self.enum_name(strategy, STRATEGIES, "custom_job.job_spec.scheduling.strategy")
        return spec, labels

    def quota_metric(self, spec, wanted):
        if isinstance(wanted, str):
            return wanted
        machine = spec["workerPoolSpecs"][0]["machineSpec"]
        part = QUOTA_GPU.get(machine.get("acceleratorType"), "nvidia_l4")
        spot = ((spec.get("scheduling") or {}).get("strategy")) == "SPOT"
        return "custom_model_training_%s%s_gpus" % ("preemptible_" if spot else "", part)

    def act_customJobs_create(self, project, groups, params, body, numeric):
        st = self.state
        spec, labels = self.job_spec(body)
        region = groups["region"]
        with st.lock:
            wanted = st.faults.get("quota")
            if (isinstance(wanted, str) and wanted) or count_of(wanted) > 0:
                if not isinstance(wanted, str):
                    st.faults["quota"] = count_of(wanted) - 1
                else:
                    st.faults["quota"] = 0
                raise google_error(429, "RESOURCE_EXHAUSTED", "The following quota metrics exceed quota limits: "
                                   "aiplatform.googleapis.com/" + self.quota_metric(spec, wanted))
            job_id = str(random.randint(10 ** 18, 9 * 10 ** 18))
            display = self.member(body, "display_name")
            fail = st.faults.get("fail_job")
            if isinstance(fail, str) and fail and fail in (display, labels.get(OWNER_LABEL)):
                st.faults["fail_job"] = 0
                fails = True
            elif count_of(fail) > 0:
                st.faults["fail_job"] = count_of(fail) - 1
                fails = True
            else:
                fails = False
            now = rfc3339()
            job = {"id": job_id, "project": project, "region": region,
                   "name": "projects/%s/locations/%s/customJobs/%s" % (st.project_number(project), region, job_id),
                   "displayName": display, "labels": dict(labels), "jobSpec": spec, "body": body,
                   "state": "JOB_STATE_QUEUED", "createTime": now, "updateTime": now, "startTime": None,
                   "endTime": None, "error": None, "cancel_requested": False, "fail": fails, "pending_gets": 0,
                   "running_gets": 0, "log": [], "created_at": time.time()}
            st.jobs.append(job)
            answer = self.render(job, numeric)
            drop = count_of(st.faults.get("drop_after_accept")) > 0
            if drop:
                st.faults["drop_after_accept"] = count_of(st.faults["drop_after_accept"]) - 1
        if drop:
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            return
        self.reply(200, answer)

    @staticmethod
    def command_of(job):
        container = job["jobSpec"]["workerPoolSpecs"][0].get("containerSpec") or \
            job["jobSpec"]["workerPoolSpecs"][0].get("container_spec") or {}
        words = list(Handler.member(container, "command") or []) + list(Handler.member(container, "args") or [])
        return " ".join(words)

    def advance(self, job):
        """One get of the job: its next state (the lock held)."""
        st = self.state
        state = job["state"]
        now = rfc3339()
        if state in ("JOB_STATE_QUEUED", "JOB_STATE_PENDING"):
            if job["pending_gets"] >= st.running_after:
                job["state"] = "JOB_STATE_RUNNING"
                job["startTime"] = now
                job["running_gets"] = 1
                st.log(job, "gpuplan-fake: job %s started: %s" % (job["id"], self.command_of(job)))
                st.log(job, "step 1")
            else:
                job["pending_gets"] += 1
                job["state"] = "JOB_STATE_PENDING"
        elif state == "JOB_STATE_RUNNING":
            if job["fail"]:
                job["state"] = "JOB_STATE_FAILED"
                job["endTime"] = now
                job["error"] = {"code": 3, "message": FAILED_MESSAGE}
                st.log(job, "gpuplan-fake: job %s failed: %s" % (job["id"], FAILED_MESSAGE))
            elif st.finish_after > 0 and job["running_gets"] >= st.finish_after:
                job["state"] = "JOB_STATE_SUCCEEDED"
                job["endTime"] = now
                st.log(job, "done")
            else:
                job["running_gets"] += 1
                st.log(job, "step %d" % job["running_gets"])
        elif state == "JOB_STATE_CANCELLING":
            job["state"] = "JOB_STATE_CANCELLED"
            job["endTime"] = now
            job["error"] = {"code": 1, "message": "CANCELED"}
        if job["state"] != state:
            job["updateTime"] = now

    def act_customJobs_get(self, project, groups, params, body, numeric):
        with self.state.lock:
            job = self.find(project, groups["region"], groups["job"])
            if job is None:
                raise not_found()
            self.advance(job)
            answer = self.render(job, numeric)
        self.reply(200, answer)

    def act_customJobs_cancel(self, project, groups, params, body, numeric):
        if body is not None and not isinstance(body, dict):
            raise invalid("Invalid JSON payload received. Expected an object.")
        st = self.state
        with st.lock:
            job = self.find(project, groups["region"], groups["job"])
            if job is None:
                raise not_found()
            if job["state"] in ENDED:
                raise google_error(400, "FAILED_PRECONDITION", "The CustomJob %s is already finished, and cannot be "
                                   "cancelled." % job["name"])
            if job["state"] != "JOB_STATE_CANCELLING":
                if job["startTime"]:
                    st.log(job, "gpuplan-fake: job %s cancel requested" % job["id"])
                job["state"] = "JOB_STATE_CANCELLING"
                job["updateTime"] = rfc3339()
            job["cancel_requested"] = True
        self.reply(200, {})

    def job_lookup(self, job):
        labels = job["labels"]
        created = parse_time_ns(job["createTime"])

        def lookup(field, op, value):
            if field in ("display_name", "displayName"):
                return compare_text(job["displayName"], op, value, wildcard_prefix=True)
            if field == "state":
                if op not in ("=", "!="):
                    raise FilterError("state supports = and !=")
                return compare_text(job["state"], op, value)
            if field in ("create_time", "createTime"):
                return compare_time(created, op, value)
            if field.startswith("labels."):
                if op not in ("=", "!=", ":"):
                    raise FilterError("labels support =, != and :")
                return compare_text(labels.get(field[len("labels."):]), op, value)
            raise FilterError("unsupported field " + field)
        return lookup

    @staticmethod
    def page_of(items, token, size, name):
        try:
            offset = int(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode()[len(name) + 1:]) \
                if token else 0
        except ValueError:
            raise invalid("Invalid page token.", "page_token")
        chunk = items[offset:offset + size]
        following = None
        if offset + size < len(items):
            following = base64.urlsafe_b64encode(("%s:%d" % (name, offset + size)).encode()).decode().rstrip("=")
        return chunk, following

    def act_customJobs_list(self, project, groups, params, body, numeric):
        st = self.state
        text = params.get("filter", "")
        try:
            tree = Filter(text).parse()
        except FilterError as e:
            raise invalid("Unsupported filter: %s (%s)." % (text, e), "filter")
        try:
            size = int(params.get("pageSize") or params.get("page_size") or 0)
        except ValueError:
            raise invalid("Invalid value at 'page_size' (TYPE_INT32), \"%s\"" % params.get("pageSize"), "page_size")
        if size < 0:
            raise invalid("page_size must not be negative.", "page_size")
        with st.lock:
            size = size or int(st.faults.get("page_size") or 100)
            try:
                jobs = [j for j in st.jobs if j["project"] == project and j["region"] == groups["region"]
                        and self.visible(j) and evaluate(tree, self.job_lookup(j))]
            except FilterError as e:
                raise invalid("Unsupported filter: %s (%s)." % (text, e), "filter")
            chunk, following = self.page_of(jobs, params.get("pageToken") or params.get("page_token") or "", size,
                                            "jobs")
            out = {}
            if chunk:
                out["customJobs"] = [self.render(j, numeric) for j in chunk]
            if following:
                out["nextPageToken"] = following
        self.reply(200, out)

    # ---- Cloud Logging

    @staticmethod
    def entry_of(e):
        received = e["ns"] + 250 * 10 ** 6
        return {"insertId": e["insertId"], "logName": "projects/%s/logs/workerpool0-0" % e["project"],
                "resource": {"type": "ml_job", "labels": {"job_id": e["job_id"], "project_id": e["project"],
                                                          "task_name": "workerpool0-0"}},
                "timestamp": rfc3339(e["ns"], 9), "receiveTimestamp": rfc3339(received, 9), "severity": "INFO",
                "textPayload": e["text"]}

    @staticmethod
    def entry_lookup(entry, ns):
        def lookup(field, op, value):
            if field in ("timestamp", "receiveTimestamp"):
                return compare_time(ns if field == "timestamp" else ns + 250 * 10 ** 6, op, value)
            if op not in ("=", "!=", ":"):
                raise FilterError("%s compares with =, != and :" % field)
            got = fake_gce.field_value(entry, field)
            if got is not None and not isinstance(got, str):
                got = json.dumps(got)
            return compare_text(got, op, value)
        return lookup

    def act_entries_list(self, project, groups, params, body, numeric):
        st = self.state
        if not isinstance(body, dict):
            raise invalid("Invalid JSON payload received. Expected an object.")
        known = set(ENTRIES_REQUEST) | {camel(n) for n in ENTRIES_REQUEST}
        for key in body:
            if key not in known:
                raise invalid("Invalid JSON payload received. Unknown name \"%s\": Cannot find field." % key)
        names = self.member(body, "resource_names") or []
        if not isinstance(names, list) or not names:
            raise required("resource_names")
        projects = []
        for name in names:
            m = re.match(r"^projects/([^/]+)$", name if isinstance(name, str) else "")
            if not m:
                raise invalid("Invalid resource name: %s" % name, "resource_names")
            with st.lock:
                projects.append(st.project_of(m.group(1)))
        text = self.member(body, "filter") or ""
        try:
            tree = Filter(text).parse()
        except FilterError as e:
            raise invalid("Unparseable filter: %s (%s)" % (text, e), "filter")
        order = (self.member(body, "order_by") or "timestamp asc").strip()
        if order not in ("timestamp asc", "timestamp desc", "timestamp"):
            raise invalid("Invalid order_by: \"%s\". Only \"timestamp asc\" and \"timestamp desc\" are supported."
                          % order, "order_by")
        size = self.member(body, "page_size")
        if size is None:
            size = 50
        if not isinstance(size, int) or isinstance(size, bool) or size < 0:
            raise invalid("page_size must not be negative.", "page_size")
        size = min(size or 50, 1000)
        with st.lock:
            found = []
            try:
                for e in st.entries:
                    if e["project"] not in projects:
                        continue
                    entry = self.entry_of(e)
                    if evaluate(tree, self.entry_lookup(entry, e["ns"])):
                        found.append(entry)
            except FilterError as e:
                raise invalid("Unparseable filter: %s (%s)" % (text, e), "filter")
            if order == "timestamp desc":
                found.reverse()
        chunk, following = self.page_of(found, self.member(body, "page_token") or "", size, "entries")
        out = {}
        if chunk:
            out["entries"] = chunk
        if following:
            out["nextPageToken"] = following
        self.reply(200, out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--client-email", default=DEFAULT_EMAIL)
    parser.add_argument("--public-key-file", default=DEFAULT_KEY)
    parser.add_argument("--running-after", type=int, default=1)
    parser.add_argument("--finish-after", type=int, default=2)
    parser.add_argument("--access-key-id", default=None)  # FakeCloud.h passes these to every fake: ignored
    parser.add_argument("--secret-key", default=None)
    args = parser.parse_args()
    Handler.state = State(args)
    return fake_gce.serve(Handler, args.port_file)


if __name__ == "__main__":
    sys.exit(main())
