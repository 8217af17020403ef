#!/usr/bin/env python3
"""Self-test of fake_azure_ml.py, run by hand (not in ctest); exit status 0 when every check passes, 1 otherwise:

    python3 tests/integration/fakes/test_fake_azure_ml.py [-v]

It starts the fake on a free loopback port and drives it over HTTP: the token endpoint (a token; a wrong secret, an
unknown client and an unknown tenant answer AADSTS7000215 / AADSTS700016 / AADSTS90002), the ARM checks (no or a
foreign bearer token, no api-version, another subscription, resource group or workspace), the subscriptions list, and
a whole job: the workspace (its discoveryUrl on the fake) and the discovery document read without a token, the cluster
(GET 404, PUT 201 Creating with Azure-AsyncOperation, that operation InProgress then Succeeded, GET Succeeded, a PUT
again 200, another size refused), the environment version (GET 404, PUT 201, again 200, another image 409), the job
(GET 404, PUT 201 NotStarted, GET Queued, Running, Running, Completed), the run details (no token: 401) and their log
SAS URL whose text grows "started", "step 1", "step 2", "done" (a GET with an Authorization header 400, a wrong
signature 403, none 409, a Range 206), the list with the tag filter and its pages; the cancel (CancelRequested, then
Canceled on the next GET; the Location 202 then 200; an ended job refused; a missing one 404); the knobs
(--running-after 2 --finish-after 1 on the command line, finish_after 0 through the faults); every fault (throttle 429
with Retry-After, the token endpoint not throttled; drop_after_accept: the PUT applied, the connection closed without
an answer; quota: the next cluster create refused with the ARM QuotaExceeded body and nothing created; fail_job by
count and by name: Failed, the log line and the run's error; invisible_s: 404 on GET, cancel and run details, left
out of the list, then visible) and /_fake/state's shape.

Then the official SDK (tests/integration/sdk/node_modules/@azure/arm-machinelearning 2.1.1, $host and endpoint
http://127.0.0.1:PORT, allowInsecureConnection, a credential whose getToken returns a token this fake issued, and the
bearer policy replaced as test_fake_azure_vm.py does because @azure/core-rest-pipeline 1.24.0's refuses http URLs)
calls workspaces.get, computeOperations.get (404) and beginCreateOrUpdateAndWait, environmentVersions.get (404) and
createOrUpdate, jobs.createOrUpdate, jobs.get until Running, jobs.list with the tag filter and jobs.beginCancelAndWait,
then jobs.get (Canceled): proof the fake accepts what the real SDK sends. That part FAILS, not skips, when node or the
SDK is missing (tests/integration/sdk/setup.sh installs it). It runs on Node 18 (Debian 12's) as on Node 20.
"""

import http.client
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
from urllib.parse import urlencode, urlsplit

HERE = os.path.dirname(os.path.abspath(__file__))
FAKE = os.path.join(HERE, "fake_azure_ml.py")
SDK = os.path.normpath(os.path.join(HERE, "..", "sdk"))
# FakeCloud.h's azure() credential and the fake's defaults.
TENANT = "11111111-1111-4111-8111-111111111111"
CLIENT = "22222222-2222-4222-8222-222222222222"
SECRET = "fake-azure-client-secret-for-tests"
SUB = "33333333-3333-4333-8333-333333333333"
RG = "gpuplan-rg"
WS = "gpuplan-ws"
REGION = "eastus"
API = "2022-10-01"
WS_PATH = "/subscriptions/%s/resourceGroups/%s/providers/Microsoft.MachineLearningServices/workspaces/%s" % (SUB, RG,
                                                                                                              WS)
CLUSTER = "gpl-0123abcd"
ENV = "gpuplanner-0123456789ab"
IMAGE = "nvcr.io/nvidia/pytorch:24.05-py3"
TOKEN = "gpuplan-0123456789abcdef01234567"
COMMAND = "python train.py --epochs 3"


class FakeProcess:
    """The fake, started on a free port with `args`."""

    def __init__(self, *args):
        self.dir = tempfile.mkdtemp()
        port_file = os.path.join(self.dir, "port")
        self.proc = subprocess.Popen([sys.executable, FAKE, "--port-file", port_file] + list(args))
        for _ in range(200):
            if os.path.exists(port_file):
                break
            time.sleep(0.05)
        with open(port_file) as f:
            self.port = int(f.read())

    def stop(self):
        self.proc.kill()
        self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


class FakeAzureMlTest(unittest.TestCase):
    ARGS = ("--retry-after", "0")

    def setUp(self):
        self.fake = FakeProcess(*self.ARGS)
        self.port = self.fake.port
        status, body = self.token()
        self.assertEqual(status, 200, body)
        self.access = body["access_token"]

    def tearDown(self):
        self.fake.stop()

    # ---- helpers

    def raw(self, method, target, body=None, headers=None, parse=True):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request(method, target, body=body, headers=headers or {})
            response = conn.getresponse()
            text = response.read()
        finally:
            conn.close()
        if parse:
            text = json.loads(text) if text else None
        return response.status, text, dict(response.getheaders())

    def token(self, tenant=TENANT, client=CLIENT, secret=SECRET, scope="https://management.azure.com/.default"):
        form = urlencode({"client_id": client, "client_secret": secret, "scope": scope,
                          "grant_type": "client_credentials"})
        status, body, _ = self.raw("POST", "/%s/oauth2/v2.0/token" % tenant, form,
                                   {"Content-Type": "application/x-www-form-urlencoded"})
        return status, body

    def call(self, method, path, body=None, api_version=API, query=None, auth=True):
        params = dict(query or {})
        if api_version:
            params["api-version"] = api_version
        target = path + ("?" + urlencode(params) if params else "")
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if auth:
            headers["Authorization"] = "Bearer " + (self.access if auth is True else auth)
        return self.raw(method, target, None if body is None else json.dumps(body), headers)

    def get_url(self, url, auth=True, headers=None, parse=True):
        """GET of a URL an answer gave (it must be on this fake)."""
        parts = urlsplit(url)
        self.assertEqual((parts.scheme, parts.netloc), ("http", "127.0.0.1:%d" % self.port), url)
        sent = dict(headers or {})
        if auth:
            sent["Authorization"] = "Bearer " + self.access
        return self.raw("GET", parts.path + ("?" + parts.query if parts.query else ""), headers=sent, parse=parse)

    def control(self, method, path, body=None):
        status, out, _ = self.raw(method, path, None if body is None else json.dumps(body))
        self.assertEqual(status, 200, out)
        return out

    def faults(self, **faults):
        self.assertTrue(self.control("POST", "/_fake/faults", faults)["ok"])

    def state(self):
        return self.control("GET", "/_fake/state")

    def compute_body(self, size="Standard_NC4as_T4_v3", priority="Dedicated"):
        return {"location": REGION, "properties": {"computeType": "AmlCompute", "properties": {
            "vmSize": size, "vmPriority": priority,
            "scaleSettings": {"minNodeCount": 0, "maxNodeCount": 1, "nodeIdleTimeBeforeScaleDown": "PT2M"}}}}

    def job_body(self, name=TOKEN, tags=None, command=COMMAND, cluster=CLUSTER):
        return {"properties": {
            "jobType": "Command", "experimentName": "gpuplanner", "displayName": name,
            "computeId": WS_PATH + "/computes/" + cluster, "environmentId": WS_PATH + "/environments/%s/versions/1"
                                                                                      % ENV,
            "command": command, "environmentVariables": {"GPUPLAN_RUN": "1"}, "resources": {"instanceCount": 1},
            "limits": {"jobLimitsType": "Command", "timeout": "PT3600S"},
            "tags": dict({"gpuplanner-token": name}, **(tags or {}))}}

    def prepare(self):
        """The cluster and the environment a job needs, made through the API."""
        status, _, headers = self.call("PUT", WS_PATH + "/computes/" + CLUSTER, self.compute_body())
        self.assertEqual(status, 201)
        self.poll(headers["Azure-AsyncOperation"])
        status, _, _ = self.call("PUT", WS_PATH + "/environments/%s/versions/1" % ENV,
                                 {"properties": {"image": IMAGE}})
        self.assertEqual(status, 201)

    def submit(self, name=TOKEN, **kwargs):
        status, job, _ = self.call("PUT", WS_PATH + "/jobs/" + name, self.job_body(name, **kwargs))
        self.assertEqual(status, 201, job)
        return job

    def job_status(self, name=TOKEN):
        status, job, _ = self.call("GET", WS_PATH + "/jobs/" + name)
        self.assertEqual(status, 200, job)
        return job["properties"]["status"]

    def poll(self, url):
        """GETs an Azure-AsyncOperation URL until it ends; the statuses seen."""
        seen = []
        for _ in range(10):
            status, body, _ = self.get_url(url)
            self.assertEqual(status, 200, body)
            seen.append(body["status"])
            if body["status"] != "InProgress":
                return seen
        self.fail("the operation never ended: %s" % seen)

    def details(self, name=TOKEN):
        status, ws, _ = self.call("GET", WS_PATH)
        self.assertEqual(status, 200, ws)
        status, discovery, _ = self.get_url(ws["properties"]["discoveryUrl"], auth=False)
        self.assertEqual(status, 200, discovery)
        url = discovery["api"] + "/history/v1.0" + WS_PATH + "/runs/%s/details" % name
        return self.get_url(url)

    def log_text(self, name=TOKEN):
        """The job's std_log through the run details' SAS URL, fetched without a token; None while it has none."""
        status, details, _ = self.details(name)
        self.assertEqual(status, 200, details)
        url = details["logFiles"].get("user_logs/std_log.txt")
        if url is None:
            return None
        status, text, headers = self.get_url(url, auth=False, parse=False)
        self.assertEqual(status, 200, text)
        self.assertTrue(headers["Content-Type"].startswith("text/plain"))
        return text.decode()

    # ---- tests

    def test_token_endpoint(self):
        status, body = self.token()
        self.assertEqual(status, 200, body)
        self.assertEqual((body["token_type"], body["expires_in"]), ("Bearer", 3599))
        status, body = self.token(secret="wrong")
        self.assertEqual((status, body["error"], body["error_codes"]), (401, "invalid_client", [7000215]))
        status, body = self.token(client="44444444-4444-4444-8444-444444444444")
        self.assertEqual((status, body["error"], body["error_codes"]), (400, "unauthorized_client", [700016]))
        status, body = self.token(tenant="55555555-5555-4555-8555-555555555555")
        self.assertEqual((status, body["error"], body["error_codes"]), (400, "invalid_request", [90002]))
        status, body = self.token(scope="https://management.azure.com/")
        self.assertEqual((status, body["error_codes"]), (400, [1002012]))
        calls = [c for c in self.state()["calls"] if c["action"] == "token"]
        self.assertEqual(len(calls), 6)
        self.assertNotIn(SECRET, json.dumps(self.state()))

    def test_arm_checks(self):
        status, body, _ = self.call("GET", WS_PATH, auth=False)
        self.assertEqual((status, body["error"]["code"]), (401, "AuthenticationFailed"))
        status, body, headers = self.call("GET", WS_PATH, auth="not-issued")
        self.assertEqual((status, body["error"]["code"]), (401, "InvalidAuthenticationToken"))
        self.assertIn("WWW-Authenticate", headers)
        status, body, _ = self.call("GET", WS_PATH, api_version=None)
        self.assertEqual((status, body["error"]["code"]), (400, "MissingApiVersionParameter"))
        status, body, _ = self.call("GET", WS_PATH, api_version="latest")
        self.assertEqual((status, body["error"]["code"]), (400, "InvalidApiVersionParameter"))
        status, body, _ = self.call("GET", "/subscriptions", api_version="2022-12-01")
        self.assertEqual([(s["subscriptionId"], s["state"]) for s in body["value"]], [(SUB, "Enabled")])
        status, body, _ = self.call("GET", WS_PATH.replace(SUB, "9" * 8 + SUB[8:]))
        self.assertEqual((status, body["error"]["code"]), (404, "SubscriptionNotFound"))
        status, body, _ = self.call("GET", WS_PATH.replace(RG, "other-rg"))
        self.assertEqual((status, body["error"]["code"]), (404, "ResourceGroupNotFound"))
        status, body, _ = self.call("GET", WS_PATH.replace("/" + WS, "/other-ws"))
        self.assertEqual((status, body["error"]["code"]), (404, "ResourceNotFound"))
        # Paths match without regard to case (ARM's do).
        self.assertEqual(self.call("GET", WS_PATH.lower().replace(SUB.lower(), SUB))[0], 200)

    def test_a_job_runs_from_submit_to_completed(self):
        # The workspace, its discovery document (no token needed) pointing back at the fake.
        status, ws, _ = self.call("GET", WS_PATH)
        self.assertEqual(status, 200, ws)
        self.assertEqual((ws["name"], ws["location"], ws["id"]), (WS, REGION, WS_PATH))
        self.assertEqual(ws["properties"]["discoveryUrl"], "http://127.0.0.1:%d/discovery" % self.port)
        status, discovery, _ = self.get_url(ws["properties"]["discoveryUrl"], auth=False)
        self.assertEqual((status, discovery["api"]), (200, "http://127.0.0.1:%d" % self.port))

        # The cluster: 404, PUT 201 Creating with its operation (InProgress once, then Succeeded), GET Succeeded.
        compute_path = WS_PATH + "/computes/" + CLUSTER
        status, missing, _ = self.call("GET", compute_path)
        self.assertEqual((status, missing["error"]["code"], missing["error"]["innerError"]["code"]),
                         (404, "UserError", "NotFound"))
        status, created, headers = self.call("PUT", compute_path, self.compute_body(priority="LowPriority"))
        self.assertEqual((status, created["properties"]["provisioningState"]), (201, "Creating"), created)
        self.assertEqual(created["id"], compute_path)
        self.assertEqual(headers["Retry-After"], "0")
        self.assertIn("/computeOperationsStatus/", headers["Azure-AsyncOperation"])
        self.assertEqual(self.poll(headers["Azure-AsyncOperation"]), ["InProgress", "Succeeded"])
        status, got, _ = self.call("GET", compute_path)
        self.assertEqual((status, got["properties"]["provisioningState"], got["properties"]["properties"]["vmSize"],
                          got["properties"]["properties"]["vmPriority"]),
                         (200, "Succeeded", "Standard_NC4as_T4_v3", "LowPriority"))
        status, again, headers = self.call("PUT", compute_path, self.compute_body(priority="LowPriority"))
        self.assertEqual(status, 200, again)
        self.assertNotIn("Azure-AsyncOperation", headers)
        status, refused, _ = self.call("PUT", compute_path, self.compute_body(size="Standard_NC24ads_A100_v4",
                                                                              priority="LowPriority"))
        self.assertEqual(status, 400, refused)
        status, refused, _ = self.call("PUT", WS_PATH + "/computes/x", self.compute_body())
        self.assertEqual(status, 400, refused)  # a name of one character

        # The environment version: 404, 201, the same again 200, another image 409.
        env_path = WS_PATH + "/environments/%s/versions/1" % ENV
        self.assertEqual(self.call("GET", env_path)[0], 404)
        status, env, _ = self.call("PUT", env_path, {"properties": {"image": IMAGE}})
        self.assertEqual((status, env["properties"]["image"], env["id"]), (201, IMAGE, env_path))
        self.assertEqual(self.call("PUT", env_path, {"properties": {"image": IMAGE}})[0], 200)
        self.assertEqual(self.call("PUT", env_path, {"properties": {"image": "ubuntu:22.04"}})[0], 409)
        self.assertEqual(self.call("GET", env_path)[1]["properties"]["image"], IMAGE)

        # The job: 404, then PUT 201 NotStarted; a job on a cluster that does not exist is refused.
        job_path = WS_PATH + "/jobs/" + TOKEN
        status, missing, _ = self.call("GET", job_path)
        self.assertEqual((status, missing["error"]["innerError"]["code"]), (404, "NotFound"))
        status, refused, _ = self.call("PUT", job_path, self.job_body(cluster="gpl-nothere"))
        self.assertEqual(status, 400, refused)
        job = self.submit(tags={"team": "ml"})
        self.assertEqual((job["name"], job["id"], job["type"], job["properties"]["status"]),
                         (TOKEN, job_path, "Microsoft.MachineLearningServices/workspaces/jobs", "NotStarted"))
        self.assertEqual(job["properties"]["tags"], {"gpuplanner-token": TOKEN, "team": "ml"})
        self.assertIn("createdAt", job["systemData"])
        self.assertIsNone(self.log_text())  # nothing written before it runs
        # The run details need the token.
        status, details, _ = self.details()
        self.assertEqual((status, details["status"], details["logFiles"]), (200, "NotStarted", {}))
        status, ws, _ = self.call("GET", WS_PATH)
        url = "http://127.0.0.1:%d/history/v1.0%s/runs/%s/details" % (self.port, WS_PATH, TOKEN)
        self.assertEqual(self.get_url(url, auth=False)[0], 401)

        # Each GET one step: Queued, Running (started, step 1), Running (step 2), Completed (done).
        self.assertEqual(self.job_status(), "Queued")
        self.assertIsNone(self.log_text())
        self.assertEqual(self.job_status(), "Running")
        self.assertEqual(self.log_text(), "gpuplan-fake: job %s started: %s\nstep 1\n" % (TOKEN, COMMAND))
        self.assertEqual(self.job_status(), "Running")
        self.assertEqual(self.log_text().splitlines()[-1], "step 2")
        status, details, _ = self.details()
        self.assertEqual((details["status"], details["runId"], details["endTimeUtc"]), ("Running", TOKEN, None))
        self.assertTrue(details["startTimeUtc"])
        self.assertEqual(self.job_status(), "Completed")
        self.assertEqual(self.log_text().splitlines(),
                         ["gpuplan-fake: job %s started: %s" % (TOKEN, COMMAND), "step 1", "step 2", "done"])
        self.assertEqual(self.job_status(), "Completed")  # it stays ended
        status, details, _ = self.details()
        self.assertEqual(details["status"], "Completed")
        self.assertTrue(details["endTimeUtc"])

        # The SAS URL: never with an Authorization header; its signature checked; a Range honoured.
        sas = details["logFiles"]["user_logs/std_log.txt"]
        self.assertIn("sig=", sas)
        status, text, headers = self.get_url(sas, auth=True, parse=False)
        self.assertEqual((status, headers.get("x-ms-error-code")), (400, "InvalidAuthenticationInfo"), text)
        parts = urlsplit(sas)
        forged = parts.path + "?" + parts.query.replace("sig=", "sig=x")
        self.assertEqual(self.raw("GET", forged, parse=False)[0], 403)
        self.assertEqual(self.raw("GET", parts.path, parse=False)[0], 409)
        status, part, headers = self.get_url(sas, auth=False, headers={"Range": "bytes=5-"}, parse=False)
        whole = self.log_text().encode()
        self.assertEqual((status, part), (206, whole[5:]))
        self.assertEqual(headers["Content-Range"], "bytes 5-%d/%d" % (len(whole) - 1, len(whole)))

        # A PUT of the same name: 200, the job as it is; another command refused.
        status, same, _ = self.call("PUT", job_path, self.job_body(tags={"team": "ml"}))
        self.assertEqual((status, same["properties"]["status"]), (200, "Completed"))
        status, refused, _ = self.call("PUT", job_path, self.job_body(command="rm -rf /"))
        self.assertEqual(status, 400, refused)

        # The list: only the jobs with the tag when asked; the state as received.
        status, _, _ = self.call("PUT", WS_PATH + "/jobs/someone-elses", {"properties": dict(
            self.job_body("someone-elses")["properties"], tags={"owner": "other"})})
        self.assertEqual(status, 201)
        status, listed, _ = self.call("GET", WS_PATH + "/jobs", query={"tag": "gpuplanner-token"})
        self.assertEqual([j["name"] for j in listed["value"]], [TOKEN])
        self.assertNotIn("nextLink", listed)
        self.assertEqual(listed["value"][0]["properties"]["status"], "Completed")
        everything = self.call("GET", WS_PATH + "/jobs")[1]["value"]
        self.assertEqual([j["name"] for j in everything], [TOKEN, "someone-elses"])
        self.assertEqual([j["name"] for j in self.call("GET", WS_PATH + "/jobs", query={"tag": "owner=other"})[1]
                          ["value"]], ["someone-elses"])
        self.assertEqual(self.call("GET", WS_PATH + "/jobs", query={"tag": "owner=me"})[1]["value"], [])
        # The list does not advance a job.
        self.assertEqual(self.state()["jobs"][1]["status"], "NotStarted")
        # Pages.
        self.faults(page_size=1)
        status, page, _ = self.call("GET", WS_PATH + "/jobs")
        names = [j["name"] for j in page["value"]]
        while "nextLink" in page:
            status, page, _ = self.get_url(page["nextLink"])
            self.assertEqual(status, 200, page)
            names += [j["name"] for j in page["value"]]
        self.assertEqual(names, [TOKEN, "someone-elses"])

        state = self.state()
        for key in ("jobs", "computes", "environments", "requests", "calls"):
            self.assertIn(key, state)
        ours = state["jobs"][0]
        self.assertEqual((ours["id"], ours["name"], ours["status"], ours["client_token"], ours["cancel_requested"]),
                         (TOKEN, TOKEN, "Completed", TOKEN, False))
        self.assertEqual(ours["properties"], self.job_body(tags={"team": "ml"})["properties"])
        self.assertEqual(ours["tags"], {"gpuplanner-token": TOKEN, "team": "ml"})
        self.assertEqual([(c["name"], c["vm_size"], c["vm_priority"], c["provisioning_state"])
                          for c in state["computes"]],
                         [(CLUSTER, "Standard_NC4as_T4_v3", "LowPriority", "Succeeded")])
        self.assertEqual([(e["name"], e["version"], e["image"]) for e in state["environments"]], [(ENV, "1", IMAGE)])
        self.assertIn({"method": "PUT", "path": job_path}, state["requests"])
        self.assertEqual(sum(1 for c in state["calls"] if c["action"] == "jobs.createOrUpdate"), 5)
        for action in ("token", "workspaces.get", "discovery", "computes.get", "computes.createOrUpdate",
                       "asyncOperation", "environmentVersions.get", "environmentVersions.createOrUpdate",
                       "jobs.createOrUpdate", "jobs.get", "jobs.list", "runs.getDetails", "logFile"):
            self.assertIn(action, {c["action"] for c in state["calls"]})

    def test_cancel(self):
        self.prepare()
        self.faults(finish_after=0)  # runs until cancelled
        self.submit()
        self.assertEqual(self.job_status(), "Queued")
        for _ in range(4):
            self.assertEqual(self.job_status(), "Running")
        status, none, headers = self.call("POST", WS_PATH + "/jobs/%s/cancel" % TOKEN)
        self.assertEqual((status, none), (202, None))
        self.assertIn("/mfeOperationResults/", headers["Location"])
        ours = self.state()["jobs"][0]
        self.assertEqual((ours["status"], ours["cancel_requested"]), ("CancelRequested", True))
        self.assertEqual(self.job_status(), "Canceled")
        self.assertEqual(self.log_text().splitlines()[-2:],
                         ["gpuplan-fake: job %s cancel requested" % TOKEN, "gpuplan-fake: job %s canceled" % TOKEN])
        self.assertEqual(self.details()[1]["status"], "Canceled")
        # An ended job refuses the cancel; a missing one is 404.
        status, refused, _ = self.call("POST", WS_PATH + "/jobs/%s/cancel" % TOKEN)
        self.assertEqual((status, refused["error"]["code"]), (400, "UserError"))
        self.assertEqual(self.call("POST", WS_PATH + "/jobs/nothere/cancel")[0], 404)
        # The cancel's Location: 202 once, then 200, and the job reads Canceled without another GET.
        other = "gpuplan-cancel-location"
        self.submit(other)
        status, _, headers = self.call("POST", WS_PATH + "/jobs/%s/cancel" % other)
        self.assertEqual(self.get_url(headers["Location"])[0], 202)
        self.assertEqual(self.get_url(headers["Location"])[0], 200)
        self.assertEqual(self.state()["jobs"][1]["status"], "Canceled")

    def test_the_knobs_on_the_command_line(self):
        fake = FakeProcess("--retry-after", "0", "--running-after", "2", "--finish-after", "1",
                           "--workspace", "other-rg/other-ws", "--location", "westus2", "--subscription",
                           "66666666-6666-4666-8666-666666666666")
        try:
            port, self.port = self.port, fake.port
            self.access = self.token()[1]["access_token"]
            ws_path = "/subscriptions/66666666-6666-4666-8666-666666666666/resourceGroups/other-rg/providers/" \
                      "Microsoft.MachineLearningServices/workspaces/other-ws"
            status, ws, _ = self.call("GET", ws_path)
            self.assertEqual((status, ws["location"]), (200, "westus2"))
            self.assertEqual(self.call("GET", WS_PATH)[0], 404)
            status, _, headers = self.call("PUT", ws_path + "/computes/" + CLUSTER,
                                           dict(self.compute_body(), location="westus2"))
            self.assertEqual(status, 201)
            self.call("PUT", ws_path + "/environments/%s/versions/1" % ENV, {"properties": {"image": IMAGE}})
            body = json.loads(json.dumps(self.job_body()).replace(WS_PATH, ws_path))
            self.assertEqual(self.call("PUT", ws_path + "/jobs/" + TOKEN, body)[0], 201)
            seen = [self.call("GET", ws_path + "/jobs/" + TOKEN)[1]["properties"]["status"] for _ in range(5)]
            self.assertEqual(seen, ["Queued", "Queued", "Running", "Completed", "Completed"])
            self.assertEqual(self.state()["jobs"][0]["log"],
                             ["gpuplan-fake: job %s started: %s" % (TOKEN, COMMAND), "step 1", "done"])
        finally:
            self.port = port
            fake.stop()

    def test_faults(self):
        self.prepare()
        # throttle: the next N ARM calls answer 429 with Retry-After; the token endpoint is not throttled.
        self.faults(throttle=2)
        self.assertEqual(self.token()[0], 200)
        status, body, headers = self.call("GET", WS_PATH)
        self.assertEqual((status, body["error"]["code"], headers["Retry-After"]), (429, "TooManyRequests", "1"))
        self.assertEqual(self.call("PUT", WS_PATH + "/jobs/" + TOKEN, self.job_body())[0], 429)
        self.assertEqual(self.state()["jobs"], [])  # a throttled PUT creates nothing
        self.assertEqual(self.call("GET", WS_PATH)[0], 200)

        # drop_after_accept: the job is created, the connection closed without an answer.
        self.faults(drop_after_accept=1)
        with self.assertRaises((http.client.RemoteDisconnected, ConnectionError)):
            self.call("PUT", WS_PATH + "/jobs/" + TOKEN, self.job_body())
        self.assertEqual([j["name"] for j in self.state()["jobs"]], [TOKEN])
        self.assertEqual(self.job_status(), "Queued")
        status, again, _ = self.call("PUT", WS_PATH + "/jobs/" + TOKEN, self.job_body())  # the resend finds it
        self.assertEqual((status, len(self.state()["jobs"])), (200, 1))

        # quota: the next cluster create refused with the ARM QuotaExceeded body, nothing created; then it works.
        self.faults(quota=True)
        status, refused, _ = self.call("PUT", WS_PATH + "/computes/gpl-spot0001",
                                       self.compute_body(size="Standard_NC24ads_A100_v4", priority="LowPriority"))
        self.assertEqual((status, refused["error"]["code"]), (400, "QuotaExceeded"))
        self.assertIn("exceeding quota limits of Low Priority Cores", refused["error"]["message"])
        self.assertIn("Additional requested: 24", refused["error"]["message"])
        self.assertEqual(len(self.state()["computes"]), 1)
        self.assertEqual(self.call("GET", WS_PATH + "/computes/gpl-spot0001")[0], 404)
        # An existing cluster's PUT is no create: not refused.
        self.faults(quota=1)
        self.assertEqual(self.call("PUT", WS_PATH + "/computes/" + CLUSTER, self.compute_body())[0], 200)
        self.assertEqual(self.call("PUT", WS_PATH + "/computes/gpl-spot0001", self.compute_body())[0], 400)
        self.assertEqual(self.call("PUT", WS_PATH + "/computes/gpl-spot0001", self.compute_body())[0], 201)

        # fail_job: the next job fails after it ran once; by name too.
        self.faults(fail_job=1)
        failing = "gpuplan-fails"
        self.submit(failing)
        self.submit("gpuplan-succeeds")
        self.faults(fail_job="gpuplan-by-name")
        self.submit("gpuplan-by-name")
        for name in (failing, "gpuplan-by-name"):
            self.assertEqual([self.job_status(name) for _ in range(4)], ["Queued", "Running", "Failed", "Failed"])
            log = self.log_text(name).splitlines()
            self.assertEqual(log[:2], ["gpuplan-fake: job %s started: %s" % (name, COMMAND), "step 1"])
            self.assertTrue(log[2].startswith("gpuplan-fake: job %s failed: Execution failed." % name), log)
            details = self.details(name)[1]
            self.assertEqual((details["status"], details["error"]["error"]["code"]), ("Failed", "UserError"))
        self.assertEqual([self.job_status("gpuplan-succeeds") for _ in range(4)],
                         ["Queued", "Running", "Running", "Completed"])

        # invisible_s: a new job is 404 on GET, cancel and run details, left out of the list; then it is there.
        self.faults(invisible_s=1.5)
        late = "gpuplan-late"
        self.submit(late)
        self.assertEqual(self.call("GET", WS_PATH + "/jobs/" + late)[0], 404)
        self.assertEqual(self.call("POST", WS_PATH + "/jobs/%s/cancel" % late)[0], 404)
        self.assertEqual(self.details(late)[0], 404)
        listed = [j["name"] for j in self.call("GET", WS_PATH + "/jobs", query={"tag": "gpuplanner-token"})[1]
                  ["value"]]
        self.assertNotIn(late, listed)
        self.assertEqual(self.call("PUT", WS_PATH + "/jobs/" + late, self.job_body(late))[0], 200)  # it exists
        time.sleep(1.6)
        self.assertEqual(self.job_status(late), "Queued")
        self.assertEqual(sum(1 for j in self.state()["jobs"] if j["name"] == late), 1)
        listed = [j["name"] for j in self.call("GET", WS_PATH + "/jobs", query={"tag": "gpuplanner-token"})[1]
                  ["value"]]
        self.assertIn(late, listed)
        faults = self.state()["faults"]
        self.assertEqual((faults["throttle"], faults["drop_after_accept"], faults["quota"], faults["fail_job"]),
                         (0, 0, 0, 0))

    def test_the_official_sdk_is_accepted(self):
        node = shutil.which("node")
        # Fails (not skipped) without node or the SDK: tests/integration/sdk/setup.sh installs it, as test.sh does.
        self.assertTrue(node and os.path.isdir(os.path.join(SDK, "node_modules", "@azure", "arm-machinelearning")),
                        "node or tests/integration/sdk/node_modules/@azure/arm-machinelearning is not installed: run "
                        "tests/integration/sdk/setup.sh")
        self.faults(finish_after=0)  # the job runs until the SDK cancels it
        script = r"""
'use strict';
// Node 18 (Debian 12's) has Web Crypto only as require('crypto').webcrypto; the SDK calls the global one.
if (!globalThis.crypto) {
    globalThis.crypto = require('crypto').webcrypto;
}
const {AzureMachineLearningWorkspaces} = require('@azure/arm-machinelearning');
const {createClientPipeline} = require('@azure/core-client');
const {bearerTokenAuthenticationPolicyName} = require('@azure/core-rest-pipeline');
const [port, access, sub, rg, ws, cluster, env, image, name] = process.argv.slice(1);
const base = 'http://127.0.0.1:' + port;
const SCOPE = 'https://management.azure.com/.default';

(async () => {
    const out = {};
    // A TokenCredential whose getToken returns the token the fake issued.
    const credential = {getToken: async () => ({token: access, expiresOnTimestamp: Date.now() + 3000 * 1000})};
    // @azure/core-rest-pipeline 1.24.0's bearer policy refuses http URLs: a policy of the same name (the client then
    // keeps it instead of adding its own) asks the same credential and sets the same header.
    const pipeline = createClientPipeline({});
    pipeline.addPolicy({name: bearerTokenAuthenticationPolicyName, sendRequest: async (request, next) => {
        const token = await credential.getToken([SCOPE]);
        request.headers.set('Authorization', 'Bearer ' + token.token);
        return next(request);
    }}, {phase: 'Sign'});
    const client = new AzureMachineLearningWorkspaces(credential, sub, {endpoint: base, $host: base,
        allowInsecureConnection: true, pipeline, credentialScopes: [SCOPE]});
    const fast = {updateIntervalInMs: 10};
    const wsPath = `/subscriptions/${sub}/resourceGroups/${rg}/providers/Microsoft.MachineLearningServices/` +
        `workspaces/${ws}`;
    const status = async (run) => {
        try {
            await run();
            return 200;
        } catch (e) {
            return e.statusCode || String(e.message || e);
        }
    };

    const workspace = await client.workspaces.get(rg, ws);
    out.workspace = [workspace.name, workspace.location, workspace.discoveryUrl];
    out.computeBefore = await status(() => client.computeOperations.get(rg, ws, cluster));
    const compute = await client.computeOperations.beginCreateOrUpdateAndWait(rg, ws, cluster, {
        location: workspace.location,
        properties: {computeType: 'AmlCompute', properties: {
            vmSize: 'Standard_NC4as_T4_v3', vmPriority: 'LowPriority',
            scaleSettings: {minNodeCount: 0, maxNodeCount: 1, nodeIdleTimeBeforeScaleDown: 'PT2M'}}},
    }, fast);
    out.compute = [compute.id, compute.properties.provisioningState, compute.properties.properties.vmPriority];
    out.envBefore = await status(() => client.environmentVersions.get(rg, ws, env, '1'));
    const environment = await client.environmentVersions.createOrUpdate(rg, ws, env, '1',
                                                                        {properties: {image}});
    out.environment = [environment.id, environment.properties.image];
    const created = await client.jobs.createOrUpdate(rg, ws, name, {properties: {
        jobType: 'Command', experimentName: 'gpuplanner', displayName: name,
        computeId: compute.id, environmentId: environment.id,
        command: "bash -c 'echo hello from the SDK'", environmentVariables: {GPUPLAN_RUN: '1'},
        resources: {instanceCount: 1}, limits: {jobLimitsType: 'Command', timeout: 'PT600S'},
        tags: {'gpuplanner-token': name},
    }});
    out.created = [created.name, created.properties.status, created.properties.jobType];
    const seen = [];
    for (let i = 0; i < 5; ++i) {
        const job = await client.jobs.get(rg, ws, name);
        seen.push(job.properties.status);
        if (job.properties.status === 'Running') {
            break;
        }
    }
    out.seen = seen;
    const listed = [];
    for await (const job of client.jobs.list(rg, ws, {tag: 'gpuplanner-token'})) {
        listed.push([job.name, job.properties.tags['gpuplanner-token'], job.properties.status]);
    }
    out.listed = listed;
    await client.jobs.beginCancelAndWait(rg, ws, name, fast);
    out.after = (await client.jobs.get(rg, ws, name)).properties.status;
    console.log(JSON.stringify(out));
})().catch((e) => { console.log(JSON.stringify({failed: String(e.message || e), status: e.statusCode,
                                                code: e.code})); });
"""
        env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower() and not k.startswith("AZURE_")}
        env["NODE_PATH"] = os.path.join(SDK, "node_modules")
        sdk_job = "gpuplan-sdk0000000000000000000000"
        done = subprocess.run([node, "-e", script, str(self.port), self.access, SUB, RG, WS, CLUSTER, ENV, IMAGE,
                               sdk_job], cwd=SDK, env=env, capture_output=True, text=True, timeout=120)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertTrue(done.stdout.strip(), done.stderr)
        out = json.loads(done.stdout.strip().splitlines()[-1])
        self.assertNotIn("failed", out, out)
        self.assertEqual(out["workspace"], [WS, REGION, "http://127.0.0.1:%d/discovery" % self.port])
        self.assertEqual((out["computeBefore"], out["envBefore"]), (404, 404))
        self.assertEqual(out["compute"], [WS_PATH + "/computes/" + CLUSTER, "Succeeded", "LowPriority"])
        self.assertEqual(out["environment"], [WS_PATH + "/environments/%s/versions/1" % ENV, IMAGE])
        self.assertEqual(out["created"], [sdk_job, "NotStarted", "Command"])
        self.assertEqual(out["seen"], ["Queued", "Running"])
        self.assertEqual(out["listed"], [[sdk_job, sdk_job, "Running"]])
        self.assertEqual(out["after"], "Canceled")
        # What the SDK sent, as the fake understood it.
        state = self.state()
        calls = state["calls"]
        for action in ("workspaces.get", "computes.get", "computes.createOrUpdate", "asyncOperation",
                       "environmentVersions.get", "environmentVersions.createOrUpdate", "jobs.createOrUpdate",
                       "jobs.get", "jobs.list", "jobs.cancel", "operationResult"):
            self.assertIn(action, {c["action"] for c in calls}, action)
        versions = {c["params"].get("api-version") for c in calls
                    if c["action"] not in ("token", "discovery", "runs.getDetails", "logFile")}
        self.assertEqual(versions, {API})
        listing = next(c for c in calls if c["action"] == "jobs.list")
        self.assertEqual(listing["params"].get("tag"), "gpuplanner-token")
        put = next(c for c in calls if c["action"] == "computes.createOrUpdate")
        self.assertEqual(put["body"]["properties"]["properties"]["scaleSettings"],
                         {"minNodeCount": 0, "maxNodeCount": 1, "nodeIdleTimeBeforeScaleDown": "PT2M"})
        job = next(j for j in state["jobs"] if j["name"] == sdk_job)
        self.assertEqual((job["status"], job["cancel_requested"], job["properties"]["command"],
                          job["properties"]["limits"]),
                         ("Canceled", True, "bash -c 'echo hello from the SDK'",
                          {"jobLimitsType": "Command", "timeout": "PT600S"}))


if __name__ == "__main__":
    unittest.main()
