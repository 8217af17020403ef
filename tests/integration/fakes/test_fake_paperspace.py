#!/usr/bin/env python3
"""Self-test of fake_paperspace.py, run by hand (not in ctest yet):

    python3 tests/integration/fakes/test_fake_paperspace.py [-v]

It starts the fake on a free loopback port and checks: the bearer key (a wrong one answers 401), a whole launch
(templates, availability, startup script, create with the schema checked, provisioning then ready with 127.0.0.1,
listing by name and by region with paging, delete, dtDeleted then 404), the startup script's delete, /_fake/state, and
every fault.
"""

import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
FAKE = os.path.join(HERE, "fake_paperspace.py")
KEY = "fake-paperspace-api-key"
TOKEN = "gpuplan-0123456789abcdef01234567"


class FakePaperspaceTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        port_file = os.path.join(self.dir, "port")
        self.proc = subprocess.Popen([sys.executable, FAKE, "--port-file", port_file, "--secret-key", KEY,
                                      "--running-after", "1"])
        for _ in range(100):
            if os.path.exists(port_file):
                break
            time.sleep(0.05)
        with open(port_file) as f:
            self.port = int(f.read())

    def tearDown(self):
        self.proc.kill()
        self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)

    def call(self, method, path, body=None, key=KEY):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Authorization": "Bearer " + key, "Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        try:
            conn.request(method, path, body=data, headers=headers)
            response = conn.getresponse()
            text = response.read()
        finally:
            conn.close()
        return response.status, (json.loads(text) if text else None)

    def faults(self, **kw):
        self.assertEqual(self.call("POST", "/_fake/faults", kw)[0], 200)

    def state(self):
        return self.call("GET", "/_fake/state")[1]

    def script(self, name="gpuplanner-" + TOKEN):
        status, s = self.call("POST", "/v1/startup-scripts",
                              {"name": name, "script": "#!/bin/bash\necho key\n", "isRunOnce": True})
        self.assertEqual(status, 200, s)
        return s["id"]

    def create(self, name=TOKEN, region="ny2", script_id=None, **extra):
        body = {"name": name, "machineType": "A100-80G", "templateId": "tmlbox22", "diskSize": 100, "region": region,
                "publicIpType": "dynamic", "startOnCreate": True, "emailPassword": False,
                "autoShutdownEnabled": False}
        if script_id:
            body["startupScriptId"] = script_id
        body.update(extra)
        return self.call("POST", "/v1/machines", body)

    def test_bearer_key(self):
        self.assertEqual(self.call("GET", "/v1/machines", key="wrong")[0], 401)
        self.assertEqual(self.call("GET", "/v1/machines")[0], 200)

    def test_whole_launch(self):
        status, templates = self.call("GET", "/v1/os-templates?limit=120")
        self.assertEqual(status, 200)
        self.assertIn("ML-in-a-Box Ubuntu 22.04", [t["name"] for t in templates["items"]])
        self.assertEqual(self.call("GET", "/v1/machine-availability?machineType=A100-80G&region=ny2")[1],
                         {"available": True})
        self.assertEqual(self.call("GET", "/v1/machines?limit=120&name=" + TOKEN)[1]["items"], [])
        script_id = self.script()
        status, created = self.create(script_id=script_id)
        self.assertEqual(status, 200, created)
        self.assertEqual(created["event"]["state"], "new")
        machine_id = created["data"]["id"]
        first = self.call("GET", "/v1/machines/" + machine_id)[1]
        self.assertEqual(first["state"], "provisioning")
        second = self.call("GET", "/v1/machines/" + machine_id)[1]
        self.assertEqual(second["state"], "ready")
        self.assertEqual(second["publicIp"], "127.0.0.1")
        listed = self.call("GET", "/v1/machines?limit=120&name=" + TOKEN)[1]
        self.assertEqual([m["id"] for m in listed["items"]], [machine_id])
        st = self.state()
        self.assertEqual(st["instances"][0]["client_token"], TOKEN)
        self.assertEqual(st["instances"][0]["startup_script_id"], script_id)
        self.assertIn("echo key", st["instances"][0]["user_data"])
        self.assertEqual(st["instances"][0]["image"], "tmlbox22")
        self.assertIn("create_machine", [c["action"] for c in st["calls"]])
        self.assertEqual(self.call("DELETE", "/v1/machines/" + machine_id)[0], 200)
        self.assertEqual(self.state()["instances"][0]["state"], "terminating")
        last = self.call("GET", "/v1/machines/" + machine_id)[1]
        self.assertIsNotNone(last["dtDeleted"])
        self.assertEqual(self.call("GET", "/v1/machines/" + machine_id)[0], 404)
        self.assertEqual(self.state()["instances"][0]["state"], "terminated")
        self.assertEqual(self.call("DELETE", "/v1/startup-scripts/" + script_id)[0], 200)
        self.assertEqual(self.call("GET", "/v1/startup-scripts?name=gpuplanner-" + TOKEN)[1]["items"], [])

    def test_schema_checked(self):
        self.assertEqual(self.create(diskSize=77)[0], 400)
        self.assertEqual(self.create(sshKey="x")[0], 400)
        self.assertEqual(self.create(script_id="nosuch")[0], 400)
        self.assertEqual(self.state()["instances"], [])

    def test_paging(self):
        for i in range(3):
            self.assertEqual(self.create(name="gpuplan-%024d" % i)[0], 200)
        first = self.call("GET", "/v1/machines?limit=2&region=ny2")[1]
        self.assertTrue(first["hasMore"])
        rest = self.call("GET", "/v1/machines?limit=2&region=ny2&after=" + first["nextPage"])[1]
        self.assertFalse(rest["hasMore"])
        self.assertEqual(len(first["items"]) + len(rest["items"]), 3)
        self.assertEqual(self.call("GET", "/v1/machines?region=ams1")[1]["items"], [])

    def test_throttle(self):
        self.faults(throttle=1)
        status, body = self.call("GET", "/v1/machines")
        self.assertEqual(status, 429)
        self.assertEqual(body["code"], "too_many_requests")
        self.assertEqual(self.call("GET", "/v1/machines")[0], 200)

    def test_no_capacity(self):
        self.faults(no_capacity_zones=["ny2"])
        self.assertFalse(self.call("GET", "/v1/machine-availability?machineType=A100-80G&region=ny2")[1]["available"])
        status, body = self.create()
        self.assertEqual(status, 400)
        self.assertIn("capacity", body["message"].lower())
        self.faults(stale_zone_listing=True)
        self.assertTrue(self.call("GET", "/v1/machine-availability?machineType=A100-80G&region=ny2")[1]["available"])
        self.assertEqual(self.create()[0], 400)
        self.assertEqual(self.create(region="ca1")[0], 200)

    def test_drop_after_accept(self):
        self.faults(drop_after_accept=1)
        with self.assertRaises((http.client.HTTPException, ConnectionError, socket.error)):
            self.create()
        self.assertEqual(len(self.state()["instances"]), 1)

    def test_hold_run_reply(self):
        self.faults(hold_run_reply_s=0.5)
        began = time.time()
        self.assertEqual(self.create()[0], 200)
        self.assertGreaterEqual(time.time() - began, 0.5)

    def test_quota(self):
        self.faults(quota_exceeded=True)
        status, body = self.create()
        self.assertEqual(status, 400)
        self.assertIn("limit", body["message"])

    def test_unauthorized(self):
        self.faults(unauthorized=["create_machine"])
        self.assertEqual(self.create()[0], 403)
        self.assertEqual(self.call("GET", "/v1/machines")[0], 200)

    def test_invisible(self):
        self.faults(invisible_s=0.5)
        machine_id = self.create()[1]["data"]["id"]
        self.assertEqual(self.call("GET", "/v1/machines/" + machine_id)[0], 404)
        self.assertEqual(self.call("GET", "/v1/machines?name=" + TOKEN)[1]["items"], [])
        time.sleep(0.6)
        self.assertEqual(self.call("GET", "/v1/machines/" + machine_id)[0], 200)

    def test_internal_error_after_create(self):
        self.faults(internal_error_after_create=1)
        self.assertEqual(self.create()[0], 500)
        self.assertEqual(len(self.state()["instances"]), 1)

    def test_terminate_slow(self):
        self.faults(terminate_slow_s=0.5)
        machine_id = self.create()[1]["data"]["id"]
        self.call("DELETE", "/v1/machines/" + machine_id)
        self.assertEqual(self.call("GET", "/v1/machines/" + machine_id)[1]["state"], "stopping")
        time.sleep(0.6)
        self.assertIsNotNone(self.call("GET", "/v1/machines/" + machine_id)[1]["dtDeleted"])

    def test_rate_limit_launch(self):
        self.faults(rate_limit_launch=True)
        self.assertEqual(self.create()[0], 200)
        self.assertEqual(self.create(name="gpuplan-%024d" % 9)[0], 429)


if __name__ == "__main__":
    unittest.main()
