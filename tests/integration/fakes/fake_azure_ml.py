#!/usr/bin/env python3
"""A FAKE of Azure Machine Learning (Microsoft.MachineLearningServices workspaces, AmlCompute clusters, environment
versions and command jobs over Azure Resource Manager, the workspace's discovery document, the run history's run
details and the job's log blob) and of the Microsoft Entra token endpoint, for GPU Planner's managed job tests.

It is not Azure: it answers the calls core/cloud/providers/azure/AzureMlJobs.cpp makes (and those the official SDK
@azure/arm-machinelearning 2.1.1 makes for the same operations), on one loopback port, in the documented JSON shapes,
and it produces on demand the faults a real service will not (throttling, a dropped answer, a quota refusal, a failed
job, a job that is not visible yet).

    python3 fake_azure_ml.py --port-file FILE [--running-after N] [--finish-after N] [--workspace RG/NAME]
                             [--location eastus] [--subscription ID] [--tenant-id T --client-id C --client-secret S]
                             [--retry-after S]

Defaults: the app registration of FakeCloud.h's azure() case (tenant 11111111-1111-4111-8111-111111111111, client
22222222-2222-4222-8222-222222222222, secret "fake-azure-client-secret-for-tests"), the Azure VM fake's subscription
33333333-3333-4333-8333-333333333333 (--subscription-id is another name of --subscription), the workspace
"gpuplan-rg/gpuplan-ws" in "eastus", --running-after 1, --finish-after 2, --retry-after 1. --access-key-id and
--secret-key are accepted as other names of --client-id and --client-secret (as fake_azure_vm.py takes them). Binds
127.0.0.1 on a free port, writes the port to FILE (FILE.tmp, then renamed), serves until killed (ThreadingHTTPServer,
HTTP/1.1).

Where the shapes come from
- Paths, methods, api-version 2022-10-01, JSON names: the SDK in tests/integration/sdk/node_modules/
  @azure/arm-machinelearning 2.1.1 (dist/index.js: each operation's spec and mappers) and the REST spec
  (https://github.com/Azure/azure-rest-api-specs, specification/machinelearningservices/resource-manager/
  Microsoft.MachineLearningServices/stable/2022-10-01 and its examples, copied in tests/data/cloud/azureml:
  Workspace/get.json, Compute/createOrUpdate/AmlCompute.json, Compute/get/AmlCompute.json,
  EnvironmentVersion/createOrUpdate.json, Job/CommandJob/createOrUpdate.json and list.json, Job/cancel.json).
- Token endpoint, ARM error bodies, Azure-AsyncOperation / Location / Retry-After, the 429 body: as fake_azure_vm.py
  (its docstring cites them).
- The discovery document ({"api", "catalog", "experimentation", "gallery", "history", "hyperdrive", "labeling",
  "modelmanagement", "pipelines", "studio"}) and the run history's run details (GET <api>/history/v1.0/subscriptions/
  {s}/resourceGroups/{rg}/providers/Microsoft.MachineLearningServices/workspaces/{ws}/runs/{runId}/details: runId,
  status, startTimeUtc, endTimeUtc, logFiles {name: SAS URL}, error): azure-ai-ml (azure-sdk-for-python sdk/ml/
  azure-ai-ml: _restclient/runhistory/models RunDetails, operations/_runs_operations.py build_get_details_request,
  _utils/_workspace_utils get_discovery_url / _get_workspace_base_url); no published example exists
  (tests/data/cloud/azureml/README.md says so too).
- Azure ML's own error bodies ({"error": {"code": "UserError", "message", "details": [], "innerError": {"code":
  "NotFound"}, "additionalInfo": [{"type": "ComponentName", "info": {"value": "managementfrontend"}}]}}): the shape
  of the answers quoted in https://github.com/Azure/azure-cli-extensions/issues/6662; the quota refusal (400
  QuotaExceeded "Operation results in exceeding quota limits of Core. Maximum allowed: 0, Current in use: 0,
  Additional requested: <vCPUs>. ...") is plausible, not quoted (tests/core/TestAzureMl.cpp uses the same text).
- The log blob answers as Azure Storage does: 200 text/plain, x-ms-blob-type AppendBlob, a Range header honoured
  (206); an Authorization header beside the SAS: 400 InvalidAuthenticationInfo; a wrong signature: 403
  AuthenticationFailed; no signature: 409 PublicAccessNotPermitted (Storage's XML error body
  <Error><Code/><Message/></Error>, https://learn.microsoft.com/rest/api/storageservices/status-and-error-codes2).

Behaviour
- POST /{tenant}/oauth2/v2.0/token: the client-credentials grant, exactly as fake_azure_vm.py (AADSTS90002 unknown
  tenant, 700016 unknown client, 7000215 wrong secret, 70003 grant type, 1002012 scope without /.default).
- Every ARM call (a path from /subscriptions) needs "Authorization: Bearer <a token this fake issued>" (none: 401
  AuthenticationFailed; another: 401 InvalidAuthenticationToken) and an api-version (400 MissingApiVersionParameter /
  InvalidApiVersionParameter). Paths match without regard to case. Another subscription: 404 SubscriptionNotFound;
  another resource group: 404 ResourceGroupNotFound; another workspace: 404 ResourceNotFound.
- GET /subscriptions: the one subscription (Enabled), as the VM fake lists it (AzureMlJobs resolves the subscription
  this way when the credential names none, like the VM provider).
- Workspaces - Get: the workspace (location, properties.discoveryUrl = http://127.0.0.1:PORT/discovery, ...).
- Compute - Get: 404 (UserError / NotFound) when absent. Compute - CreateOrUpdate: properties.computeType AmlCompute,
  properties.properties.vmSize (a GPU size below), vmPriority Dedicated | LowPriority, scaleSettings.maxNodeCount;
  the name 2 to 16 characters, a letter first, letters, digits and '-'. A new cluster: 201 provisioningState Creating
  with Azure-AsyncOperation (.../locations/{loc}/computeOperationsStatus/{id}) and Retry-After; the operation answers
  InProgress once, then Succeeded, and the cluster reads Succeeded (a GET before that reads Creating). An existing
  one: 200, its scale settings updated; another vmSize or vmPriority: 400 UserError.
- EnvironmentVersions - Get: 404 when absent; CreateOrUpdate: properties.image required; 201 new, 200 the same image
  again, 409 UserError for another image (a version is immutable).
- Jobs - CreateOrUpdate (PUT .../jobs/{name}): a Command job (jobType Command, command, environmentId of an environment
  version of this workspace, computeId of a cluster of this workspace); 201, status "NotStarted". PUT of an existing
  name: 200 and the job as it is (its tags, displayName and description updated); another command, computeId or
  environmentId: 400 UserError. Jobs - Get advances the job, one step per GET, then shows it:
    NotStarted -> Queued (-> Running at once when running_after is 0); Queued -> Running after `running_after` GETs
    showed it Queued (--running-after, default 1); Running -> Completed after `finish_after` GETs showed it Running
    (--finish-after, default 2; 0: it runs until cancelled); CancelRequested -> Canceled.
  So by default: PUT NotStarted, GET Queued, GET Running, GET Running, GET Completed. The job's std_log
  (user_logs/std_log.txt) gets "gpuplan-fake: job <name> started: <command>" when it starts running, "step <k>" for
  each GET that shows it Running (k = 1, 2, ...), and "done" when it completes.
  Jobs - List (GET .../jobs[?tag=K|K=V][&jobType=Command][&listViewType=ActiveOnly|ArchivedOnly|All]): the jobs in
  creation order, `page_size` a page (default 50) with nextLink ($skipToken); a list does not advance jobs.
  Jobs - Cancel (POST .../jobs/{name}/cancel): a job not ended reads CancelRequested (the log gets "gpuplan-fake: job
  <name> cancel requested"), and Canceled on its next GET; 202 with Location (.../locations/{loc}/mfeOperationResults/
  {id}) and Retry-After; that Location answers 202 once, then 200 (and the job reads Canceled). An ended job: 400
  UserError; a missing one: 404.
- GET /discovery (no authorization needed, as the real document): {"api": "http://127.0.0.1:PORT", ...}.
- GET /history/v1.0/subscriptions/.../workspaces/{ws}/runs/{name}/details (the bearer token needed, no api-version):
  the run's status (the job's), startTimeUtc once it ran, endTimeUtc once it ended, logFiles {"user_logs/std_log.txt":
  a SAS URL on this fake} once it started, error once it failed; 404 UserError "Run <name> was not found". It does not
  advance the job.
- GET /azureml/ExperimentRun/dcid.{name}/user_logs/std_log.txt?sv=...&sr=b&sig=...&se=...&sp=r: the log text (lines
  ending in "\\n"); no Authorization accepted (400, see above: a client that sends its bearer token to blob storage
  fails).

Control (not part of the API)
- GET /_fake/state: {"jobs": [{"id" and "name" (the job's name), "display_name", "status" (also as "state"),
  "client_token" (tag gpuplanner-token), "tags", "properties" (the PUT body's properties as received),
  "cancel_requested", "log" (the std_log lines), "compute_id", "environment_id", "command", "created_at"}],
  "computes": [{"name", "id", "vm_size", "vm_priority", "provisioning_state", "location", "scale_settings", "body"}],
  "environments": [{"name", "version", "id", "image", "body"}], "requests": [{"method", "path"}] (every request but
  the control ones, in order), "calls": [{"action", "method", "path", "params", "body"}] (the token form's secret as
  "***"), "subscriptions", "workspace"}. Actions: "token", "subscriptions.list", "workspaces.get", "computes.get",
  "computes.createOrUpdate", "asyncOperation", "operationResult", "environmentVersions.get",
  "environmentVersions.createOrUpdate", "jobs.createOrUpdate" (the launch), "jobs.get", "jobs.list", "jobs.cancel",
  "discovery", "runs.getDetails", "logFile", "unknown".
- POST /_fake/faults (JSON merged into the faults; a count also takes true for 1):
  throttle N           the next N ARM calls (not the token, discovery, run history or blob) answer 429, Retry-After: 1,
                       {"error": {"code": "TooManyRequests", ...}} (fake_azure_vm.py's body);
  drop_after_accept N  the next N job PUTs that create a job create it, then close the connection without an answer;
  quota N              the next N cluster creates (a PUT of a new cluster) answer 400 {"error": {"code":
                       "QuotaExceeded", ...}} and create nothing;
  fail_job N | "name"  the next N jobs created (or the job of that name) fail: on the GET after the one that first
                       showed them Running they read Failed, the log gets "gpuplan-fake: job <name> failed: ..." and
                       the run details an error;
  invisible_s S        for S s after a job's first PUT, Jobs - Get and the run details answer 404, the list leaves it
                       out and Cancel answers 404 (eventual consistency); a PUT of its name answers 200 (it exists);
  running_after N, finish_after N   the knobs above, for the jobs' next steps;
  retry_after_s S      the Retry-After of the operation answers (default --retry-after);
  page_size N          jobs per list page.

Every answer carries x-ms-request-id and x-ms-correlation-request-id headers.
"""

import argparse
import datetime
import email.utils
import json
import os
import re
import secrets
import sys
import threading
import time
import uuid
from urllib.parse import parse_qsl, quote, unquote

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
# The token endpoint, ARM's checks and error bodies and the handler's plumbing are the Azure VM fake's.
from fake_azure_vm import (ApiError, ArmHandlerBase, add_credential_args, arm_error,  # noqa: E402
                           check_api_version, check_bearer, check_payload, check_route, client_credentials_token,
                           fake_subscription, json_payload, match_route, new_uuid, query_params, serve, throttled,
                           token_form)

SECRET = "fake-azure-client-secret-for-tests"
SUBSCRIPTION = "33333333-3333-4333-8333-333333333333"
WORKSPACE = "gpuplan-rg/gpuplan-ws"
LOCATION = "eastus"
API_VERSION = "2022-10-01"
OWNER_TAG = "gpuplanner-token"
JOB_TYPE = "Microsoft.MachineLearningServices/workspaces/jobs"

# The AmlCompute GPU sizes the fake knows: size -> vCPUs (for the quota message).
SIZES = {"standard_nc4as_t4_v3": 4, "standard_nc8as_t4_v3": 8, "standard_nc16as_t4_v3": 16,
         "standard_nc64as_t4_v3": 64, "standard_nc6s_v3": 6, "standard_nc12s_v3": 12, "standard_nc24s_v3": 24,
         "standard_nc24ads_a100_v4": 24, "standard_nc48ads_a100_v4": 48, "standard_nc96ads_a100_v4": 96,
         "standard_nd96asr_v4": 96, "standard_nd96amsr_a100_v4": 96, "standard_nd96isr_h100_v5": 96,
         "standard_nv36ads_a10_v5": 36, "standard_nc6": 6}
FINAL = ("Completed", "Failed", "Canceled", "NotResponding")

S = r"/subscriptions/(?P<sub>[^/]+)"
WS = S + r"/resourcegroups/(?P<rg>[^/]+)/providers/microsoft\.machinelearningservices/workspaces/(?P<ws>[^/]+)"
MLS = S + r"/providers/microsoft\.machinelearningservices/locations/(?P<loc>[^/]+)"
ROUTES = [  # (method, path pattern (case-insensitive), action); the first match wins
    ("GET", r"/subscriptions", "subscriptions.list"),
    ("GET", MLS + r"/computeoperationsstatus/(?P<op>[^/]+)", "asyncOperation"),
    ("GET", MLS + r"/mfeoperationresults/(?P<op>[^/]+)", "operationResult"),
    ("GET", WS, "workspaces.get"),
    ("GET", WS + r"/computes/(?P<compute>[^/]+)", "computes.get"),
    ("PUT", WS + r"/computes/(?P<compute>[^/]+)", "computes.createOrUpdate"),
    ("GET", WS + r"/environments/(?P<env>[^/]+)/versions/(?P<version>[^/]+)", "environmentVersions.get"),
    ("PUT", WS + r"/environments/(?P<env>[^/]+)/versions/(?P<version>[^/]+)", "environmentVersions.createOrUpdate"),
    ("GET", WS + r"/jobs", "jobs.list"),
    ("GET", WS + r"/jobs/(?P<job>[^/]+)", "jobs.get"),
    ("PUT", WS + r"/jobs/(?P<job>[^/]+)", "jobs.createOrUpdate"),
    ("POST", WS + r"/jobs/(?P<job>[^/]+)/cancel", "jobs.cancel"),
]
ROUTES = [(m, re.compile(p + r"/?$", re.IGNORECASE), a) for m, p, a in ROUTES]
TOKEN_PATH = re.compile(r"^/(?P<tenant>[^/]+)/oauth2/v2\.0/token/?$", re.IGNORECASE)
DISCOVERY_PATH = re.compile(r"^/discovery/?$", re.IGNORECASE)
DETAILS_PATH = re.compile(r"^/history/v1\.0" + WS + r"/runs/(?P<run>[^/]+)/details/?$", re.IGNORECASE)
BLOB_PATH = re.compile(r"^/azureml/ExperimentRun/dcid\.(?P<run>[^/]+)/(?P<file>.+)$")
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,254}$")
COMPUTE_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9-]{1,15}$")


def iso_now(at=None):
    moment = datetime.datetime.fromtimestamp(at if at is not None else time.time(), datetime.timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def norm(text):
    return (text or "").replace(" ", "").lower()


def count_of(value):
    """A fault's count: true is 1, false or null 0."""
    if value is True:
        return 1
    if not value:
        return 0
    return int(value)


def ml_error(status, message, inner=None, code="UserError"):
    """Azure ML's own error body (the management front end's)."""
    error = {"code": code, "message": message, "details": [],
             "additionalInfo": [{"type": "ComponentName", "info": {"value": "managementfrontend"}}]}
    if inner:
        error["innerError"] = {"code": inner}
    return ApiError(status, {"error": error})


def storage_error(status, code, message):
    body = ('<?xml version="1.0" encoding="utf-8"?><Error><Code>%s</Code><Message>%s\nRequestId:%s\nTime:%s'
            '</Message></Error>' % (code, message, new_uuid(), iso_now())).encode()
    return ApiError(status, body, {"Content-Type": "application/xml", "x-ms-error-code": code})


class State:
    def __init__(self, args):
        self.lock = threading.Lock()
        self.tenant = args.tenant_id
        self.client = args.client_id
        self.secret = args.client_secret
        self.subscription = args.subscription
        rg, _, name = args.workspace.partition("/")
        if not rg or not name:
            raise SystemExit("--workspace must be <resource group>/<name>")
        self.rg, self.ws = rg, name
        self.location = norm(args.location)
        self.running_after = args.running_after
        self.finish_after = args.finish_after
        self.workspace_guid = str(uuid.uuid5(uuid.NAMESPACE_URL, "gpuplanner-fake-ws:" + args.workspace))
        self.subscriptions = [fake_subscription(self.subscription, self.tenant)]
        self.faults = {"throttle": 0, "drop_after_accept": 0, "quota": 0, "fail_job": 0, "invisible_s": 0,
                       "retry_after_s": args.retry_after, "page_size": 50}
        self.fail_names = set()
        self.tokens = {}  # access token -> expiry (Unix s)
        self.requests = []
        self.calls = []
        self.computes = {}  # lower name -> compute
        self.environments = {}  # (lower name, version) -> environment
        self.jobs = []
        self.operations = {}  # id -> operation

    def ws_path(self):
        return "/subscriptions/%s/resourceGroups/%s/providers/Microsoft.MachineLearningServices/workspaces/%s" % (
            self.subscription, self.rg, self.ws)


class Handler(ArmHandlerBase):
    # ---- plumbing

    def reply(self, status, obj, headers=None, content_type="application/json; charset=utf-8"):
        if obj is None:
            data = b""
        elif isinstance(obj, (bytes, bytearray)):
            data = bytes(obj)
        else:
            data = json.dumps(obj).encode()
        headers = dict(headers or {})
        self.send_response(status)
        if data and "Content-Type" not in headers:
            self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("x-ms-request-id", new_uuid())
        self.send_header("x-ms-correlation-request-id", new_uuid())
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def handle_any(self, method):
        body = self.read_body()
        raw_path, _, raw_query = self.path.partition("?")
        if raw_path.startswith("/_fake/"):
            self.control(method, raw_path, body)
            return
        st = self.state
        with st.lock:
            st.requests.append({"method": method, "path": raw_path})
        path = unquote(raw_path)
        try:
            match = TOKEN_PATH.match(path)
            if match and method == "POST":
                self.token(match.group("tenant"), body)
                return
            if method == "GET" and DISCOVERY_PATH.match(path):
                self.record("discovery", method, raw_path, {}, None)
                self.discovery()
                return
            match = DETAILS_PATH.match(path)
            if match and method == "GET":
                self.record("runs.getDetails", method, raw_path, dict(parse_qsl(raw_query)), None)
                self.run_details(match.groupdict())
                return
            match = BLOB_PATH.match(path)
            if match and method == "GET":
                self.record("logFile", method, raw_path, {}, None)
                self.blob(match.group("run"), match.group("file"), dict(parse_qsl(raw_query, keep_blank_values=True)))
                return
            self.api(method, raw_path, path, raw_query, body)
        except ApiError as e:
            self.reply(e.status, e.body, e.headers)

    def record(self, action, method, path, params, body):
        with self.state.lock:
            self.state.calls.append({"action": action, "method": method, "path": path, "params": params,
                                     "body": body})

    def check_bearer(self):
        with self.state.lock:
            check_bearer(self.state, self.headers.get("Authorization"))

    # ---- control

    def control(self, method, path, body):
        st = self.state
        if method == "GET" and path == "/_fake/state":
            with st.lock:
                out = json.loads(json.dumps({
                    "jobs": [self.public_job(j) for j in st.jobs],
                    "computes": [self.public_compute(c) for c in st.computes.values()],
                    "environments": [dict(e) for e in st.environments.values()],
                    "requests": st.requests, "calls": st.calls, "subscriptions": st.subscriptions,
                    "workspace": {"resource_group": st.rg, "name": st.ws, "location": st.location,
                                  "id": st.ws_path()},
                    "faults": dict(st.faults, fail_names=sorted(st.fail_names)),
                    "running_after": st.running_after, "finish_after": st.finish_after}))
            self.reply(200, out)
            return
        try:
            wanted = json.loads(body or b"{}")
        except ValueError:
            self.reply(400, {"ok": False, "error": "not JSON"})
            return
        if method == "POST" and path == "/_fake/faults" and isinstance(wanted, dict):
            with st.lock:
                for key, value in wanted.items():
                    if key == "running_after":
                        st.running_after = int(value)
                    elif key == "finish_after":
                        st.finish_after = int(value)
                    elif key == "fail_job" and isinstance(value, str):
                        st.fail_names.add(value)
                    else:
                        st.faults[key] = value
            self.reply(200, {"ok": True})
            return
        self.reply(404, {"error": "unknown path"})

    @staticmethod
    def public_job(j):
        return {"id": j["name"], "name": j["name"], "display_name": j["properties"].get("displayName", ""),
                "status": j["status"], "state": j["status"], "client_token": j["tags"].get(OWNER_TAG, ""),
                "tags": dict(j["tags"]), "properties": j["received"], "cancel_requested": j["cancel_requested"],
                "log": list(j["log"]), "compute_id": j["properties"].get("computeId", ""),
                "environment_id": j["properties"].get("environmentId", ""),
                "command": j["properties"].get("command", ""), "created_at": j["created_iso"]}

    @staticmethod
    def public_compute(c):
        return {"name": c["name"], "id": c["id"], "vm_size": c["vm_size"], "vm_priority": c["vm_priority"],
                "provisioning_state": c["state"], "location": c["location"], "scale_settings": c["scale"],
                "body": c["body"]}

    # ---- token endpoint (as fake_azure_vm.py)

    def token(self, tenant, body):
        form, recorded = token_form(body)
        self.record("token", "POST", self.path.partition("?")[0], {}, recorded)
        self.reply(200, client_credentials_token(self.state, tenant, form))

    # ---- ARM

    def api(self, method, raw_path, path, raw_query, body):
        st = self.state
        params = query_params(raw_query)
        action, groups, matched = match_route(ROUTES, method, path)
        payload = json_payload(body)
        self.record(action, method, raw_path, params, None if payload is ValueError else payload)
        self.check_bearer()
        check_api_version(params, API_VERSION + ",2023-04-01,2022-12-01")
        with st.lock:
            check_route(st, path, matched, groups)
        if groups.get("rg") is not None and groups["rg"].lower() != st.rg.lower():
            raise arm_error(404, "ResourceGroupNotFound", "Resource group '%s' could not be found." % groups["rg"])
        if groups.get("ws") is not None and groups["ws"].lower() != st.ws.lower():
            raise arm_error(404, "ResourceNotFound", "The Resource 'Microsoft.MachineLearningServices/workspaces/%s' "
                            "under resource group '%s' was not found. For more details please go to "
                            "https://aka.ms/ARMResourceNotFoundFix" % (groups["ws"], groups["rg"]))
        with st.lock:
            if count_of(st.faults.get("throttle")) > 0:
                st.faults["throttle"] = count_of(st.faults.get("throttle")) - 1
                raise throttled(method)
        check_payload(method, payload)
        getattr(self, "act_" + action.replace(".", "_"))(groups, params, payload or {})

    def op_url(self, kind, op_id):
        st = self.state
        return "%s/subscriptions/%s/providers/Microsoft.MachineLearningServices/locations/%s/%s/%s?api-version=%s" % (
            self.base_url(), st.subscription, st.location, kind, op_id, API_VERSION)

    def retry_after(self):
        return str(self.state.faults.get("retry_after_s", 1))

    # ---- subscriptions, workspace

    def act_workspaces_get(self, groups, params, body):
        st = self.state
        ws_id = st.ws_path()
        sub_rg = "/subscriptions/%s/resourceGroups/%s/providers/" % (st.subscription, st.rg)
        short = re.sub(r"[^a-z0-9]", "", st.ws.lower())[:12] or "ws"
        self.reply(200, {
            "id": ws_id, "name": st.ws, "type": "Microsoft.MachineLearningServices/workspaces",
            "location": st.location, "tags": {},
            "identity": {"type": "SystemAssigned", "principalId": str(uuid.uuid5(uuid.NAMESPACE_URL, ws_id)),
                         "tenantId": st.tenant},
            "sku": {"name": "Basic", "tier": "Basic"},
            "properties": {
                "friendlyName": st.ws, "description": "GPU Planner fake workspace",
                "storageAccount": sub_rg + "Microsoft.Storage/storageAccounts/" + short + "storage",
                "keyVault": sub_rg + "Microsoft.KeyVault/vaults/" + short + "kv",
                "applicationInsights": sub_rg + "microsoft.insights/components/" + short + "ai",
                "containerRegistry": sub_rg + "Microsoft.ContainerRegistry/registries/" + short + "acr",
                "discoveryUrl": self.base_url() + "/discovery",
                "workspaceId": st.workspace_guid,
                "mlFlowTrackingUri": "azureml://%s.api.azureml.ms/mlflow/v1.0%s" % (st.location, ws_id),
                "provisioningState": "Succeeded", "hbiWorkspace": False, "publicNetworkAccess": "Enabled",
                "privateLinkCount": 0, "allowPublicAccessWhenBehindVnet": False,
                "serviceProvisionedResourceGroup": "%s_%s" % (st.ws, st.workspace_guid.replace("-", "")[:16]),
                "storageHnsEnabled": False, "v1LegacyMode": False},
            "systemData": {"createdAt": "2025-01-06T08:00:00.0000000Z", "createdBy": st.client,
                           "createdByType": "Application", "lastModifiedAt": "2025-01-06T08:00:00.0000000Z",
                           "lastModifiedBy": st.client, "lastModifiedByType": "Application"}})

    # ---- computes

    def show_compute(self, c):
        return {"id": c["id"], "name": c["name"], "type": "Microsoft.MachineLearningServices/workspaces/computes",
                "location": c["location"], "tags": dict(c["tags"]),
                "properties": {"computeType": "AmlCompute", "computeLocation": c["location"],
                               "description": c["description"], "createdOn": c["created"],
                               "modifiedOn": c["modified"], "provisioningState": c["state"],
                               "provisioningErrors": None, "isAttachedCompute": False, "disableLocalAuth": True,
                               "properties": {"vmSize": c["vm_size"], "vmPriority": c["vm_priority"],
                                              "osType": "Linux", "virtualMachineImage": None,
                                              "isolatedNetwork": False, "subnet": None,
                                              "scaleSettings": dict(c["scale"]),
                                              "remoteLoginPortPublicAccess": "NotSpecified",
                                              "allocationState": "Steady",
                                              "allocationStateTransitionTime": c["created"], "errors": None,
                                              "currentNodeCount": 0, "targetNodeCount": 0,
                                              "nodeStateCounts": {"preparingNodeCount": 0, "runningNodeCount": 0,
                                                                  "idleNodeCount": 0, "unusableNodeCount": 0,
                                                                  "leavingNodeCount": 0, "preemptedNodeCount": 0},
                                              "enableNodePublicIp": True}}}

    def compute_not_found(self, name):
        return ml_error(404, "Compute with name %s is not found in workspace %s." % (name, self.state.ws), "NotFound")

    def act_computes_get(self, groups, params, body):
        st = self.state
        with st.lock:
            c = st.computes.get(groups["compute"].lower())
            if c is None:
                raise self.compute_not_found(groups["compute"])
            out = self.show_compute(c)
            if c["state"] == "Creating":
                c["state"] = "Succeeded"  # a GET shows Creating once
        self.reply(200, out)

    def act_computes_createOrUpdate(self, groups, params, body):
        st = self.state
        name = groups["compute"]
        if not COMPUTE_NAME_RE.match(name):
            raise ml_error(400, "Compute name '%s' is invalid. It can include letters, digits and dashes. It must "
                           "start with a letter, end with a letter or digit, and be between 2 and 16 characters in "
                           "length." % name, "ValidationError")
        props = body.get("properties") if isinstance(body.get("properties"), dict) else {}
        location = norm(body.get("location") or "")
        if not location:
            raise arm_error(400, "LocationRequired", "The location property is required for this definition.")
        if location != st.location:
            raise ml_error(400, "Compute location %s must be the same as the workspace location %s."
                           % (body.get("location"), st.location), "BadArgument")
        if props.get("computeType") != "AmlCompute":
            raise ml_error(400, "The compute type '%s' is not supported here: only AmlCompute."
                           % props.get("computeType"), "BadArgument")
        inner = props.get("properties") if isinstance(props.get("properties"), dict) else {}
        size = inner.get("vmSize") or ""
        if size.lower() not in SIZES:
            raise ml_error(400, "The specified VM size '%s' is not supported in region %s." % (size, st.location),
                           "BadArgument")
        priority = inner.get("vmPriority") or "Dedicated"
        if priority not in ("Dedicated", "LowPriority"):
            raise ml_error(400, "vmPriority '%s' is invalid: Dedicated or LowPriority." % priority, "BadArgument")
        scale = inner.get("scaleSettings") if isinstance(inner.get("scaleSettings"), dict) else None
        if scale is None or not isinstance(scale.get("maxNodeCount"), int):
            raise ml_error(400, "scaleSettings.maxNodeCount is required.", "BadArgument")
        low = scale.get("minNodeCount", 0)
        if not isinstance(low, int) or low < 0 or low > scale["maxNodeCount"]:
            raise ml_error(400, "minNodeCount must be between 0 and maxNodeCount.", "BadArgument")
        idle = scale.get("nodeIdleTimeBeforeScaleDown")
        if idle is not None and not re.match(r"^PT(\d+H)?(\d+M)?(\d+S)?$", str(idle)):
            raise ml_error(400, "nodeIdleTimeBeforeScaleDown '%s' is not an ISO-8601 duration." % idle, "BadArgument")
        with st.lock:
            c = st.computes.get(name.lower())
            now = iso_now()
            if c is not None:
                for what, old, new in (("vmSize", c["vm_size"], size), ("vmPriority", c["vm_priority"], priority)):
                    if old.lower() != new.lower():
                        raise ml_error(400, "Updating the compute property '%s' is not supported." % what,
                                       "BadArgument")
                c.update({"scale": dict(scale), "modified": now, "body": json.loads(json.dumps(body)),
                          "tags": dict(body.get("tags") or {})})
                self.reply(200, self.show_compute(c))
                return
            if count_of(st.faults.get("quota")) > 0:
                st.faults["quota"] = count_of(st.faults.get("quota")) - 1
                vcpus = SIZES[size.lower()]
                raise arm_error(400, "QuotaExceeded", "Operation results in exceeding quota limits of %s. Maximum "
                                "allowed: 0, Current in use: 0, Additional requested: %d. Please see "
                                "https://aka.ms/AmlComputeQuotaIncrease for how to request a quota increase."
                                % ("Low Priority Cores" if priority == "LowPriority" else "Core", vcpus))
            c = {"name": name, "id": st.ws_path() + "/computes/" + name, "location": st.location,
                 "vm_size": size, "vm_priority": priority, "scale": dict(scale), "state": "Creating",
                 "description": props.get("description") or "", "created": now, "modified": now,
                 "tags": dict(body.get("tags") or {}), "body": json.loads(json.dumps(body))}
            st.computes[name.lower()] = c
            op = {"id": new_uuid(), "kind": "compute", "target": c, "answers": 0, "start": now}
            st.operations[op["id"]] = op
            out = self.show_compute(c)
        self.reply(201, out, {"Azure-AsyncOperation": self.op_url("computeOperationsStatus", op["id"]),
                              "Retry-After": self.retry_after()})

    def act_asyncOperation(self, groups, params, body):
        st = self.state
        with st.lock:
            op = st.operations.get(groups["op"])
            if op is None or op["kind"] != "compute":
                raise arm_error(404, "NotFound", "The operation '%s' could not be found." % groups["op"])
            op["answers"] += 1
            status = "InProgress"
            if op["answers"] >= 2 or op["target"]["state"] == "Succeeded":
                status = "Succeeded"
                op["target"]["state"] = "Succeeded"
            out = {"id": "/subscriptions/%s/providers/Microsoft.MachineLearningServices/locations/%s/"
                         "computeOperationsStatus/%s" % (st.subscription, st.location, op["id"]),
                   "name": op["id"], "status": status, "startTime": op["start"]}
            if status != "InProgress":
                out["endTime"] = iso_now()
                out["percentComplete"] = 100
        self.reply(200, out, {} if status != "InProgress" else {"Retry-After": self.retry_after()})

    def act_operationResult(self, groups, params, body):
        """The Location of a job's cancel: 202 while it runs, then 200 without a body."""
        st = self.state
        with st.lock:
            op = st.operations.get(groups["op"])
            if op is None or op["kind"] != "cancel":
                raise arm_error(404, "NotFound", "The operation '%s' could not be found." % groups["op"])
            op["answers"] += 1
            job = op["target"]
            done = op["answers"] >= 2 or job["status"] in FINAL
            if done and job["status"] == "CancelRequested":
                self.end_job(job, "Canceled")
        if done:
            self.reply(200, None)
        else:
            self.reply(202, None, {"Location": self.op_url("mfeOperationResults", op["id"]),
                                   "Retry-After": self.retry_after()})

    # ---- environments

    def show_environment(self, e):
        return {"id": e["id"], "name": e["version"], "type":
                "Microsoft.MachineLearningServices/workspaces/environments/versions",
                "properties": {"description": e["body"].get("properties", {}).get("description"),
                               "tags": dict(e["body"].get("properties", {}).get("tags") or {}), "properties": {},
                               "isArchived": False, "isAnonymous": False, "environmentType": "UserCreated",
                               "image": e["image"], "osType": "Linux", "provisioningState": "Succeeded"},
                "systemData": {"createdAt": e["created"], "createdBy": self.state.client,
                               "createdByType": "Application", "lastModifiedAt": e["created"],
                               "lastModifiedBy": self.state.client, "lastModifiedByType": "Application"}}

    def act_environmentVersions_get(self, groups, params, body):
        st = self.state
        with st.lock:
            e = st.environments.get((groups["env"].lower(), groups["version"]))
            if e is None:
                raise ml_error(404, "Could not find asset with ID: azureml://locations/%s/workspaces/%s/environments/"
                               "%s/versions/%s" % (st.location, st.workspace_guid, groups["env"], groups["version"]),
                               "NotFound")
            out = self.show_environment(e)
        self.reply(200, out)

    def act_environmentVersions_createOrUpdate(self, groups, params, body):
        st = self.state
        props = body.get("properties") if isinstance(body.get("properties"), dict) else None
        if props is None:
            raise ml_error(400, "The request is invalid: properties are required.", "ValidationError")
        image = props.get("image") or ""
        if not image and not props.get("build"):
            raise ml_error(400, "Docker image or Dockerfile is required for environments.", "ValidationError")
        key = (groups["env"].lower(), groups["version"])
        with st.lock:
            e = st.environments.get(key)
            if e is not None:
                if e["image"] != image:
                    raise ml_error(409, "Environment %s version %s already exists with different properties: an "
                                   "environment version is immutable." % (groups["env"], groups["version"]),
                                   "Conflict")
                self.reply(200, self.show_environment(e))
                return
            e = {"name": groups["env"], "version": groups["version"], "image": image, "created": iso_now(),
                 "id": "%s/environments/%s/versions/%s" % (st.ws_path(), groups["env"], groups["version"]),
                 "body": json.loads(json.dumps(body))}
            st.environments[key] = e
            out = self.show_environment(e)
        self.reply(201, out)

    # ---- jobs

    def find_job(self, name):
        return next((j for j in self.state.jobs if j["name"] == name), None)

    def visible(self, job):
        return time.time() - job["created_at"] >= float(self.state.faults.get("invisible_s") or 0)

    def job_not_found(self, name):
        return ml_error(404, "The specified resource was not found: job %s." % name, "NotFound")

    def same_workspace_id(self, ref, kind):
        """The name(s) an ARM id of this workspace names, or None."""
        prefix = self.state.ws_path().lower() + "/" + kind + "/"
        if not isinstance(ref, str) or not ref.lower().startswith(prefix):
            return None
        return ref[len(prefix):]

    def show_job(self, j):
        st = self.state
        props = json.loads(json.dumps(j["properties"]))
        props.update({"status": j["status"], "tags": dict(j["tags"]), "isArchived": False,
                      "experimentName": props.get("experimentName") or "Default",
                      "services": {"Tracking": {"jobServiceType": "Tracking", "port": None,
                                                "endpoint": "azureml://%s.api.azureml.ms/mlflow/v1.0%s?"
                                                            % (st.location, st.ws_path()),
                                                "status": None, "errorMessage": None, "properties": None},
                                   "Studio": {"jobServiceType": "Studio", "port": None,
                                              "endpoint": "https://ml.azure.com/runs/%s?wsid=%s&tid=%s"
                                                          % (j["name"], st.ws_path(), st.tenant),
                                              "status": None, "errorMessage": None, "properties": None}}})
        props.setdefault("properties", {})
        props.setdefault("inputs", {})
        props.setdefault("outputs", {"default": {"jobOutputType": "uri_folder", "mode": "ReadWriteMount",
                                                 "uri": "azureml://datastores/workspaceartifactstore/ExperimentRun/"
                                                        "dcid.%s" % j["name"], "description": None}})
        props.setdefault("identity", None)
        props.setdefault("distribution", None)
        props.setdefault("codeId", None)
        props.setdefault("parameters", {})
        props.setdefault("limits", None)
        return {"id": "%s/jobs/%s" % (st.ws_path(), j["name"]), "name": j["name"], "type": JOB_TYPE,
                "properties": props,
                "systemData": {"createdAt": j["created_iso"], "createdBy": st.client, "createdByType": "Application",
                               "lastModifiedAt": j["modified_iso"], "lastModifiedBy": st.client,
                               "lastModifiedByType": "Application"}}

    def start_job(self, job):
        job["status"] = "Running"
        job["started_at"] = time.time()
        job["log"].append("gpuplan-fake: job %s started: %s" % (job["name"], job["properties"].get("command", "")))

    def end_job(self, job, status, error=None):
        job["status"] = status
        job["ended_at"] = time.time()
        if status == "Completed":
            job["log"].append("done")
        elif status == "Failed":
            job["error"] = error
            job["log"].append("gpuplan-fake: job %s failed: %s" % (job["name"], error["message"]))
        elif status == "Canceled":
            job["log"].append("gpuplan-fake: job %s canceled" % job["name"])

    def advance(self, job):
        """One GET's step of the lifecycle (the module docstring)."""
        st = self.state
        status = job["status"]
        if status == "NotStarted":
            if st.running_after > 0:
                job["status"] = "Queued"
            else:
                self.start_job(job)
        elif status == "Queued":
            if job["queued_shown"] >= st.running_after:
                self.start_job(job)
        elif status == "Running":
            if job["fail"] and job["running_shown"] >= 1:
                self.end_job(job, "Failed", {
                    "code": "UserError",
                    "message": "Execution failed. User process 'bash' exited with status code 1. Please check log "
                               "file 'user_logs/std_log.txt' for error details.",
                    "messageFormat": "", "details": [], "innerError": {"code": "UserError"}})
            elif st.finish_after > 0 and job["running_shown"] >= st.finish_after:
                self.end_job(job, "Completed")
        elif status == "CancelRequested":
            self.end_job(job, "Canceled")
        # What this GET shows.
        if job["status"] == "Queued":
            job["queued_shown"] += 1
        elif job["status"] == "Running":
            job["running_shown"] += 1
            job["log"].append("step %d" % job["running_shown"])
        job["modified_iso"] = iso_now()

    def act_jobs_get(self, groups, params, body):
        st = self.state
        with st.lock:
            job = self.find_job(groups["job"])
            if job is None or not self.visible(job):
                raise self.job_not_found(groups["job"])
            self.advance(job)
            out = self.show_job(job)
        self.reply(200, out)

    def act_jobs_list(self, groups, params, body):
        st = self.state
        tag = params.get("tag")
        job_type = params.get("jobType")
        view = params.get("listViewType") or "ActiveOnly"
        try:
            start = int(params.get("$skipToken") or 0)
        except ValueError:
            raise ml_error(400, "The $skipToken is invalid.", "BadArgument")
        with st.lock:
            chosen = []
            for j in st.jobs:
                if not self.visible(j):
                    continue
                if tag:
                    key, eq, value = tag.partition("=")
                    if key not in j["tags"] or (eq and j["tags"][key] != value):
                        continue
                if job_type and job_type.lower() != str(j["properties"].get("jobType", "")).lower():
                    continue
                if view == "ArchivedOnly":
                    continue
                chosen.append(j)
            size = max(1, count_of(st.faults.get("page_size")) or 50)
            page = chosen[start:start + size]
            out = {"value": [self.show_job(j) for j in page]}
        if start + size < len(chosen):
            query = [("api-version", params.get("api-version", API_VERSION))]
            for key in ("tag", "jobType", "listViewType"):
                if params.get(key):
                    query.append((key, params[key]))
            query.append(("$skipToken", str(start + size)))
            out["nextLink"] = "%s%s/jobs?%s" % (self.base_url(), st.ws_path(),
                                               "&".join("%s=%s" % (quote(k), quote(v, safe="")) for k, v in query))
        self.reply(200, out)

    def validate_job(self, name, body):
        st = self.state
        if not NAME_RE.match(name):
            raise ml_error(400, "Job name '%s' is invalid: it must start with a letter or digit and contain only "
                           "letters, digits, '-' and '_' (at most 255 characters)." % name, "ValidationError")
        props = body.get("properties")
        if not isinstance(props, dict):
            raise ml_error(400, "The request is invalid: properties are required.", "ValidationError")
        if props.get("jobType") != "Command":
            raise ml_error(400, "Only command jobs are served by this fake (jobType '%s')." % props.get("jobType"),
                           "ValidationError")
        if not isinstance(props.get("command"), str) or not props["command"].strip():
            raise ml_error(400, "The command of a command job is required.", "ValidationError")
        compute = self.same_workspace_id(props.get("computeId"), "computes")
        if compute is None or compute.lower() not in st.computes:
            raise ml_error(400, "Compute '%s' was not found in workspace %s." % (props.get("computeId"), st.ws),
                           "ValidationError")
        env = self.same_workspace_id(props.get("environmentId"), "environments")
        env_name, _, version = (env or "").partition("/versions/")
        if env is None or (env_name.lower(), version) not in st.environments:
            raise ml_error(400, "Environment '%s' was not found in workspace %s." % (props.get("environmentId"),
                                                                                     st.ws), "ValidationError")
        variables = props.get("environmentVariables") or {}
        if not isinstance(variables, dict) or not all(isinstance(v, str) for v in variables.values()):
            raise ml_error(400, "environmentVariables must map names to strings.", "ValidationError")
        resources = props.get("resources") or {}
        if not isinstance(resources, dict) or resources.get("instanceCount", 1) != 1:
            raise ml_error(400, "This fake runs a job on one node (resources.instanceCount 1).", "ValidationError")
        limits = props.get("limits")
        if limits is not None:
            if not isinstance(limits, dict) or limits.get("jobLimitsType") != "Command" or not re.match(
                    r"^P(\d+D)?(T(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$", str(limits.get("timeout") or "")):
                raise ml_error(400, "limits must be {jobLimitsType: Command, timeout: an ISO-8601 duration}.",
                               "ValidationError")
        tags = props.get("tags") or {}
        if not isinstance(tags, dict) or not all(isinstance(v, str) for v in tags.values()):
            raise ml_error(400, "tags must map names to strings.", "ValidationError")
        return props

    def act_jobs_createOrUpdate(self, groups, params, body):
        st = self.state
        name = groups["job"]
        with st.lock:
            props = self.validate_job(name, body)
            job = self.find_job(name)
            now = time.time()
            if job is not None:
                for what in ("command", "computeId", "environmentId"):
                    if str(job["properties"].get(what, "")).lower() != str(props.get(what, "")).lower():
                        raise ml_error(400, "Job property '%s' cannot be changed: a job's definition is immutable."
                                       % what, "BadArgument")
                job["tags"] = dict(props.get("tags") or {})
                for what in ("displayName", "description"):
                    if what in props:
                        job["properties"][what] = props[what]
                job["modified_iso"] = iso_now(now)
                self.reply(200, self.show_job(job))
                return
            fail = name in st.fail_names
            st.fail_names.discard(name)
            if not fail and count_of(st.faults.get("fail_job")) > 0:
                st.faults["fail_job"] = count_of(st.faults.get("fail_job")) - 1
                fail = True
            stored = {k: v for k, v in json.loads(json.dumps(props)).items() if k not in ("status", "services")}
            job = {"name": name, "properties": stored, "received": json.loads(json.dumps(props)),
                   "tags": dict(props.get("tags") or {}), "status": "NotStarted", "created_at": now,
                   "created_iso": iso_now(now), "modified_iso": iso_now(now), "queued_shown": 0, "running_shown": 0,
                   "cancel_requested": False, "log": [], "fail": fail, "error": None, "started_at": None,
                   "ended_at": None, "sig": secrets.token_urlsafe(24)}
            st.jobs.append(job)
            out = self.show_job(job)
            drop = count_of(st.faults.get("drop_after_accept")) > 0
            if drop:
                st.faults["drop_after_accept"] = count_of(st.faults.get("drop_after_accept")) - 1
        if drop:
            self.close_without_answer()
            return
        self.reply(201, out)

    def act_jobs_cancel(self, groups, params, body):
        st = self.state
        with st.lock:
            job = self.find_job(groups["job"])
            if job is None or not self.visible(job):
                raise self.job_not_found(groups["job"])
            if job["status"] in FINAL:
                raise ml_error(400, "Job %s is already in a terminal state (%s) and cannot be canceled."
                               % (job["name"], job["status"]), "BadArgument")
            if job["status"] != "CancelRequested":
                job["status"] = "CancelRequested"
                job["cancel_requested"] = True
                job["log"].append("gpuplan-fake: job %s cancel requested" % job["name"])
            op = {"id": "jc:%s:%s" % (st.workspace_guid, new_uuid().replace("-", "")), "kind": "cancel",
                  "target": job, "answers": 0, "start": iso_now()}
            st.operations[op["id"]] = op
        self.reply(202, None, {"Location": self.op_url("mfeOperationResults", op["id"]),
                               "Retry-After": self.retry_after()})

    # ---- discovery, run history, log blob

    def discovery(self):
        base = self.base_url()
        self.reply(200, {"api": base, "catalog": base, "experimentation": base, "gallery": base + "/gallery/v1.0",
                         "history": base, "hyperdrive": base, "labeling": base, "modelmanagement": base,
                         "pipelines": base, "studio": "https://ml.azure.com"})

    def sas_url(self, job):
        expiry = datetime.datetime.fromtimestamp(time.time() + 3 * 3600, datetime.timezone.utc)
        return "%s/azureml/ExperimentRun/dcid.%s/user_logs/std_log.txt?sv=2019-07-07&sr=b&sig=%s&skoid=%s&st=%s" \
               "&se=%s&sp=r" % (self.base_url(), job["name"], quote(job["sig"], safe=""), new_uuid(),
                                quote(iso_now(time.time() - 600)[:19] + "Z", safe=""),
                                quote(expiry.strftime("%Y-%m-%dT%H:%M:%SZ"), safe=""))

    def run_details(self, groups):
        st = self.state
        self.check_bearer()
        if (groups["sub"].lower() != st.subscription.lower() or groups["rg"].lower() != st.rg.lower()
                or groups["ws"].lower() != st.ws.lower()):
            raise ml_error(404, "Workspace %s/%s was not found." % (groups["rg"], groups["ws"]), "NotFound")
        with st.lock:
            job = self.find_job(groups["run"])
            if job is None or not self.visible(job):
                raise ml_error(404, "Run %s was not found" % groups["run"], "RunNotFound")
            compute = self.same_workspace_id(job["properties"].get("computeId"), "computes") or ""
            c = st.computes.get(compute.lower())
            out = {"runId": job["name"], "runUuid": str(uuid.uuid5(uuid.NAMESPACE_URL, job["name"])),
                   "parentRunUuid": None, "rootRunUuid": str(uuid.uuid5(uuid.NAMESPACE_URL, job["name"])),
                   "target": compute, "status": job["status"], "parentRunId": None, "dataContainerId":
                   "dcid." + job["name"], "createdTimeUtc": job["created_iso"],
                   "startTimeUtc": iso_now(job["started_at"]) if job["started_at"] else None,
                   "endTimeUtc": iso_now(job["ended_at"]) if job["ended_at"] else None,
                   "error": {"error": job["error"]} if job["error"] else None,
                   "warnings": None, "tags": dict(job["tags"]), "properties": {}, "parameters": {},
                   "services": {}, "inputDatasets": [], "outputDatasets": [], "runDefinition": None,
                   "logFiles": {}, "jobCost": None, "revision": len(job["log"]) + 1, "runTypeV2": {
                       "orchestrator": None, "traits": [], "attribution": None, "computeType": "AmlCompute"},
                   "settings": {}, "computeRequest": {"nodeCount": 1, "gpuCount": 0},
                   "compute": {"target": compute, "targetType": "AmlCompute",
                               "vmSize": c["vm_size"] if c else None, "instanceCount": 1,
                               "priority": c["vm_priority"] if c else None},
                   "createdBy": {"userObjectId": str(uuid.uuid5(uuid.NAMESPACE_URL, st.client)),
                                 "userPuId": None, "userIdp": None, "userAltSecId": None,
                                 "userIss": "https://sts.windows.net/%s/" % st.tenant, "userTenantId": st.tenant,
                                 "userName": st.client, "upn": None}}
            if job["log"]:
                out["logFiles"]["user_logs/std_log.txt"] = self.sas_url(job)
        self.reply(200, out)

    def blob(self, run, name, params):
        st = self.state
        if self.headers.get("Authorization"):
            raise storage_error(400, "InvalidAuthenticationInfo", "Authentication information is not given in the "
                                "correct format. Check the value of Authorization header.")
        if "sig" not in params:
            raise storage_error(409, "PublicAccessNotPermitted", "Public access is not permitted on this storage "
                                "account.")
        with st.lock:
            job = self.find_job(run)
            if job is None or not secrets.compare_digest(params["sig"], job["sig"]):
                raise storage_error(403, "AuthenticationFailed", "Server failed to authenticate the request. Make "
                                    "sure the value of Authorization header is formed correctly including the "
                                    "signature.")
            if name != "user_logs/std_log.txt" or not job["log"]:
                raise storage_error(404, "BlobNotFound", "The specified blob does not exist.")
            data = "".join(line + "\n" for line in job["log"]).encode()
            revision = len(job["log"])
        headers = {"Content-Type": "text/plain; charset=utf-8", "x-ms-version": params.get("sv", "2019-07-07"),
                   "x-ms-blob-type": "AppendBlob", "Accept-Ranges": "bytes",
                   "Last-Modified": email.utils.formatdate(usegmt=True), "ETag": '"0x8DC%013X"' % revision}
        wanted = self.headers.get("x-ms-range") or self.headers.get("Range")
        match = re.match(r"^bytes=(\d+)-(\d*)$", wanted or "")
        if match:
            first = int(match.group(1))
            last = int(match.group(2)) if match.group(2) else len(data) - 1
            if first >= len(data):
                raise storage_error(416, "InvalidRange", "The range specified is invalid for the current size of "
                                    "the resource.")
            last = min(last, len(data) - 1)
            headers["Content-Range"] = "bytes %d-%d/%d" % (first, last, len(data))
            self.reply(206, data[first:last + 1], headers)
            return
        self.reply(200, data, headers)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_credential_args(parser, SECRET)
    parser.add_argument("--subscription", "--subscription-id", dest="subscription", default=SUBSCRIPTION)
    parser.add_argument("--workspace", default=WORKSPACE)
    parser.add_argument("--location", default=LOCATION)
    parser.add_argument("--running-after", type=int, default=1)
    parser.add_argument("--finish-after", type=int, default=2)
    parser.add_argument("--retry-after", type=int, default=1)
    args = parser.parse_args()
    Handler.state = State(args)
    return serve(Handler, args.port_file)


if __name__ == "__main__":
    sys.exit(main())
