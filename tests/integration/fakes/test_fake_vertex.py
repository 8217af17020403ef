#!/usr/bin/env python3
"""Self-test of fake_vertex.py, run by hand (not in ctest):

    python3 tests/integration/fakes/test_fake_vertex.py [-v]

It starts the fake as FakeCloud.h's vertexJobs() case starts it (--client-email and --public-key-file of the test
service account, plus --running-after and --finish-after) on a free loopback port and checks, with JWTs signed here
(RS256 with tests/data/test-service-account-key.pem): the token endpoint and the Bearer check; a job's whole life over
HTTP (create -> JOB_STATE_QUEUED, PENDING for --running-after gets, RUNNING, SUCCEEDED after --finish-after gets while
running; names with the project number, labels and jobSpec as sent); lists by the gpuplanner-token label and the other
documented filter fields, paged; cancel (CANCELLING, CANCELLED on the next get, a cancel of an ended job refused with
FAILED_PRECONDITION); Cloud Logging's entries:list (the job's lines as LogEntry, strictly increasing nanosecond
timestamps, the filter's job_id and timestamp>= cursor, insertId order, paging, descending order); the create checks
(unknown members, required fields, the machine's GPU, enums by number); and the faults throttle, drop_after_accept,
quota, fail_job, invisible_s, unauthorized and api_disabled. Then it has the official Node SDKs
(tests/integration/sdk/node_modules: @google-cloud/aiplatform 6.11.0 v1.JobServiceClient and @google-cloud/logging
11.4.0 v2.LoggingServiceV2Client, REST fallback, apiEndpoint 127.0.0.1 with the fake's port and protocol http; a
google-auth-library JWT client whose token request goes to the fake's /token) run createCustomJob, getCustomJob,
listCustomJobs, cancelCustomJob and listLogEntries against the fake, to prove the fake accepts what the real SDKs send
(and answers what they read); that part fails, not skips, when node or the SDKs are not installed
(tests/integration/sdk/setup.sh installs them). Exit status 0 when every check passes, 1 otherwise. Runs on Node 18.
"""

import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
from urllib.parse import urlencode

HERE = os.path.dirname(os.path.abspath(__file__))
FAKE = os.path.join(HERE, "fake_vertex.py")
SDK = os.path.normpath(os.path.join(HERE, "..", "sdk"))
DATA = os.path.normpath(os.path.join(HERE, "..", "..", "data"))
KEY = os.path.join(DATA, "test-service-account-key.pem")
PUBLIC_KEY = os.path.join(DATA, "test-service-account-key.pub.pem")
EMAIL = "gpuplan-test@gpuplan-test.iam.gserviceaccount.com"
PROJECT = "gpuplan-test"
REGION = "us-central1"
SCOPE = "https://www.googleapis.com/auth/cloud-platform"
IMAGE = "us-docker.pkg.dev/gpuplan-test/train/pytorch:2.4"
TOKEN = "gpuplan-0123456789abcdef01234567"

sys.path.insert(0, HERE)
from test_fake_gce import jwt, rsa_private_key  # noqa: E402  (the RS256 signer of the Compute Engine fake's test)


def custom_job(token=TOKEN, machine="g2-standard-8", accelerator="NVIDIA_L4", count=1, spot=False, labels=None,
               command=None, **changes):
    """A CustomJob as VertexJobs.cpp sends it (tests/data/cloud/vertex/job_queued.json's shape)."""
    spec = {"workerPoolSpecs": [{
        "replicaCount": "1",
        "machineSpec": {"machineType": machine, "acceleratorType": accelerator, "acceleratorCount": count},
        "diskSpec": {"bootDiskType": "pd-ssd", "bootDiskSizeGb": 100},
        "containerSpec": {"imageUri": IMAGE,
                          "command": command or ["sh", "-c", "python train.py --epochs 3 && echo trained"],
                          "env": [{"name": "EPOCHS", "value": "3"}]}}],
        "scheduling": {"timeout": "14400s"}}
    if accelerator is None:
        del spec["workerPoolSpecs"][0]["machineSpec"]["acceleratorType"]
        del spec["workerPoolSpecs"][0]["machineSpec"]["acceleratorCount"]
    if spot:
        spec["scheduling"]["strategy"] = "SPOT"
    out = {"displayName": token, "labels": {"gpuplanner-token": token} if labels is None else labels, "jobSpec": spec}
    out.update(changes)
    return out


class FakeVertexTest(unittest.TestCase):
    key = rsa_private_key(KEY)
    running_after = 1
    finish_after = 2

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        port_file = os.path.join(self.dir, "port")
        # Exactly FakeCloud.h's gcp() fakeArgs, with the lifecycle knobs TestManagedJobs adds.
        self.proc = subprocess.Popen([sys.executable, FAKE, "--port-file", port_file, "--client-email", EMAIL,
                                      "--public-key-file", PUBLIC_KEY, "--running-after", str(self.running_after),
                                      "--finish-after", str(self.finish_after)])
        for _ in range(100):
            if os.path.exists(port_file):
                break
            time.sleep(0.05)
        with open(port_file) as f:
            self.port = int(f.read())
        self.token_url = "http://127.0.0.1:%d/token" % self.port
        status, answer = self.get_token()
        self.assertEqual(status, 200, answer)
        self.access = answer["access_token"]

    def tearDown(self):
        self.proc.kill()
        self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)

    # ---- helpers

    def http(self, method, path, body=None, headers=None, raw=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
            conn.request(method, path, body=data, headers=headers or {})
            response = conn.getresponse()
            text = response.read()
        finally:
            conn.close()
        return response.status, (json.loads(text) if text else None)

    def get_token(self, claims=None, tamper=False):
        now = int(time.time())
        claims = claims or {"iss": EMAIL, "scope": SCOPE, "aud": self.token_url, "iat": now, "exp": now + 3600}
        form = urlencode({"grant_type": "urn:ietf:params:oauth:grant-type:jwt-bearer",
                          "assertion": jwt(self.key, claims, tamper)})
        return self.http("POST", "/token", raw=form.encode(),
                         headers={"Content-Type": "application/x-www-form-urlencoded"})

    def call(self, method, path, body=None, query=None, token=None, region=REGION, project=PROJECT):
        """A Vertex AI call below /aiplatform/v1/projects/{p}/locations/{r} (as GPU Planner's endpoint override makes
        it), or a path from "/" as given."""
        target = path if path.startswith("/") else \
            "/aiplatform/v1/projects/%s/locations/%s/%s" % (project, region, path)
        if query:
            target += "?" + urlencode(query)
        headers = {"Authorization": "Bearer " + (token or self.access), "Content-Type": "application/json"}
        return self.http(method, target, body, headers)

    def create(self, body=None):
        return self.call("POST", "customJobs", body or custom_job())

    def get(self, job_id):
        return self.call("GET", "customJobs/" + job_id)

    def states(self, job_id, n):
        return [self.get(job_id)[1]["state"] for _ in range(n)]

    def listed(self, filter_text, **query):
        query = dict(query, filter=filter_text)
        status, answer = self.call("GET", "customJobs", query=query)
        self.assertEqual(status, 200, answer)
        return [j["name"].rsplit("/", 1)[1] for j in answer.get("customJobs", [])], answer.get("nextPageToken")

    def entries(self, job_id, since=None, project=PROJECT, **more):
        text = 'resource.type="ml_job" AND resource.labels.job_id="%s"' % job_id
        if since:
            text += ' AND timestamp>="%s"' % since
        body = {"resourceNames": ["projects/" + project], "filter": text, "orderBy": "timestamp asc",
                "pageSize": 1000}
        body.update(more)
        status, answer = self.call("POST", "/logging/v2/entries:list", body)
        self.assertEqual(status, 200, answer)
        return answer

    def lines(self, job_id):
        return [e["textPayload"] for e in self.entries(job_id).get("entries", [])]

    def control(self, method, path, body=None):
        return self.http(method, path, body)[1]

    def faults(self, **faults):
        self.assertTrue(self.control("POST", "/_fake/faults", faults)["ok"])

    def state(self):
        return self.control("GET", "/_fake/state")

    def job_of(self, job_id):
        return next(j for j in self.state()["jobs"] if j["id"] == job_id)

    # ---- the token endpoint and the Bearer check

    def test_token_endpoint_and_bearer(self):
        now = int(time.time())
        self.assertEqual(self.get_token(tamper=True), (400, {"error": "invalid_grant",
                                                             "error_description": "Invalid JWT Signature."}))
        compute_only = {"iss": EMAIL, "scope": "https://www.googleapis.com/auth/compute", "aud": self.token_url,
                        "iat": now, "exp": now + 3600}
        self.assertEqual(self.get_token(compute_only)[1]["error"], "invalid_scope")
        other = dict(compute_only, scope=SCOPE, iss="someone@else.iam.gserviceaccount.com")
        self.assertEqual(self.get_token(other)[1]["error_description"], "Invalid grant: account not found")
        google_aud = dict(other, iss=EMAIL, aud="https://oauth2.googleapis.com/token")
        self.assertEqual(self.get_token(google_aud)[0], 200)
        for token in ("", "ya29.not-issued-here"):
            status, answer = self.http("GET", "/aiplatform/v1/projects/%s/locations/%s/customJobs" % (PROJECT, REGION),
                                       headers={"Authorization": "Bearer " + token} if token else {})
            self.assertEqual((status, answer["error"]["status"]), (401, "UNAUTHENTICATED"))
        self.assertEqual(self.state()["jobs"], [])

    # ---- a job's life

    def test_a_job_runs_and_succeeds(self):
        status, job = self.create()
        self.assertEqual(status, 200, job)
        m = re.match(r"^projects/(\d+)/locations/us-central1/customJobs/(\d+)$", job["name"])
        self.assertTrue(m, job["name"])
        job_id = m.group(2)
        self.assertEqual(len(job_id), 19)
        self.assertEqual((job["state"], job["displayName"], job["labels"]), ("JOB_STATE_QUEUED", TOKEN,
                                                                              {"gpuplanner-token": TOKEN}))
        self.assertEqual(job["jobSpec"], custom_job()["jobSpec"])
        self.assertTrue(job["createTime"].endswith("Z"))
        self.assertNotIn("startTime", job)
        # The project's number names it too.
        self.assertEqual(self.call("GET", "customJobs/" + job_id, project=m.group(1))[0], 200)
        self.assertEqual(self.job_of(job_id)["state"], "JOB_STATE_PENDING")

        # --running-after 1: one more PENDING get, then RUNNING; --finish-after 2: two RUNNING gets, then SUCCEEDED.
        self.assertEqual(self.states(job_id, 1), ["JOB_STATE_RUNNING"])
        running = self.get(job_id)[1]
        self.assertEqual(running["state"], "JOB_STATE_RUNNING")
        self.assertIn("startTime", running)
        self.assertEqual(self.lines(job_id), ["gpuplan-fake: job %s started: sh -c python train.py --epochs 3 && "
                                              "echo trained" % job_id, "step 1", "step 2"])
        done = self.get(job_id)[1]
        self.assertEqual(done["state"], "JOB_STATE_SUCCEEDED")
        self.assertIn("endTime", done)
        self.assertEqual(self.lines(job_id)[-1], "done")
        self.assertEqual(self.states(job_id, 2), ["JOB_STATE_SUCCEEDED"] * 2)  # it stays ended
        self.assertEqual(len(self.lines(job_id)), 4)
        # In another region it does not exist.
        self.assertEqual(self.call("GET", "customJobs/" + job_id, region="europe-west4")[0], 404)
        self.assertEqual(self.get("1234567890123456789")[1]["error"]["status"], "NOT_FOUND")

        state = self.state()
        ours = state["jobs"][0]
        self.assertEqual((ours["id"], ours["name"], ours["displayName"], ours["state"], ours["client_token"],
                          ours["cancel_requested"], ours["labels"]),
                         (job_id, job["name"], TOKEN, "JOB_STATE_SUCCEEDED", TOKEN, False, {"gpuplanner-token": TOKEN}))
        self.assertEqual(ours["jobSpec"], custom_job()["jobSpec"])
        actions = [c["action"] for c in state["calls"]]
        self.assertEqual(actions[:3], ["token", "customJobs.create", "customJobs.get"])
        self.assertEqual(actions.count("customJobs.create"), 1)
        self.assertTrue(all(set(r) == {"method", "path"} for r in state["requests"]))
        self.assertIn({"method": "POST", "path": "/aiplatform/v1/projects/%s/locations/%s/customJobs"
                       % (PROJECT, REGION)}, state["requests"])

    def test_lists_filter_and_page(self):
        first = self.create()[1]["name"].rsplit("/", 1)[1]
        second = self.create(custom_job("gpuplan-second", spot=True))[1]["name"].rsplit("/", 1)[1]
        theirs = self.create(custom_job("someone-elses-job", labels={"team": "vision"}))[1]["name"].rsplit("/", 1)[1]
        self.call("POST", "customJobs", custom_job("gpuplan-elsewhere"), region="europe-west4")
        self.assertEqual(self.listed('labels.gpuplanner-token="%s"' % TOKEN), ([first], None))
        self.assertEqual(self.listed("labels.gpuplanner-token=gpuplan-second"), ([second], None))
        self.assertEqual(self.listed("labels.gpuplanner-token:*"), ([first, second], None))
        self.assertEqual(self.listed(""), ([first, second, theirs], None))
        self.assertEqual(self.listed('display_name:"gpuplan-*"'), ([first, second], None))
        self.assertEqual(self.listed('NOT display_name="%s"' % TOKEN), ([second, theirs], None))
        self.assertEqual(self.listed('labels.team=vision OR display_name="gpuplan-second"'), ([second, theirs], None))
        self.get(first)
        self.assertEqual(self.listed('state="JOB_STATE_PENDING" AND labels.gpuplanner-token:*'), ([first], None))
        self.assertEqual(self.listed('create_time>"2020-01-01T00:00:00Z"'), ([first, second, theirs], None))
        for bad in ('labels.gpuplanner-token="x', "machine_type=g2", "state>JOB_STATE_QUEUED", "(state=x"):
            status, answer = self.call("GET", "customJobs", query={"filter": bad})
            self.assertEqual((status, answer["error"]["status"]), (400, "INVALID_ARGUMENT"), bad)
        # Pages: by the request's pageSize, or the fault page_size.
        page, following = self.listed("labels.gpuplanner-token:*", pageSize=1)
        self.assertEqual(page, [first])
        self.assertTrue(following)
        self.assertEqual(self.listed("labels.gpuplanner-token:*", pageSize=1, pageToken=following), ([second], None))
        self.faults(page_size=2)
        page, following = self.listed("")
        self.assertEqual(page, [first, second])
        self.assertEqual(self.listed("", pageToken=following), ([theirs], None))
        # A list shows the jobs as they are: it advances none.
        self.assertEqual(self.job_of(second)["state"], "JOB_STATE_QUEUED")
        self.assertEqual(self.call("GET", "customJobs")[1]["customJobs"][1]["state"], "JOB_STATE_QUEUED")
        self.assertEqual(self.call("GET", "customJobs", region="asia-east1")[1], {})

    def test_cancel(self):
        self.faults(running_after=0, finish_after=0)
        job_id = self.create()[1]["name"].rsplit("/", 1)[1]
        self.assertEqual(self.states(job_id, 3), ["JOB_STATE_RUNNING"] * 3)  # finish_after 0: it runs on
        self.assertEqual(self.call("POST", "customJobs/%s:cancel" % job_id, {}), (200, {}))
        ours = self.job_of(job_id)
        self.assertEqual((ours["state"], ours["cancel_requested"]), ("JOB_STATE_CANCELLING", True))
        self.assertEqual(self.call("GET", "customJobs")[1]["customJobs"][0]["state"], "JOB_STATE_CANCELLING")
        self.assertEqual(self.call("POST", "customJobs/%s:cancel" % job_id, {}), (200, {}))  # again: harmless
        cancelled = self.get(job_id)[1]
        self.assertEqual((cancelled["state"], cancelled["error"]["code"]), ("JOB_STATE_CANCELLED", 1))
        self.assertIn("endTime", cancelled)
        self.assertEqual(self.lines(job_id)[-1], "gpuplan-fake: job %s cancel requested" % job_id)
        status, answer = self.call("POST", "customJobs/%s:cancel" % job_id, {})
        self.assertEqual((status, answer["error"]["status"]), (400, "FAILED_PRECONDITION"))
        self.assertIn("already finished", answer["error"]["message"])
        self.assertEqual(self.call("POST", "customJobs/1234567890123456789:cancel", {})[0], 404)
        # A queued job cancelled before it ran: no log at all.
        self.faults(running_after=5)
        queued = self.create(custom_job("gpuplan-queued"))[1]["name"].rsplit("/", 1)[1]
        self.assertEqual(self.call("POST", "customJobs/%s:cancel" % queued)[0], 200)  # without a body, as curl
        self.assertEqual(self.states(queued, 1), ["JOB_STATE_CANCELLED"])
        self.assertEqual(self.lines(queued), [])

    def test_log_entries(self):
        self.faults(running_after=0, finish_after=0)
        job_id = self.create()[1]["name"].rsplit("/", 1)[1]
        other = self.create(custom_job("gpuplan-other"))[1]["name"].rsplit("/", 1)[1]
        self.assertEqual(self.entries(job_id), {})  # nothing before it runs
        self.states(job_id, 2)
        self.states(other, 1)
        self.states(job_id, 1)
        answer = self.entries(job_id)
        self.assertNotIn("nextPageToken", answer)
        entries = answer["entries"]
        self.assertEqual([e["textPayload"] for e in entries],
                         ["gpuplan-fake: job %s started: sh -c python train.py --epochs 3 && echo trained" % job_id,
                          "step 1", "step 2", "step 3"])
        for e in entries:
            self.assertEqual(e["resource"], {"type": "ml_job", "labels": {"job_id": job_id, "project_id": PROJECT,
                                                                           "task_name": "workerpool0-0"}})
            self.assertEqual((e["logName"], e["severity"]), ("projects/%s/logs/workerpool0-0" % PROJECT, "INFO"))
            self.assertRegex(e["timestamp"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$")
            self.assertIn("receiveTimestamp", e)
        times = [e["timestamp"] for e in entries]
        self.assertEqual(times, sorted(set(times)))  # strictly increasing (same width: text order is time order)
        ids = [e["insertId"] for e in entries]
        self.assertEqual(ids, sorted(set(ids)))
        # The cursor: timestamp>= the last entry read gives it again (the client drops it by insertId), then the new.
        last = entries[-1]
        self.assertEqual([e["insertId"] for e in self.entries(job_id, since=last["timestamp"])["entries"]],
                         [last["insertId"]])
        self.states(job_id, 1)
        again = self.entries(job_id, since=last["timestamp"])["entries"]
        self.assertEqual([e["textPayload"] for e in again], ["step 3", "step 4"])
        # Paging and order.
        page = self.entries(job_id, pageSize=2)
        self.assertEqual([e["textPayload"] for e in page["entries"]], [entries[0]["textPayload"], "step 1"])
        rest = self.entries(job_id, pageSize=2, pageToken=page["nextPageToken"])
        self.assertEqual([e["textPayload"] for e in rest["entries"]], ["step 2", "step 3"])
        self.assertEqual(self.entries(job_id, orderBy="timestamp desc")["entries"][0]["textPayload"], "step 4")
        # Another project's log, another job's entries, the OR form gcloud uses, and the request checks.
        self.assertEqual(self.entries(job_id, project="another-project"), {})
        gcloud = ('(resource.type="ml_job" OR resource.type="cloudml_job") AND resource.labels.job_id="%s"' % other)
        self.assertEqual(len(self.call("POST", "/logging/v2/entries:list", {"resourceNames": ["projects/" + PROJECT],
                                                                           "filter": gcloud})[1]["entries"]), 2)
        for bad in ({"filter": "x"}, {"resourceNames": ["projects/%s" % PROJECT], "filter": 'timestamp>="yesterday"'},
                    {"resourceNames": ["projects/%s" % PROJECT], "pageSize": -1},
                    {"resourceNames": ["projects/%s" % PROJECT], "orderBy": "insertId"},
                    {"resourceNames": ["projects/%s" % PROJECT], "unknownMember": 1}):
            status, answer = self.call("POST", "/logging/v2/entries:list", bad)
            self.assertEqual((status, answer["error"]["status"]), (400, "INVALID_ARGUMENT"), bad)

    def test_create_checks(self):
        def refused(body, needle):
            status, answer = self.create(body)
            self.assertEqual((status, answer["error"]["status"]), (400, "INVALID_ARGUMENT"), answer)
            self.assertIn(needle, answer["error"]["message"])

        refused(custom_job(displayName=""), "custom_job.display_name; Message: Required field is not set.")
        refused(dict(custom_job(), requestId="x"), "Unknown name \"requestId\" at 'custom_job': Cannot find field.")
        body = custom_job()
        body["jobSpec"]["workerPoolSpecs"][0]["containerSpec"]["entrypoint"] = ["x"]
        refused(body, "Unknown name \"entrypoint\" at 'custom_job.job_spec.worker_pool_specs[0].container_spec'")
        body = custom_job()
        del body["jobSpec"]["workerPoolSpecs"][0]["containerSpec"]["imageUri"]
        refused(body, "container_spec.image_uri; Message: Required field is not set.")
        refused(custom_job(machine="g2-standard-8", accelerator="NVIDIA_TESLA_T4"), "is not supported for machine")
        refused(custom_job(machine="g2-standard-24", count=1), "is not supported for machine")
        refused(custom_job(machine="n1-standard-8", accelerator="NVIDIA_TESLA_T4", count=3), "is not supported")
        refused(custom_job(machine="x1-giant-1", accelerator=None), "Machine type \"x1-giant-1\" is not supported.")
        refused(custom_job(accelerator="NVIDIA_L5"), "NVIDIA_L5")
        refused(custom_job(labels={"Owner": "x"}), "Invalid label")
        body = custom_job()
        body["jobSpec"]["scheduling"]["timeout"] = "4h"
        refused(body, "Illegal duration format")
        self.assertEqual(self.call("POST", "customJobs", custom_job(), region="mars")[0], 400)
        self.assertEqual(self.state()["jobs"], [])
        # N1 with GPUs, CPU only, and enums by number (as the SDK sends them with $alt=json;enum-encoding=int).
        self.assertEqual(self.create(custom_job(machine="n1-standard-8", accelerator="NVIDIA_TESLA_T4", count=2))[0],
                         200)
        self.assertEqual(self.create(custom_job("gpuplan-cpu", machine="n1-standard-4", accelerator=None))[0], 200)
        numeric = custom_job("gpuplan-numeric", accelerator=11, spot=True)
        numeric["jobSpec"]["scheduling"]["strategy"] = 4
        numeric["jobSpec"]["workerPoolSpecs"][0]["replicaCount"] = 1
        status, answer = self.call("POST", "/v1/projects/%s/locations/%s/customJobs?$alt=json%%3Benum-encoding=int"
                                   % (PROJECT, REGION), numeric)
        self.assertEqual(status, 200, answer)
        self.assertEqual(answer["state"], 1)  # JOB_STATE_QUEUED, as a number
        self.assertEqual(answer["jobSpec"]["workerPoolSpecs"][0]["machineSpec"]["acceleratorType"], 11)
        kept = self.job_of(answer["name"].rsplit("/", 1)[1])["jobSpec"]
        self.assertEqual((kept["workerPoolSpecs"][0]["machineSpec"]["acceleratorType"],
                          kept["scheduling"]["strategy"], kept["workerPoolSpecs"][0]["replicaCount"]),
                         ("NVIDIA_L4", "SPOT", "1"))
        self.assertEqual(self.get(answer["name"].rsplit("/", 1)[1])[1]["jobSpec"]["scheduling"]["strategy"], "SPOT")

    # ---- faults

    def test_throttle_quota_and_account_faults(self):
        self.faults(throttle=2)
        status, answer = self.create()
        self.assertEqual((status, answer["error"]["status"]), (429, "RESOURCE_EXHAUSTED"))
        self.assertEqual(answer["error"]["details"][0]["reason"], "RATE_LIMIT_EXCEEDED")
        self.assertNotIn("aiplatform.googleapis.com/custom_model_training", answer["error"]["message"])
        status, answer = self.call("POST", "/logging/v2/entries:list", {"resourceNames": ["projects/" + PROJECT]})
        self.assertEqual((status, answer["error"]["details"][0]["metadata"]["service"]),
                         (429, "logging.googleapis.com"))
        self.assertEqual(self.state()["jobs"], [])  # a throttled create creates nothing
        self.assertEqual(self.create()[0], 200)

        # quota: the next create refused with the training quota of its GPU, nothing created.
        self.faults(quota=1)
        status, answer = self.create(custom_job("gpuplan-quota"))
        self.assertEqual(answer, {"error": {"code": 429, "status": "RESOURCE_EXHAUSTED", "message":
                                            "The following quota metrics exceed quota limits: "
                                            "aiplatform.googleapis.com/custom_model_training_nvidia_l4_gpus"}})
        self.assertEqual(status, 429)
        self.faults(quota=True)
        answer = self.create(custom_job("gpuplan-quota", machine="n1-standard-8", accelerator="NVIDIA_TESLA_T4",
                                        spot=True))[1]
        self.assertTrue(answer["error"]["message"].endswith("custom_model_training_preemptible_nvidia_t4_gpus"))
        self.faults(quota="custom_model_training_nvidia_h100_gpus")
        self.assertTrue(self.create(custom_job("gpuplan-quota"))[1]["error"]["message"].endswith("h100_gpus"))
        self.assertEqual(len(self.state()["jobs"]), 1)
        self.assertEqual(self.create(custom_job("gpuplan-quota"))[0], 200)

        self.faults(unauthorized=["customJobs.cancel"])
        status, answer = self.call("POST", "customJobs/1:cancel", {})
        self.assertEqual((status, answer["error"]["details"][0]["reason"],
                          answer["error"]["details"][0]["metadata"]["permission"]),
                         (403, "IAM_PERMISSION_DENIED", "aiplatform.customJobs.cancel"))
        self.assertTrue(answer["error"]["message"].startswith("Permission 'aiplatform.customJobs.cancel' denied"))
        self.faults(unauthorized=[], api_disabled=True)
        status, answer = self.call("GET", "customJobs")
        self.assertEqual((status, answer["error"]["details"][0]["reason"],
                          answer["error"]["details"][0]["metadata"]["service"]),
                         (403, "SERVICE_DISABLED", "aiplatform.googleapis.com"))
        self.assertIn("Vertex AI API has not been used in project", answer["error"]["message"])

    def test_drop_after_accept(self):
        self.faults(drop_after_accept=1)
        with self.assertRaises((http.client.RemoteDisconnected, ConnectionResetError, http.client.BadStatusLine)):
            self.create()
        jobs = self.state()["jobs"]
        self.assertEqual([j["client_token"] for j in jobs], [TOKEN])  # applied, though no answer came
        self.assertEqual(self.listed('labels.gpuplanner-token="%s"' % TOKEN)[0], [jobs[0]["id"]])
        self.assertEqual(self.create(custom_job("gpuplan-next"))[0], 200)  # once
        self.assertEqual(self.state()["faults"]["drop_after_accept"], 0)

    def test_fail_job(self):
        self.faults(fail_job=1)
        job_id = self.create()[1]["name"].rsplit("/", 1)[1]
        self.assertEqual(self.states(job_id, 2), ["JOB_STATE_PENDING", "JOB_STATE_RUNNING"])
        failed = self.get(job_id)[1]
        self.assertEqual(failed["state"], "JOB_STATE_FAILED")
        self.assertEqual(failed["error"]["code"], 3)
        self.assertIn("exited with a non-zero status of 1", failed["error"]["message"])
        self.assertIn("endTime", failed)
        self.assertTrue(self.lines(job_id)[-1].startswith("gpuplan-fake: job %s failed: " % job_id))
        self.assertEqual(self.call("POST", "customJobs/%s:cancel" % job_id, {})[0], 400)
        # Only the next job; by its token too.
        fine = self.create(custom_job("gpuplan-fine"))[1]["name"].rsplit("/", 1)[1]
        self.assertEqual(self.states(fine, 4)[-1], "JOB_STATE_SUCCEEDED")
        self.faults(fail_job="gpuplan-by-token")
        self.faults(running_after=0)
        named = self.create(custom_job("gpuplan-by-token"))[1]["name"].rsplit("/", 1)[1]
        self.assertEqual(self.states(named, 2), ["JOB_STATE_RUNNING", "JOB_STATE_FAILED"])

    def test_invisible_s(self):
        self.faults(invisible_s=1)
        job_id = self.create()[1]["name"].rsplit("/", 1)[1]
        self.assertEqual(self.get(job_id)[0], 404)
        self.assertEqual(self.call("POST", "customJobs/%s:cancel" % job_id, {})[0], 404)
        self.assertEqual(self.listed("labels.gpuplanner-token:*"), ([], None))
        self.assertEqual(len(self.state()["jobs"]), 1)  # it exists
        time.sleep(1.1)
        self.assertEqual(self.listed("labels.gpuplanner-token:*"), ([job_id], None))
        self.assertEqual(self.get(job_id)[1]["state"], "JOB_STATE_PENDING")

    def test_control_endpoints(self):
        state = self.state()
        for key in ("jobs", "requests", "calls", "faults"):
            self.assertIn(key, state)
        self.assertEqual(state["faults"]["throttle"], 0)
        self.assertEqual(self.http("GET", "/_fake/nothing")[0], 404)
        status, answer = self.call("GET", "/aiplatform/v1/projects/%s/locations/%s/models" % (PROJECT, REGION))
        self.assertEqual((status, answer["error"]["status"]), (404, "NOT_FOUND"))
        self.assertEqual(self.state()["calls"][-1]["action"], "unknown")

    # ---- the official SDKs

    def test_the_official_sdks_are_accepted(self):
        node = shutil.which("node")
        modules = os.path.join(SDK, "node_modules")
        # Fails (not skipped) without node or the SDKs: tests/integration/sdk/setup.sh installs them, as test.sh does.
        self.assertTrue(node and all(os.path.isdir(os.path.join(modules, *p.split("/"))) for p in (
            "@google-cloud/aiplatform", "@google-cloud/logging", "google-auth-library")),
            "node or tests/integration/sdk/node_modules/@google-cloud/aiplatform, @google-cloud/logging or "
            "google-auth-library is not installed: run tests/integration/sdk/setup.sh")
        self.faults(running_after=1, finish_after=0)
        token = "gpuplan-sdk000000000000000000000a"
        # The job as the SDK takes it (enums by name, Duration as seconds): what VertexJobs.cpp sends, in the SDK's
        # words (tests/integration/sdk/vertex-wire.js builds it the same way).
        job = {"displayName": token, "labels": {"gpuplanner-token": token, "owner": "sdk"}, "jobSpec": {
            "workerPoolSpecs": [{"replicaCount": 1,
                                 "machineSpec": {"machineType": "g2-standard-8", "acceleratorType": "NVIDIA_L4",
                                                 "acceleratorCount": 1},
                                 "diskSpec": {"bootDiskType": "pd-ssd", "bootDiskSizeGb": 100},
                                 "containerSpec": {"imageUri": IMAGE, "command": ["python", "train.py"],
                                                   "env": [{"name": "EPOCHS", "value": "3"}]}}],
            "scheduling": {"timeout": {"seconds": 14400}, "strategy": "SPOT"}}}
        script = r"""
'use strict';
const fs = require('fs');
const aiplatform = require('@google-cloud/aiplatform');
const logging = require('@google-cloud/logging');
const {JWT} = require('google-auth-library');
const [port, email, keyFile, project, region, jobText] = process.argv.slice(1);
const tokenUrl = 'http://127.0.0.1:' + port + '/token';
// The JWT client posts to https://oauth2.googleapis.com/token (aud stays that URL); its request goes to the fake.
const auth = new JWT({email, key: fs.readFileSync(keyFile, 'utf8'),
                      scopes: ['https://www.googleapis.com/auth/cloud-platform'],
                      transporterOptions: {adapter: (options, defaultAdapter) => {
                          if (String(options.url) === 'https://oauth2.googleapis.com/token') {
                              options.url = new URL(tokenUrl);
                          } else if (!String(options.url).startsWith('http://127.0.0.1:' + port + '/')) {
                              throw new Error('an unexpected request to ' + options.url);
                          }
                          return defaultAdapter(options);
                      }}});
const options = {fallback: true, apiEndpoint: '127.0.0.1', port: Number(port), protocol: 'http', authClient: auth};
const state = (s) => (typeof s === 'number' ? s : String(s));
(async () => {
    const out = {};
    const jobs = new aiplatform.v1.JobServiceClient(options);
    const logs = new logging.v2.LoggingServiceV2Client(options);
    // Each client sets useJWTAccessWithScope on the auth client (a self-signed JWT instead of a token); GPU Planner
    // exchanges the JWT at the token endpoint, so the SDKs do too here (as tests/integration/sdk/vertex-wire.js).
    auth.useJWTAccessWithScope = false;
    const parent = 'projects/' + project + '/locations/' + region;
    const [created] = await jobs.createCustomJob({parent, customJob: JSON.parse(jobText)});
    out.create = {name: created.name, state: state(created.state), labels: created.labels,
                  machine: created.jobSpec.workerPoolSpecs[0].machineSpec,
                  strategy: state(created.jobSpec.scheduling.strategy)};
    const name = parent + '/customJobs/' + created.name.split('/').pop();
    out.gets = [];
    for (let i = 0; i < 2; ++i) {
        const [got] = await jobs.getCustomJob({name});
        out.gets.push(state(got.state));
        out.startTime = got.startTime ? String(got.startTime.seconds) : null;
    }
    out.list = [];
    for await (const job of jobs.listCustomJobsAsync({parent, filter: 'labels.gpuplanner-token="' +
                                                      JSON.parse(jobText).displayName + '"'})) {
        out.list.push(job.name);
    }
    await jobs.cancelCustomJob({name});
    const [after] = await jobs.getCustomJob({name});
    out.cancelled = state(after.state);
    try {
        await jobs.cancelCustomJob({name});
        out.again = 'accepted';
    } catch (e) {
        // google-gax maps Google's status to its number (9); through a GaxiosError it keeps the HTTP status and body.
        out.again = {code: String(e.code), said: String(e.message)};
    }
    const [entries, , response] = await logs.listLogEntries(
        {resourceNames: ['projects/' + project], orderBy: 'timestamp asc', pageSize: 1000,
         filter: 'resource.type="ml_job" AND resource.labels.job_id="' + name.split('/').pop() + '"'},
        {autoPaginate: false});
    out.entries = entries.map((e) => ({text: e.textPayload, jobId: e.resource.labels.job_id, type: e.resource.type,
                                       nanos: e.timestamp.nanos, insertId: e.insertId}));
    out.nextPageToken = response ? response.nextPageToken || '' : '';
    console.log(JSON.stringify(out));
})().catch((e) => { console.log(JSON.stringify({failed: String(e.message || e), code: e.code})); });
"""
        env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
        for name in ("GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_CLOUD_PROJECT", "GCLOUD_PROJECT", "GCE_METADATA_HOST",
                     "GCE_METADATA_IP", "GOOGLE_CLOUD_UNIVERSE_DOMAIN"):
            env.pop(name, None)
        env["NODE_PATH"] = modules
        args = [node, "-e", script, str(self.port), EMAIL, KEY, PROJECT, REGION, json.dumps(job)]
        done = subprocess.run(args, cwd=SDK, env=env, capture_output=True, text=True, timeout=120)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertTrue(done.stdout.strip(), done.stderr)
        out = json.loads(done.stdout.strip().splitlines()[-1])
        self.assertNotIn("failed", out, out)
        m = re.match(r"^projects/(\d+)/locations/us-central1/customJobs/(\d+)$", out["create"]["name"])
        self.assertTrue(m, out)
        job_id = m.group(2)
        # The SDK asked for enums as numbers ($alt=json;enum-encoding=int) and decoded the fake's numbers to names.
        self.assertEqual((out["create"]["state"], out["create"]["strategy"]), ("JOB_STATE_QUEUED", "SPOT"))
        self.assertEqual(out["create"]["labels"], job["labels"])
        self.assertEqual(out["create"]["machine"], {"machineType": "g2-standard-8", "acceleratorType": "NVIDIA_L4",
                                                    "acceleratorCount": 1, "gpuPartitionSize": "",
                                                    "tpuTopology": "", "reservationAffinity": None})
        self.assertEqual(out["gets"], ["JOB_STATE_PENDING", "JOB_STATE_RUNNING"])
        self.assertTrue(out["startTime"])
        self.assertEqual(out["list"], [out["create"]["name"]])
        self.assertEqual(out["cancelled"], "JOB_STATE_CANCELLED")
        # A cancel of the ended job: refused with FAILED_PRECONDITION (9), or its HTTP status 400 and Google's body.
        self.assertIn(out["again"]["code"], ("9", "400"), out["again"])
        self.assertIn("is already finished, and cannot be cancelled.", out["again"]["said"])
        if out["again"]["code"] == "400":
            self.assertIn('"FAILED_PRECONDITION"', out["again"]["said"])
        self.assertEqual([e["text"] for e in out["entries"]],
                         ["gpuplan-fake: job %s started: python train.py" % job_id, "step 1",
                          "gpuplan-fake: job %s cancel requested" % job_id])
        self.assertEqual({(e["jobId"], e["type"]) for e in out["entries"]}, {(job_id, "ml_job")})
        self.assertEqual(out["nextPageToken"], "")

        state = self.state()
        ours = next(j for j in state["jobs"] if j["id"] == job_id)
        self.assertEqual((ours["state"], ours["cancel_requested"], ours["client_token"]),
                         ("JOB_STATE_CANCELLED", True, token))
        # What the SDK sent, as the fake keeps it: enums by number in the body, by name in jobSpec.
        self.assertEqual(ours["body"]["jobSpec"]["workerPoolSpecs"][0]["machineSpec"]["acceleratorType"], 11)
        self.assertEqual(ours["body"]["jobSpec"]["scheduling"], {"timeout": "14400s", "strategy": 4})
        self.assertEqual(ours["jobSpec"]["workerPoolSpecs"][0]["machineSpec"]["acceleratorType"], "NVIDIA_L4")
        self.assertEqual(ours["jobSpec"]["workerPoolSpecs"][0]["replicaCount"], "1")
        calls = state["calls"]
        token_calls = [c for c in calls if c["action"] == "token"]
        self.assertEqual(len(token_calls), 2)  # setUp's and the SDK's (one for both clients: the same auth client)
        sdk_calls = [c for c in calls[calls.index(token_calls[1]):]]
        self.assertEqual([c["action"] for c in sdk_calls],
                         ["token", "customJobs.create", "customJobs.get", "customJobs.get", "customJobs.list",
                          "customJobs.cancel", "customJobs.get", "customJobs.cancel", "entries.list"])
        self.assertTrue(all(c["path"].startswith("/v1/projects/%s/locations/%s/customJobs" % (PROJECT, REGION))
                            for c in sdk_calls[1:-1]), sdk_calls)
        self.assertEqual(sdk_calls[-1]["path"], "/v2/entries:list")
        self.assertEqual(sdk_calls[4]["params"]["filter"], 'labels.gpuplanner-token="%s"' % token)

        # A key the fake does not know: the token request is refused as Google refuses it.
        other = os.path.join(self.dir, "other.pem")
        subprocess.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", other],
                       check=True, capture_output=True)
        args[5] = other  # the key file
        bad = subprocess.run(args, cwd=SDK, env=env, capture_output=True, text=True, timeout=120)
        failed = json.loads(bad.stdout.strip().splitlines()[-1])
        self.assertIn("invalid_grant: Invalid JWT Signature.", failed.get("failed", ""), bad.stdout)


if __name__ == "__main__":
    unittest.main()
