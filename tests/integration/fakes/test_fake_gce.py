#!/usr/bin/env python3
"""Self-test of fake_gce.py, run by hand (not in ctest):

    python3 tests/integration/fakes/test_fake_gce.py [-v]

It starts the fake on a free loopback port and checks, with JWTs signed here (RS256 with
tests/data/test-service-account-key.pem): the token endpoint (a good assertion gets a token; a wrong signature,
issuer, audience, lifetime, scope or grant type answers Google's error), the Bearer check (none or an unknown token:
401 authError), a whole launch (machine and accelerator types by filter, the DLVM image family, the default network,
the firewall get/insert/operation/patch, insert with its requestId, the zone operation, PROVISIONING/STAGING/RUNNING
with 127.0.0.1, the aggregated list by label over two pages, delete, STOPPING then 404), requestId deduplication and
409 alreadyExists, the insert checks, the termination time, and every fault. Then it has the official Node SDK
(tests/integration/sdk/node_modules/@google-cloud/compute 6.15.0, REST fallback, apiEndpoint 127.0.0.1 with the fake's
port and protocol http; a google-auth-library JWT client whose token request goes to the fake's /token) send an
insert, its operation wait, a get, an aggregated list and a delete, plus a firewall insert, an image family get and a
machine type aggregated list, to prove the fake accepts what the real SDK sends; that part fails when node or the SDK
is not installed (tests/integration/sdk/setup.sh installs it).
"""

import base64
import calendar
import hashlib
import http.client
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
import uuid
from urllib.parse import urlencode

HERE = os.path.dirname(os.path.abspath(__file__))
FAKE = os.path.join(HERE, "fake_gce.py")
SDK = os.path.normpath(os.path.join(HERE, "..", "sdk"))
DATA = os.path.normpath(os.path.join(HERE, "..", "..", "data"))
KEY = os.path.join(DATA, "test-service-account-key.pem")
EMAIL = "gpuplan-test@gpuplan-test.iam.gserviceaccount.com"
PROJECT = "gpuplan-test"
ZONE = "us-central1-a"
SCOPE = "https://www.googleapis.com/auth/cloud-platform"
DLVM = "common-cu129-ubuntu-2204-nvidia-580"
IMAGE = "projects/deeplearning-platform-release/global/images/family/" + DLVM
FIREWALL = "gpuplanner-ssh-203-0-113-7-32"
PUBLIC_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGZ1cGxhbm5lci13aXJlLXRlc3Qta2V5LTAwMDAwMDA test"

sys.path.insert(0, HERE)
import fake_gce  # noqa: E402  (its DER reader)


def b64url(data):
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def rsa_private_key(path):
    """(n, d) of a PKCS #8 "PRIVATE KEY" PEM (RSA)."""
    with open(path) as f:
        der = fake_gce.pem_der(f.read(), "PRIVATE KEY")
    _, info, _ = fake_gce.der_read(der, 0)
    parts = fake_gce.der_children(info)
    _, rsa, _ = fake_gce.der_read(parts[2][1], 0)
    numbers = [int.from_bytes(v, "big") for _, v in fake_gce.der_children(rsa)]
    return numbers[1], numbers[3]


def rs256_sign(key, message):
    n, d = key
    size = (n.bit_length() + 7) // 8
    t = fake_gce.SHA256_DIGEST_INFO + hashlib.sha256(message).digest()
    em = b"\x00\x01" + b"\xff" * (size - len(t) - 3) + b"\x00" + t
    return pow(int.from_bytes(em, "big"), d, n).to_bytes(size, "big")


def jwt(key, claims, tamper=False):
    head = b64url(json.dumps({"alg": "RS256", "typ": "JWT"}).encode())
    body = b64url(json.dumps(claims).encode())
    signature = bytearray(rs256_sign(key, (head + "." + body).encode()))
    if tamper:
        signature[-1] ^= 1
    return head + "." + body + "." + b64url(bytes(signature))


def request_id(token):
    """A v4-shaped UUID from a client token (what the provider sends)."""
    raw = bytearray(hashlib.sha256(token.encode()).digest()[:16])
    raw[6] = (raw[6] & 0x0F) | 0x40
    raw[8] = (raw[8] & 0x3F) | 0x80
    return str(uuid.UUID(bytes=bytes(raw)))


class FakeGceTest(unittest.TestCase):
    key = rsa_private_key(KEY)

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        port_file = os.path.join(self.dir, "port")
        self.proc = subprocess.Popen([sys.executable, FAKE, "--port-file", port_file, "--access-key-id", "AKID",
                                      "--secret-key", "ignored", "--zones-asia-southeast9", "asia-southeast9-x,"
                                      "asia-southeast9-y"])
        for _ in range(100):
            if os.path.exists(port_file):
                break
            time.sleep(0.05)
        with open(port_file) as f:
            self.port = int(f.read())
        self.token_url = "http://127.0.0.1:%d/token" % self.port
        self.access = self.get_token()[1]["access_token"]

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

    def claims(self, **changes):
        now = int(time.time())
        out = {"iss": EMAIL, "scope": SCOPE, "aud": self.token_url, "iat": now, "exp": now + 3600}
        out.update(changes)
        return {k: v for k, v in out.items() if v is not None}

    def get_token(self, claims=None, tamper=False, grant="urn:ietf:params:oauth:grant-type:jwt-bearer"):
        form = urlencode({"grant_type": grant, "assertion": jwt(self.key, claims or self.claims(), tamper)})
        return self.http("POST", "/token", raw=form.encode(),
                         headers={"Content-Type": "application/x-www-form-urlencoded"})

    def call(self, method, path, body=None, query=None, token=None):
        target = "/compute/v1/projects/%s/%s" % (PROJECT, path) if not path.startswith("/") else path
        if query:
            target += "?" + urlencode(query)
        headers = {"Authorization": "Bearer " + (token or self.access), "Content-Type": "application/json"}
        return self.http(method, target, body, headers)

    def control(self, method, path, body=None):
        return self.http(method, path, body)[1]

    def faults(self, **faults):
        self.assertTrue(self.control("POST", "/_fake/faults", faults)["ok"])

    def state(self):
        return self.control("GET", "/_fake/state")

    def body(self, token, zone=ZONE, machine="n1-standard-8", gpu="nvidia-tesla-t4", spot=True, terminate_in=None,
             on_host="TERMINATE", **changes):
        out = {"name": token, "machineType": "zones/%s/machineTypes/%s" % (zone, machine),
               "labels": {"gpuplanner-token": token},
               "disks": [{"boot": True, "autoDelete": True, "initializeParams": {
                   "sourceImage": IMAGE, "diskSizeGb": "200", "diskType": "zones/%s/diskTypes/pd-balanced" % zone}}],
               "networkInterfaces": [{"network": "global/networks/default",
                                      "accessConfigs": [{"type": "ONE_TO_ONE_NAT", "name": "External NAT"}]}],
               "tags": {"items": [FIREWALL]},
               "metadata": {"items": [{"key": "ssh-keys", "value": "ubuntu:" + PUBLIC_KEY},
                                      {"key": "startup-script", "value": "#!/bin/sh\nGPUPLAN_DEADMAN_HOURS=12\n"},
                                      {"key": "install-nvidia-driver", "value": "True"}]},
               "scheduling": {"onHostMaintenance": on_host, "automaticRestart": not spot,
                              "provisioningModel": "SPOT" if spot else "STANDARD"}}
        if gpu:
            out["guestAccelerators"] = [{"acceleratorType": "zones/%s/acceleratorTypes/%s" % (zone, gpu),
                                         "acceleratorCount": 1}]
        if spot or terminate_in:
            out["scheduling"]["instanceTerminationAction"] = "DELETE"
        if terminate_in:
            when = time.gmtime(time.time() + terminate_in)
            out["scheduling"]["terminationTime"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", when)
        out.update(changes)
        return out

    def insert(self, body, zone=ZONE, rid=None):
        query = {"requestId": rid if rid is not None else request_id(body.get("name", ""))}
        return self.call("POST", "zones/%s/instances" % zone, body, query)

    def get(self, name, zone=ZONE):
        return self.call("GET", "zones/%s/instances/%s" % (zone, name))

    def error_reason(self, answer):
        return answer["error"]["errors"][0]["reason"]

    # ---- tests

    def test_the_der_reader_and_rs256(self):
        with open(os.path.join(DATA, "test-service-account-key.pub.pem")) as f:
            public = fake_gce.rsa_public_key(f.read())
        self.assertEqual(public[0], self.key[0])
        self.assertEqual(public[1], 65537)
        signature = rs256_sign(self.key, b"message")
        self.assertTrue(fake_gce.rs256_verify(public, b"message", signature))
        self.assertFalse(fake_gce.rs256_verify(public, b"massage", signature))
        self.assertIsNotNone(fake_gce.parse_rfc3339("2026-12-02T10:00:00.000-08:00"))
        self.assertEqual(fake_gce.parse_rfc3339("2026-12-02T18:00:00Z"),
                         fake_gce.parse_rfc3339("2026-12-02T10:00:00-08:00"))

    def test_token_endpoint(self):
        status, answer = self.get_token()
        self.assertEqual(status, 200, answer)
        self.assertEqual((answer["expires_in"], answer["token_type"]), (3599, "Bearer"))
        # The production audience is accepted too (the SDK's gtoken sends it).
        self.assertEqual(self.get_token(self.claims(aud="https://oauth2.googleapis.com/token"))[0], 200)
        expected = [
            (dict(tamper=True), "invalid_grant", "Invalid JWT Signature."),
            (dict(claims=self.claims(iss="someone@else.iam.gserviceaccount.com")), "invalid_grant",
             "Invalid grant: account not found"),
            (dict(claims=self.claims(aud="https://example.com/token")), "invalid_grant",
             "Invalid JWT: Failed audience check."),
            (dict(claims=self.claims(exp=int(time.time()) + 7200)), "invalid_grant",
             "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your "
             "iat and exp values in the JWT claim."),
            (dict(claims=self.claims(iat=int(time.time()) - 4000, exp=int(time.time()) - 400)), "invalid_grant", None),
            (dict(claims=self.claims(scope="https://www.googleapis.com/auth/devstorage.read_only")), "invalid_scope",
             "Invalid OAuth scope or ID token audience provided."),
            (dict(grant="client_credentials"), "unsupported_grant_type", "Invalid grant_type: client_credentials"),
        ]
        for kwargs, error, description in expected:
            status, answer = self.get_token(**kwargs)
            self.assertEqual((status, answer["error"]), (400, error), kwargs)
            if description:
                self.assertEqual(answer["error_description"], description)
        # Bearer: none, unknown.
        for headers in ({}, {"Authorization": "Bearer ya29.not-issued"}, {"Authorization": "Basic eDp5"}):
            status, answer = self.http("GET", "/compute/v1/projects/p/zones/%s/instances/x" % ZONE, headers=headers)
            self.assertEqual((status, answer["error"]["status"]), (401, "UNAUTHENTICATED"))
            self.assertEqual(answer["error"]["errors"][0]["reason"], "authError")
            self.assertTrue(answer["error"]["message"].startswith("Request had invalid authentication credentials."))
        self.assertEqual(self.state()["calls"][0]["action"], "token")

    def test_a_launch_runs_and_ends(self):
        # Zones offering the type (GCE's filter, as the SDK sends it) and the N1 accelerator.
        status, types = self.call("GET", "aggregated/machineTypes", query={"filter": 'name = "a2-highgpu-1g"'})
        self.assertEqual(status, 200, types)
        offering = sorted(k for k, v in types["items"].items() if "machineTypes" in v)
        self.assertIn("zones/us-central1-a", offering)
        self.assertIn("zones/asia-southeast9-y", offering)
        listed = types["items"]["zones/us-central1-b"]["machineTypes"]
        self.assertEqual([(m["name"], m["accelerators"]) for m in listed],
                         [("a2-highgpu-1g", [{"guestAcceleratorType": "nvidia-tesla-a100",
                                              "guestAcceleratorCount": 1}])])
        self.faults(unoffered={"nvidia-tesla-t4": ["us-central1-c"]})
        status, accel = self.call("GET", "aggregated/acceleratorTypes", query={"filter": 'name="nvidia-tesla-t4"'})
        self.assertEqual(status, 200, accel)
        self.assertIn("warning", accel["items"]["zones/us-central1-c"])
        self.assertEqual(accel["items"]["zones/us-central1-c"]["warning"]["code"], "NO_RESULTS_ON_PAGE")
        self.assertEqual(accel["items"]["zones/us-central1-a"]["acceleratorTypes"][0]["name"], "nvidia-tesla-t4")
        self.assertEqual(self.call("GET", "aggregated/machineTypes", query={"filter": "name ~ x"})[0], 400)
        # The image family; an unknown one; the default network.
        status, image = self.call("GET", "/compute/v1/projects/deeplearning-platform-release/global/images/family/"
                                  + DLVM)
        self.assertEqual((status, image["family"], image["status"]), (200, DLVM, "READY"))
        self.assertNotIn("deprecated", image)
        status, missing = self.call("GET", "/compute/v1/projects/deeplearning-platform-release/global/images/family/"
                                    "common-cu99-nothing")
        self.assertEqual((status, self.error_reason(missing)), (404, "notFound"))
        self.assertEqual(self.call("GET", image["selfLink"].replace("https://www.googleapis.com", ""))[0], 200)
        self.assertEqual(self.call("GET", "global/networks/default")[1]["name"], "default")
        # The firewall: absent, created (global operation), found, repaired.
        status, absent = self.call("GET", "global/firewalls/" + FIREWALL)
        self.assertEqual((status, absent["error"]["message"]), (404, "The resource 'projects/%s/global/firewalls/%s' "
                                                                     "was not found" % (PROJECT, FIREWALL)))
        rule = {"name": FIREWALL, "network": "projects/%s/global/networks/default" % PROJECT, "direction": "INGRESS",
                "priority": 1000, "allowed": [{"IPProtocol": "tcp", "ports": ["22"]}],
                "sourceRanges": ["203.0.113.7/32"], "targetTags": [FIREWALL], "description": "SSH for GPU Planner"}
        status, op = self.call("POST", "global/firewalls", rule)
        self.assertEqual((status, op["status"], op["operationType"]), (200, "RUNNING", "insert"), op)
        self.assertNotIn("zone", op)
        status, done = self.call("POST", "global/operations/%s/wait" % op["name"], "")
        self.assertEqual((status, done["status"], done["progress"]), (200, "DONE", 100))
        self.assertEqual(self.call("GET", "global/operations/" + op["name"])[1]["status"], "DONE")
        self.assertEqual(self.call("POST", "global/firewalls", rule)[0], 409)
        found = self.call("GET", "global/firewalls/" + FIREWALL)[1]
        self.assertEqual((found["allowed"], found["sourceRanges"], found["targetTags"]),
                         (rule["allowed"], rule["sourceRanges"], [FIREWALL]))
        self.assertEqual(self.call("PATCH", "global/firewalls/" + FIREWALL, dict(rule, sourceRanges=["198.51.100.1/32"])
                                   )[1]["operationType"], "patch")
        self.assertEqual(self.call("GET", "global/firewalls/" + FIREWALL)[1]["sourceRanges"], ["198.51.100.1/32"])

        # Insert: an operation; a resend of its requestId answers it again and creates nothing.
        token = "gpuplan-0123456789abcdef01234567"
        body = self.body(token, terminate_in=3 * 3600)
        status, op = self.insert(body)
        self.assertEqual(status, 200, op)
        self.assertEqual((op["kind"], op["operationType"], op["status"], op["progress"]),
                         ("compute#operation", "insert", "RUNNING", 0))
        self.assertTrue(op["name"].startswith("operation-"))
        self.assertTrue(op["targetLink"].endswith("/projects/%s/zones/%s/instances/%s" % (PROJECT, ZONE, token)))
        self.assertTrue(op["zone"].endswith("/zones/" + ZONE))
        status, again = self.insert(body)
        self.assertEqual((status, again["name"]), (200, op["name"]))
        status, dup = self.insert(body, rid=str(uuid.uuid4()))
        self.assertEqual((status, self.error_reason(dup)), (409, "alreadyExists"))
        self.assertEqual(dup["error"]["message"], "The resource 'projects/%s/zones/%s/instances/%s' already exists"
                         % (PROJECT, ZONE, token))
        status, done = self.call("POST", "zones/%s/operations/%s/wait" % (ZONE, op["name"]), "")
        self.assertEqual((status, done["status"], done["targetId"]), (200, "DONE", op["targetId"]))
        self.assertNotIn("error", done)
        self.assertEqual(self.call("GET", "zones/%s/operations/%s" % (ZONE, op["name"]))[1]["status"], "DONE")
        self.assertEqual(self.call("GET", "zones/us-central1-b/operations/%s" % op["name"])[0], 404)
        # PROVISIONING, STAGING, RUNNING with 127.0.0.1.
        first = self.get(token)[1]
        self.assertEqual(first["status"], "PROVISIONING")
        self.assertNotIn("natIP", first["networkInterfaces"][0]["accessConfigs"][0])
        self.assertEqual(self.get(token)[1]["status"], "STAGING")
        running = self.get(token)[1]
        self.assertEqual(running["status"], "RUNNING")
        self.assertEqual(running["networkInterfaces"][0]["accessConfigs"][0]["natIP"], "127.0.0.1")
        self.assertEqual((running["id"], running["labels"], running["tags"]["items"]),
                         (op["targetId"], {"gpuplanner-token": token}, [FIREWALL]))
        self.assertTrue(running["machineType"].endswith("/zones/%s/machineTypes/n1-standard-8" % ZONE))
        self.assertTrue(running["guestAccelerators"][0]["acceleratorType"].endswith(
            "/acceleratorTypes/nvidia-tesla-t4"))
        self.assertEqual((running["scheduling"]["provisioningModel"], running["scheduling"]["preemptible"]),
                         ("SPOT", True))
        self.assertEqual(running["disks"][0]["diskSizeGb"], "200")
        instance = self.state()["instances"][0]
        self.assertEqual((instance["id"], instance["name"], instance["zone"], instance["region"]),
                         (ZONE + "/" + token, token, ZONE, "us-central1"))
        self.assertEqual((instance["state"], instance["client_token"], instance["instance_type"], instance["pricing"]),
                         ("RUNNING", token, "n1-standard-8+1xT4", "spot"))
        self.assertEqual((instance["ssh_keys"], instance["request_id"], instance["image"]),
                         ("ubuntu:" + PUBLIC_KEY, request_id(token), IMAGE))
        self.assertIn("GPUPLAN_DEADMAN_HOURS", instance["user_data"])
        self.assertEqual(instance["terminate_at"],
                         calendar.timegm(time.strptime(body["scheduling"]["terminationTime"], "%Y-%m-%dT%H:%M:%SZ")))
        # A second one, on demand, a GPU machine type in another zone; the aggregated list over two pages.
        other = "gpuplan-89abcdef0123456789abcdef"
        status, op2 = self.insert(self.body(other, zone="us-central1-b", machine="g2-standard-8", gpu=None, spot=False),
                                  zone="us-central1-b")
        self.assertEqual(status, 200, op2)
        query = {"filter": "labels.gpuplanner-token:*", "maxResults": 1, "returnPartialSuccess": "true"}
        status, page1 = self.call("GET", "aggregated/instances", query=query)
        self.assertEqual(status, 200, page1)
        self.assertEqual(page1["items"]["zones/us-central1-a"]["instances"][0]["name"], token)
        self.assertIn("warning", page1["items"]["zones/us-central1-b"])
        status, page2 = self.call("GET", "aggregated/instances", query=dict(query, pageToken=page1["nextPageToken"]))
        self.assertEqual(page2["items"]["zones/us-central1-b"]["instances"][0]["name"], other)
        self.assertNotIn("nextPageToken", page2)
        self.assertEqual(self.state()["instances"][1]["instance_type"], "g2-standard-8")
        status, none = self.call("GET", "aggregated/instances", query={"filter": 'labels.gpuplanner-token="nope"'})
        self.assertFalse(any("instances" in v for v in none["items"].values()))
        self.assertEqual(self.call("GET", "aggregated/instances", query={"maxResults": 501})[0], 400)
        # Delete: an operation; STOPPING once, then 404 (a second delete too).
        status, deleted = self.call("DELETE", "zones/%s/instances/%s" % (ZONE, token),
                                    query={"requestId": str(uuid.uuid4())})
        self.assertEqual((status, deleted["operationType"]), (200, "delete"), deleted)
        self.assertEqual(self.state()["instances"][0]["state"], "Terminating")
        self.assertEqual(self.get(token)[1]["status"], "STOPPING")
        status, gone = self.get(token)
        self.assertEqual((status, self.error_reason(gone)), (404, "notFound"))
        self.assertEqual(gone["error"]["message"], "The resource 'projects/%s/zones/%s/instances/%s' was not found"
                         % (PROJECT, ZONE, token))
        self.assertEqual(self.state()["instances"][0]["state"], "Terminated")
        self.assertEqual(self.call("DELETE", "zones/%s/instances/%s" % (ZONE, token))[0], 404)
        actions = [c["action"] for c in self.state()["calls"]]
        for action in ("token", "machineTypes.aggregatedList", "acceleratorTypes.aggregatedList",
                       "images.getFromFamily", "images.get", "networks.get", "firewalls.get", "firewalls.insert",
                       "firewalls.patch", "globalOperations.wait", "globalOperations.get", "instances.insert",
                       "zoneOperations.wait",
                       "zoneOperations.get", "instances.get", "instances.aggregatedList", "instances.delete"):
            self.assertIn(action, actions)
        self.assertEqual(actions.count("instances.insert"), 4)
        insert_call = next(c for c in self.state()["calls"] if c["action"] == "instances.insert")
        self.assertEqual((insert_call["region"], insert_call["params"]["requestId"], insert_call["body"]["name"]),
                         ("us-central1", request_id(token), token))

    def test_insert_checks(self):
        token = "gpuplan-0123456789abcdef01234567"
        cases = [
            (self.body(token, on_host="MIGRATE"), "Instances with guest accelerators do not support live migration."),
            (self.body(token, machine="a2-highgpu-1g", gpu=None, on_host="MIGRATE"), "live migration"),
            (dict(self.body(token), scheduling={"provisioningModel": "SPOT", "automaticRestart": True,
                                                "onHostMaintenance": "TERMINATE"}), "automaticRestart"),
            (self.body("Gpuplan-Upper"), "resource.name"),
            (self.body(token, machine="n9-imaginary-8"), "does not exist in zone"),
            (self.body(token, machineType="zones/us-central1-b/machineTypes/n1-standard-8"), "zone"),
            (self.body(token, machine="g2-standard-8"), "guestAccelerators"),
            (self.body(token, labels={"Upper": "x"}), "resource.labels"),
            (self.body(token, metadata={"items": [{"key": "a", "value": "x" * (256 * 1024 + 1)}]}), "256 KB"),
            (self.body(token, metadata={"items": [{"key": "a", "value": "1"}, {"key": "a", "value": "2"}]}),
             "Duplicate"),
        ]
        past = self.body(token)
        past["scheduling"]["terminationTime"] = "2020-01-01T00:00:00Z"
        cases.append((past, "terminationTime"))
        for body, said in cases:
            status, answer = self.insert(body)
            self.assertEqual(status, 400, (body, answer))
            self.assertIn(said, answer["error"]["message"])
        status, answer = self.insert(self.body(token), rid="00000000-0000-0000-0000-000000000000")
        self.assertEqual((status, self.error_reason(answer)), (400, "invalid"))
        self.assertEqual(self.insert(self.body(token), rid="not-a-uuid")[0], 400)
        bad_image = self.body(token)
        bad_image["disks"][0]["initializeParams"]["sourceImage"] = \
            "projects/deeplearning-platform-release/global/images/family/common-cu99-nothing"
        self.assertEqual(self.insert(bad_image)[0], 404)
        self.assertEqual(self.insert(self.body(token), zone="mars-north1-a")[0], 400)
        self.assertEqual(self.state()["instances"], [])
        # The full URLs GCE writes in its answers are accepted as well as the short forms.
        link = "https://www.googleapis.com/compute/v1/projects/%s/" % PROJECT
        full = self.body(token, machineType=link + "zones/%s/machineTypes/n1-standard-8" % ZONE)
        full["networkInterfaces"][0]["network"] = link + "global/networks/default"
        self.assertEqual(self.insert(full)[0], 200)

    def test_termination_time_deletes(self):
        token = "gpuplan-dead0000000000000000000000"[:32]
        body = self.body(token, spot=False, terminate_in=2)
        self.assertEqual(self.insert(body)[0], 200)
        self.assertEqual(self.get(token)[1]["status"], "PROVISIONING")
        time.sleep(2.2)
        self.assertEqual(self.get(token)[1]["status"], "STOPPING")
        self.assertEqual(self.get(token)[0], 404)
        # STOP: TERMINATED (still there).
        token = "gpuplan-stop0000000000000000000000"[:32]
        body = self.body(token, spot=False, terminate_in=2)
        body["scheduling"]["instanceTerminationAction"] = "STOP"
        self.assertEqual(self.insert(body)[0], 200)
        time.sleep(2.2)
        self.assertEqual(self.get(token)[1]["status"], "TERMINATED")
        self.assertEqual(self.get(token)[1]["status"], "TERMINATED")

    def test_capacity_and_quota(self):
        token = "gpuplan-soldout00000000000000000"
        self.faults(no_capacity_zones=[ZONE], stale_zone_listing=True)
        status, op = self.insert(self.body(token))
        self.assertEqual((status, op["status"]), (200, "RUNNING"))
        done = self.call("POST", "zones/%s/operations/%s/wait" % (ZONE, op["name"]), "")[1]
        self.assertEqual(done["status"], "DONE")
        self.assertEqual(done["error"]["errors"][0]["code"], "ZONE_RESOURCE_POOL_EXHAUSTED")
        self.assertEqual(done["error"]["errors"][0]["message"],
                         "The zone 'projects/%s/zones/%s' does not have enough resources available to fulfill the "
                         "request.  Try a different zone, or try again later." % (PROJECT, ZONE))
        self.assertEqual(self.state()["instances"], [])
        self.assertEqual(self.get(token)[0], 404)
        # The next zone takes it, with the same requestId (the fake scopes request ids to the zone).
        status, op = self.insert(self.body(token, zone="us-central1-b"), zone="us-central1-b")
        self.assertEqual(status, 200, op)
        self.assertNotIn("error", self.call("GET", "zones/us-central1-b/operations/" + op["name"])[1])
        self.assertEqual(len(self.state()["instances"]), 1)
        # Quota: regional (Spot: PREEMPTIBLE_), global.
        self.faults(no_capacity_zones=[], quota_exceeded=True)
        for spot, metric in ((True, "PREEMPTIBLE_NVIDIA_T4_GPUS"), (False, "NVIDIA_T4_GPUS")):
            name = "gpuplan-quota%s0000000000000000000" % ("s" if spot else "o")
            op = self.insert(self.body(name[:32], spot=spot))[1]
            done = self.call("GET", "zones/%s/operations/%s" % (ZONE, op["name"]))[1]
            self.assertEqual(done["error"]["errors"][0],
                             {"code": "QUOTA_EXCEEDED",
                              "message": "Quota '%s' exceeded. Limit: 0.0 in region us-central1." % metric})
        self.faults(quota_exceeded="GPUS_ALL_REGIONS")
        op = self.insert(self.body("gpuplan-quotaglobal000000000000"))[1]
        done = self.call("GET", "zones/%s/operations/%s" % (ZONE, op["name"]))[1]
        self.assertEqual(done["error"]["errors"][0]["message"], "Quota 'GPUS_ALL_REGIONS' exceeded. Limit: 0.0 "
                                                                "globally.")
        self.assertEqual(len(self.state()["instances"]), 1)

    def test_account_faults(self):
        self.faults(throttle=2)
        for _ in range(2):
            status, answer = self.call("GET", "global/firewalls/x")
            self.assertEqual((status, self.error_reason(answer), answer["error"]["message"]),
                             (403, "rateLimitExceeded", "Rate Limit Exceeded"))
        self.assertEqual(self.call("GET", "global/firewalls/x")[0], 404)
        token = "gpuplan-0123456789abcdef01234567"
        self.faults(unauthorized=["instances.insert", "firewalls.insert"])
        status, answer = self.insert(self.body(token))
        self.assertEqual((status, self.error_reason(answer), answer["error"]["status"]),
                         (403, "forbidden", "PERMISSION_DENIED"))
        self.assertEqual(answer["error"]["message"], "Required 'compute.instances.create' permission for "
                                                     "'projects/%s/zones/%s/instances/%s'" % (PROJECT, ZONE, token))
        status, answer = self.call("POST", "global/firewalls", {"name": FIREWALL})
        self.assertIn("'compute.firewalls.create'", answer["error"]["message"])
        self.faults(unauthorized=[], api_disabled=True)
        status, answer = self.get(token)
        self.assertEqual((status, self.error_reason(answer)), (403, "accessNotConfigured"))
        self.assertIn("Compute Engine API has not been used in project", answer["error"]["message"])
        self.assertIn("https://console.developers.google.com/apis/api/compute.googleapis.com/overview?project=",
                      answer["error"]["message"])
        self.faults(api_disabled=False, no_default_network=True)
        self.assertEqual(self.call("GET", "global/networks/default")[0], 404)
        status, answer = self.insert(self.body(token))
        self.assertEqual((status, answer["error"]["message"]),
                         (404, "The resource 'projects/%s/global/networks/default' was not found" % PROJECT))
        self.assertEqual(self.state()["instances"], [])
        self.faults(no_default_network=False, missing_image_families=[DLVM],
                    deprecated_image_families=["common-cu121-debian-11-py310"])
        base = "/compute/v1/projects/deeplearning-platform-release/global/images/family/"
        self.assertEqual(self.call("GET", base + DLVM)[0], 404)
        self.assertEqual(self.call("GET", base + "common-cu121-debian-11-py310")[1]["deprecated"]["state"],
                         "DEPRECATED")

    def test_reply_faults(self):
        token = "gpuplan-drop00000000000000000000"
        # drop_after_accept: created, no answer; the same requestId answers the same operation.
        self.faults(drop_after_accept=1)
        with self.assertRaises((http.client.RemoteDisconnected, ConnectionError)):
            self.insert(self.body(token))
        self.assertEqual(len(self.state()["instances"]), 1)
        status, again = self.insert(self.body(token))
        self.assertEqual((status, again["targetLink"].rsplit("/", 1)[1]), (200, token))
        self.assertEqual(len(self.state()["instances"]), 1)
        # internal_error_after_create with invisible_s: 500 backendError, created, invisible for a while.
        token = "gpuplan-internal0000000000000000"
        self.faults(internal_error_after_create=1, invisible_s=1.5)
        status, answer = self.insert(self.body(token))
        self.assertEqual((status, self.error_reason(answer), answer["error"]["code"]), (500, "backendError", 500))
        self.assertTrue(answer["error"]["message"].startswith("Internal error. Please try again or contact Google "
                                                              "Support. (Code: '"))
        self.assertEqual(self.get(token)[0], 404)
        listed = self.call("GET", "aggregated/instances")[1]
        self.assertNotIn(token, json.dumps(listed))
        self.assertEqual(self.call("DELETE", "zones/%s/instances/%s" % (ZONE, token))[0], 404)
        time.sleep(1.6)
        self.assertEqual(self.get(token)[0], 200)
        self.faults(invisible_s=0)
        # hold_run_reply_s: once.
        started = time.time()
        self.faults(hold_run_reply_s=1)
        self.assertEqual(self.insert(self.body("gpuplan-hold00000000000000000000"))[0], 200)
        self.assertGreaterEqual(time.time() - started, 1)
        # operation_running_polls, running_after and terminate_slow_s.
        self.faults(running_after=1, terminate_slow_s=1.5, operation_running_polls=1)
        token = "gpuplan-slow00000000000000000000"
        op = self.insert(self.body(token))[1]
        self.assertEqual(self.call("GET", "zones/%s/operations/%s" % (ZONE, op["name"]))[1]["status"], "RUNNING")
        self.assertEqual(self.call("GET", "zones/%s/operations/%s" % (ZONE, op["name"]))[1]["status"], "DONE")
        self.assertEqual(self.get(token)[1]["status"], "PROVISIONING")
        self.assertEqual(self.get(token)[1]["status"], "RUNNING")
        self.call("DELETE", "zones/%s/instances/%s" % (ZONE, token))
        self.assertEqual(self.get(token)[1]["status"], "STOPPING")
        self.assertEqual(self.get(token)[1]["status"], "STOPPING")
        time.sleep(1.6)
        self.assertEqual(self.get(token)[1]["status"], "STOPPING")
        self.assertEqual(self.get(token)[0], 404)

    def test_control_endpoints(self):
        self.assertTrue(self.control("POST", "/_fake/firewalls", {"project": PROJECT, "name": FIREWALL})["ok"])
        rule = self.call("GET", "global/firewalls/" + FIREWALL)[1]
        self.assertEqual((rule["allowed"], rule["sourceRanges"]), ([], []))
        state = self.state()
        for key in ("instances", "calls", "firewalls", "operations"):
            self.assertIn(key, state)
        self.assertEqual(state["firewalls"][0]["name"], FIREWALL)
        # Another project is another world, with the same token.
        self.assertEqual(self.call("GET", "/compute/v1/projects/other-project/global/firewalls/" + FIREWALL)[0], 404)

    def test_the_official_sdk_is_accepted(self):
        node = shutil.which("node")
        # Fails (not skipped) without node or the SDK: tests/integration/sdk/setup.sh installs it, as test.sh does.
        self.assertTrue(node and os.path.isdir(os.path.join(SDK, "node_modules", "@google-cloud", "compute"))
                        and os.path.isdir(os.path.join(SDK, "node_modules", "google-auth-library")),
                        "node or tests/integration/sdk/node_modules/@google-cloud/compute is not installed: run "
                        "tests/integration/sdk/setup.sh")
        token = "gpuplan-sdk00000000000000000000a"
        body = self.body(token)
        body["labels"]["owner"] = "sdk"
        script = r"""
const compute = require('@google-cloud/compute');
const {JWT} = require('google-auth-library');
const [port, email, keyFile, project, zone, body, requestId, deleteRequestId, firewall] = process.argv.slice(1);
const fs = require('fs');
const tokenUrl = 'http://127.0.0.1:' + port + '/token';
// The JWT client posts to https://oauth2.googleapis.com/token (aud stays that URL); its request goes to the fake.
const auth = new JWT({email, key: fs.readFileSync(keyFile, 'utf8'),
                      scopes: ['https://www.googleapis.com/auth/cloud-platform'],
                      transporterOptions: {adapter: (options, defaultAdapter) => {
                          if (String(options.url) === 'https://oauth2.googleapis.com/token') {
                              options.url = new URL(tokenUrl);
                          }
                          return defaultAdapter(options);
                      }}});
const options = {fallback: true, apiEndpoint: '127.0.0.1', port: Number(port), protocol: 'http', authClient: auth};
(async () => {
    const out = {};
    const instances = new compute.InstancesClient(options);
    const operations = new compute.ZoneOperationsClient(options);
    const [lro] = await instances.insert({project, zone, requestId, instanceResource: JSON.parse(body)});
    const operationName = lro.latestResponse.name;
    out.insert = {name: operationName, status: String(lro.latestResponse.status)};
    const [waited] = await operations.wait({project, zone, operation: operationName});
    out.wait = {status: String(waited.status), error: waited.error ? JSON.stringify(waited.error) : null};
    const [instance] = await instances.get({project, zone, instance: JSON.parse(body).name});
    out.get = {status: String(instance.status), labels: instance.labels, id: String(instance.id)};
    const listed = [];
    for await (const [scope, list] of instances.aggregatedListAsync(
            {project, filter: 'labels.gpuplanner-token:*', maxResults: 500, returnPartialSuccess: true})) {
        for (const item of list.instances || []) {
            listed.push(scope + '/' + item.name);
        }
    }
    out.list = listed;
    const [deleted] = await instances.delete(
        {project, zone, instance: JSON.parse(body).name, requestId: deleteRequestId});
    out.delete = {status: String(deleted.latestResponse.status)};
    const firewalls = new compute.FirewallsClient(options);
    const [fw] = await firewalls.insert({project, firewallResource: {
        name: firewall, network: `projects/${project}/global/networks/default`, direction: 'INGRESS', priority: 1000,
        allowed: [{IPProtocol: 'tcp', ports: ['22']}], sourceRanges: ['203.0.113.7/32'], targetTags: [firewall]}});
    const [fwDone] = await new compute.GlobalOperationsClient(options).get(
        {project, operation: fw.latestResponse.name});
    out.firewall = String(fwDone.status);
    const [image] = await new compute.ImagesClient(options).getFromFamily(
        {project: 'deeplearning-platform-release', family: 'common-cu129-ubuntu-2204-nvidia-580'});
    out.image = image.family;
    const zones = [];
    for await (const [scope, list] of new compute.MachineTypesClient(options).aggregatedListAsync(
            {project, filter: 'name = "g2-standard-8"'})) {
        if ((list.machineTypes || []).length) zones.push(scope);
    }
    out.machineZones = zones.length;
    console.log(JSON.stringify(out));
})().catch((e) => { console.log(JSON.stringify({failed: String(e.message || e), code: e.code})); });
"""
        env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
        for name in ("GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_CLOUD_PROJECT", "GCLOUD_PROJECT"):
            env.pop(name, None)
        env["NODE_PATH"] = os.path.join(SDK, "node_modules")
        rid = str(uuid.uuid4())
        args = [node, "-e", script, str(self.port), EMAIL, KEY, PROJECT, ZONE, json.dumps(body), rid, str(uuid.uuid4()),
                FIREWALL]
        done = subprocess.run(args, cwd=SDK, env=env, capture_output=True, text=True, timeout=120)
        self.assertEqual(done.returncode, 0, done.stderr)
        out = json.loads(done.stdout.strip().splitlines()[-1])
        self.assertNotIn("failed", out, out)
        self.assertEqual(out["insert"]["status"], "RUNNING")
        self.assertEqual(out["wait"], {"status": "DONE", "error": None})
        self.assertEqual((out["get"]["status"], out["get"]["labels"]), ("PROVISIONING", body["labels"]))
        self.assertEqual(out["list"], ["zones/%s/%s" % (ZONE, token)])
        self.assertEqual(out["delete"]["status"], "RUNNING")
        self.assertEqual((out["firewall"], out["image"]), ("DONE", DLVM))
        self.assertEqual(out["machineZones"], 7 * 3 + 2)  # the default regions' zones and asia-southeast9's two
        calls = self.state()["calls"]
        token_calls = [c for c in calls if c["action"] == "token"]
        self.assertEqual(len(token_calls), 2)  # setUp's and the SDK's (cached for every later call)
        sdk_calls = [c["action"] for c in calls[calls.index(token_calls[1]):]]
        self.assertEqual(sdk_calls, ["token", "instances.insert", "zoneOperations.wait", "instances.get",
                                     "instances.aggregatedList", "instances.delete", "firewalls.insert",
                                     "globalOperations.get", "images.getFromFamily", "machineTypes.aggregatedList"])
        insert = next(c for c in calls if c["action"] == "instances.insert")
        self.assertEqual(insert["params"], {"requestId": rid})
        self.assertEqual(insert["body"]["disks"][0]["initializeParams"]["diskSizeGb"], "200")
        instance = self.state()["instances"][0]
        self.assertEqual((instance["client_token"], instance["state"]), (token, "Terminating"))
        # A key the fake does not know: the token request is refused as Google refuses it.
        other = os.path.join(self.dir, "other.pem")
        subprocess.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", other],
                       check=True, capture_output=True)
        args[5] = other
        bad = subprocess.run(args, cwd=SDK, env=env, capture_output=True, text=True, timeout=120)
        failed = json.loads(bad.stdout.strip().splitlines()[-1])
        self.assertIn("invalid_grant: Invalid JWT Signature.", failed.get("failed", ""), bad.stdout)


if __name__ == "__main__":
    unittest.main()
