#!/usr/bin/env python3
"""Self-test of fake_lambda.py:

    python3 tests/integration/fakes/test_fake_lambda.py [-v]

It starts the fake on a free loopback port and checks: the API key (Bearer and Basic pass; a wrong or missing one
answers 401 global/invalid-api-key), the documented answer shapes (their field names checked against
tests/data/cloud/lambda's documented examples), a whole launch (key added, launch, booting then active with
127.0.0.1, listed by name, terminate, terminating then terminated then 404), that a name is no idempotency key (two
launches, two instances), and every fault.
"""

import base64
import http.client
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
FAKE = os.path.join(HERE, "fake_lambda.py")
DATA = os.path.normpath(os.path.join(HERE, "..", "..", "data", "cloud", "lambda"))
KEY = "fake-lambda-api-key"
PUBLIC_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGZ1cGxhbm5lci10ZXN0LWtleS1ub3QtcmVhbC0wMDAwMDAw lab@example"
TOKEN = "gpuplan-0123456789abcdef01234567"


def documented(name):
    with open(os.path.join(DATA, name)) as f:
        return json.load(f)


class FakeLambdaTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        port_file = os.path.join(self.dir, "port")
        self.proc = subprocess.Popen([sys.executable, FAKE, "--port-file", port_file, "--secret-key", KEY,
                                      "--running-after", "1"])
        deadline = time.time() + 10
        while not os.path.exists(port_file):
            if time.time() > deadline:
                self.fail("the fake did not start")
            time.sleep(0.05)
        with open(port_file) as f:
            self.port = int(f.read())

    def tearDown(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)
        shutil.rmtree(self.dir, ignore_errors=True)

    def call(self, method, path, body=None, auth="bearer", timeout=30):
        headers = {"Accept": "application/json"}
        if auth == "bearer":
            headers["Authorization"] = "Bearer " + KEY
        elif auth == "basic":
            headers["Authorization"] = "Basic " + base64.b64encode((KEY + ":").encode()).decode()
        elif auth:
            headers["Authorization"] = auth
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            conn.request(method, path if path.startswith("/_fake") else "/api/v1" + path, data, headers)
            resp = conn.getresponse()
            raw = resp.read()
            return resp.status, json.loads(raw) if raw else None
        finally:
            conn.close()

    def faults(self, **kwargs):
        status, _ = self.call("POST", "/_fake/faults", kwargs)
        self.assertEqual(status, 200)

    def state(self):
        return self.call("GET", "/_fake/state")[1]

    def add_key(self, name="gpuplanner-0123456789ab"):
        status, body = self.call("POST", "/ssh-keys", {"name": name, "public_key": PUBLIC_KEY})
        self.assertEqual(status, 200, body)
        return body["data"]

    def launch(self, name=TOKEN, region="us-west-1", key="gpuplanner-0123456789ab", **extra):
        body = {"region_name": region, "instance_type_name": "gpu_1x_a10", "ssh_key_names": [key],
                "file_system_names": [], "quantity": 1, "name": name}
        body.update(extra)
        return self.call("POST", "/instance-operations/launch", body)

    def assertError(self, answer, status, code):
        self.assertEqual(answer[0], status, answer)
        self.assertEqual(answer[1]["error"]["code"], code, answer)
        self.assertIn("message", answer[1]["error"])

    # ---- auth and shapes

    def test_api_key(self):
        self.assertEqual(self.call("GET", "/instances")[0], 200)
        self.assertEqual(self.call("GET", "/instances", auth="basic")[0], 200)
        self.assertError(self.call("GET", "/instances", auth=None), 401, "global/invalid-api-key")
        self.assertError(self.call("GET", "/instances", auth="Bearer wrong"), 401, "global/invalid-api-key")
        self.assertError(self.call("GET", "/nothing-here"), 404, "global/not-found")

    def test_shapes_are_the_documented_ones(self):
        status, types = self.call("GET", "/instance-types")
        self.assertEqual(status, 200)
        doc_item = next(iter(documented("instance_types.json")["data"].values()))
        for item in types["data"].values():
            self.assertEqual(set(item), set(doc_item))
            self.assertEqual(set(item["instance_type"]), set(doc_item["instance_type"]))
            self.assertEqual(set(item["instance_type"]["specs"]), set(doc_item["instance_type"]["specs"]))
        self.assertIn("us-west-1", [r["name"] for r in types["data"]["gpu_1x_a10"]["regions_with_capacity_available"]])
        key = self.add_key()
        self.assertEqual(set(key), set(documented("add_ssh_key_response.json")["data"]))
        status, launched = self.launch()
        self.assertEqual(status, 200, launched)
        self.assertEqual(set(launched["data"]), set(documented("launch_response.json")["data"]))
        status, shown = self.call("GET", "/instances/" + launched["data"]["instance_ids"][0])
        doc_instance = documented("get_instance.json")["data"]
        # Every field the fake answers is one the reference documents (it leaves out jupyter_*, tags, mounts).
        self.assertLessEqual(set(shown["data"]), set(doc_instance))
        for field in ("id", "name", "status", "region", "instance_type", "ssh_key_names", "file_system_names",
                      "actions"):
            self.assertIn(field, shown["data"])

    # ---- a whole launch

    def test_launch_lifecycle(self):
        self.add_key()
        status, launched = self.launch(user_data="#cloud-config\n", image={"family": "lambda-stack-22-04"})
        self.assertEqual(status, 200, launched)
        iid = launched["data"]["instance_ids"][0]
        st = self.state()
        self.assertEqual(st["instances"][0]["client_token"], TOKEN)
        self.assertEqual(st["instances"][0]["zone"], "us-west-1")
        self.assertEqual(st["instances"][0]["user_data"], "#cloud-config\n")
        self.assertEqual(st["instances"][0]["image"], {"family": "lambda-stack-22-04"})
        self.assertEqual(st["instances"][0]["pricing"], "on_demand")
        self.assertEqual([c["action"] for c in st["calls"]], ["add_ssh_key", "launch"])
        self.assertEqual(self.call("GET", "/instances/" + iid)[1]["data"]["status"], "booting")
        shown = self.call("GET", "/instances/" + iid)[1]["data"]
        self.assertEqual(shown["status"], "active")
        self.assertEqual(shown["ip"], "127.0.0.1")
        listed = self.call("GET", "/instances")[1]["data"]
        self.assertEqual([(i["id"], i["name"]) for i in listed], [(iid, TOKEN)])
        status, term = self.call("POST", "/instance-operations/terminate", {"instance_ids": [iid]})
        self.assertEqual(status, 200)
        self.assertEqual(term["data"]["terminated_instances"][0]["status"], "terminating")
        self.assertEqual(self.call("GET", "/instances/" + iid)[1]["data"]["status"], "terminating")
        self.assertEqual(self.call("GET", "/instances/" + iid)[1]["data"]["status"], "terminated")
        self.assertError(self.call("GET", "/instances/" + iid), 404, "global/object-does-not-exist")
        self.assertEqual(self.call("GET", "/instances")[1]["data"], [])
        self.assertError(self.call("POST", "/instance-operations/terminate", {"instance_ids": [iid]}), 404,
                         "global/object-does-not-exist")
        self.assertEqual(self.state()["instances"][0]["state"], "terminated")

    def test_name_is_no_idempotency_key(self):
        self.add_key()
        self.assertEqual(self.launch()[0], 200)
        self.assertEqual(self.launch()[0], 200)
        self.assertEqual(len(self.state()["instances"]), 2)

    def test_launch_checks(self):
        self.assertError(self.launch(), 404, "global/object-does-not-exist")  # no such key
        self.add_key()
        self.assertError(self.launch(region="mars-1"), 400, "global/invalid-parameters")
        self.assertError(self.launch(name="x" * 65), 400, "global/invalid-parameters")
        self.assertError(self.launch(quantity=2), 400, "global/invalid-parameters")
        self.assertError(self.launch(user_data="x" * 1000001), 400, "global/invalid-parameters")
        self.assertError(self.call("POST", "/ssh-keys", {"name": "gpuplanner-0123456789ab", "public_key": PUBLIC_KEY}),
                         400, "global/duplicate")
        self.assertEqual(self.state()["instances"], [])

    # ---- faults

    def test_throttle(self):
        self.faults(throttle=2)
        self.assertEqual(self.call("GET", "/instances")[0], 429)
        self.assertEqual(self.call("GET", "/instances")[0], 429)
        self.assertEqual(self.call("GET", "/instances")[0], 200)

    def test_rate_limit_launch(self):
        self.add_key()
        self.faults(rate_limit_launch=True)
        self.assertEqual(self.launch()[0], 200)
        self.assertEqual(self.launch()[0], 429)
        self.assertEqual(len(self.state()["instances"]), 1)

    def test_no_capacity(self):
        self.add_key()
        self.faults(no_capacity_zones=["us-west-1"])
        types = self.call("GET", "/instance-types")[1]["data"]
        self.assertNotIn("us-west-1", [r["name"] for r in types["gpu_1x_a10"]["regions_with_capacity_available"]])
        answer = self.launch()
        self.assertError(answer, 400, "instance-operations/launch/insufficient-capacity")
        self.assertEqual(answer[1], documented("error_insufficient_capacity.json"))
        self.assertEqual(self.launch(region="us-east-1")[0], 200)

    def test_quota(self):
        self.add_key()
        self.faults(quota_exceeded=True)
        answer = self.launch()
        self.assertEqual(answer[0], 400)
        self.assertEqual(answer[1], documented("error_quota_exceeded.json"))

    def test_unauthorized(self):
        self.add_key()
        self.faults(unauthorized=["launch"])
        self.assertError(self.launch(), 403, "global/forbidden")
        self.assertEqual(self.call("GET", "/instances")[0], 200)
        self.faults(unauthorized=["all"])
        self.assertError(self.call("GET", "/instances"), 401, "global/invalid-api-key")

    def test_drop_after_accept(self):
        self.add_key()
        self.faults(drop_after_accept=1)
        with self.assertRaises((http.client.HTTPException, ConnectionError, OSError)):
            self.launch()
        self.assertEqual(len(self.state()["instances"]), 1)  # created all the same

    def test_hold_run_reply(self):
        self.add_key()
        self.faults(hold_run_reply_s=1)
        started = time.time()
        self.assertEqual(self.launch()[0], 200)
        self.assertGreaterEqual(time.time() - started, 1)
        started = time.time()
        self.assertEqual(self.launch()[0], 200)  # once only
        self.assertLess(time.time() - started, 1)

    def test_invisible_then_listed(self):
        self.add_key()
        self.faults(invisible_s=1)
        iid = self.launch()[1]["data"]["instance_ids"][0]
        self.assertEqual(self.call("GET", "/instances")[1]["data"], [])
        self.assertError(self.call("GET", "/instances/" + iid), 404, "global/object-does-not-exist")
        time.sleep(1.1)
        self.assertEqual([i["name"] for i in self.call("GET", "/instances")[1]["data"]], [TOKEN])

    def test_internal_error_after_create(self):
        self.add_key()
        self.faults(internal_error_after_create=1)
        answer = self.launch()
        self.assertEqual(answer[0], 500)
        self.assertEqual(answer[1], documented("error_internal.json"))
        self.assertEqual([i["name"] for i in self.call("GET", "/instances")[1]["data"]], [TOKEN])

    def test_running_after_and_terminate_slow(self):
        self.add_key()
        self.faults(running_after=0, terminate_slow_s=1)
        iid = self.launch()[1]["data"]["instance_ids"][0]
        self.assertEqual(self.call("GET", "/instances/" + iid)[1]["data"]["status"], "active")
        self.call("POST", "/instance-operations/terminate", {"instance_ids": [iid]})
        for _ in range(3):
            self.assertEqual(self.call("GET", "/instances/" + iid)[1]["data"]["status"], "terminating")
        time.sleep(1.1)
        self.assertEqual(self.call("GET", "/instances/" + iid)[1]["data"]["status"], "terminated")

    def test_outside_instance(self):
        status, made = self.call("POST", "/_fake/instances", {"name": TOKEN, "region": "us-east-1",
                                                              "status": "booting"})
        self.assertEqual(status, 200)
        listed = self.call("GET", "/instances")[1]["data"]
        self.assertEqual([(i["id"], i["status"]) for i in listed], [(made["id"], "booting")])


if __name__ == "__main__":
    unittest.main()
