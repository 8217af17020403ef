#!/usr/bin/env python3
"""Self-test of fake_huawei_ecs.py, run by hand (not in ctest):

    python3 tests/integration/fakes/test_fake_huawei_ecs.py [-v]

It starts the fake on a free loopback port and checks, with requests signed here in SDK-HMAC-SHA256: the signature
checks (a good request passes; a wrong AK, a wrong signature and an X-Sdk-Date 20 minutes off answer 401 APIGW.0301),
the project ids (Keystone, an unknown one), a whole launch (VPC, subnet, security group and rule, key pair, image,
CreateServers, its job, BUILD then ACTIVE with 127.0.0.1, ListServersDetails by tag, DeleteServers, DELETED then 404),
X-Client-Token idempotency, dry run, the prepaid refusal, and every fault. Then it has the official Node SDK
(tests/integration/sdk/node_modules/@huaweicloud/huaweicloud-sdk-ecs, endpoint http://127.0.0.1:PORT) send
ListServersDetails and a dry-run CreateServers, to prove the fake accepts the real SDK's signature; that part fails
when node or the SDK is not installed (tests/integration/sdk/setup.sh installs it).
"""

import base64
import calendar
import datetime
import hashlib
import hmac
import http.client
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
from urllib.parse import quote

HERE = os.path.dirname(os.path.abspath(__file__))
FAKE = os.path.join(HERE, "fake_huawei_ecs.py")
SDK = os.path.normpath(os.path.join(HERE, "..", "sdk"))
AK = "AKIDFAKEEXAMPLE"
SK = "fake-secret-key-for-tests"
REGION = "cn-north-4"
PROJECT = "0123456789abcdef0123456789abcdef"  # given with --project-id-cn-north-4


def enc(text):
    return quote(str(text), safe="-_.~")


def sign(sk, method, path, query, headers, data):
    """SDK-HMAC-SHA256 (api-sign-algorithm-003 / AKSKSigner): every header signed; (SignedHeaders, signature, query)."""
    names = sorted(headers, key=str.lower)
    canonical_headers = "".join("%s:%s\n" % (n.lower(), headers[n]) for n in names)
    signed = ";".join(n.lower() for n in names)
    pairs = sorted((enc(k), enc(v)) for k, v in query.items())
    canonical_query = "&".join("%s=%s" % kv for kv in pairs)
    uri = "/".join(enc(seg) for seg in path.split("/"))
    uri += "" if uri.endswith("/") else "/"
    canonical = "\n".join([method, uri, canonical_query, canonical_headers, signed, hashlib.sha256(data).hexdigest()])
    to_sign = "SDK-HMAC-SHA256\n%s\n%s" % (headers["X-Sdk-Date"], hashlib.sha256(canonical.encode()).hexdigest())
    return signed, hmac.new(sk.encode(), to_sign.encode(), hashlib.sha256).hexdigest(), canonical_query


class Client:
    """Signs like AKSKSigner (headers sorted by lower-case name, all of them signed)."""

    def __init__(self, port, ak=AK, sk=SK, skew_s=0):
        self.port, self.ak, self.sk, self.skew_s = port, ak, sk, skew_s

    def call(self, method, path, query=None, body=None, headers=None, tamper=False):
        data = b"" if body is None else json.dumps(body).encode()
        date = datetime.datetime.fromtimestamp(time.time() + self.skew_s, datetime.timezone.utc)
        all_headers = {"Content-Type": "application/json", "X-Sdk-Date": date.strftime("%Y%m%dT%H%M%SZ"),
                       "host": "127.0.0.1:%d" % self.port}
        if "/v3/projects" not in path:
            all_headers["X-Project-Id"] = PROJECT
        all_headers.update(headers or {})
        signed, signature, canonical_query = sign(self.sk, method, path, query or {}, all_headers, data)
        if tamper:
            signature = ("0" if signature[0] != "0" else "1") + signature[1:]
        all_headers["Authorization"] = "SDK-HMAC-SHA256 Access=%s, SignedHeaders=%s, Signature=%s" % (
            self.ak, signed, signature)
        target = path + ("?" + canonical_query if canonical_query else "")
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request(method, target, body=data if body is not None else None, headers=all_headers)
            response = conn.getresponse()
            text = response.read()
        finally:
            conn.close()
        return response.status, (json.loads(text) if text else None), response.getheader("X-Request-Id")


class FakeHuaweiEcsTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        port_file = os.path.join(self.dir, "port")
        self.proc = subprocess.Popen([sys.executable, FAKE, "--port-file", port_file, "--access-key-id", AK,
                                      "--secret-key", SK, "--project-id-" + REGION, PROJECT])
        for _ in range(100):
            if os.path.exists(port_file):
                break
            time.sleep(0.05)
        with open(port_file) as f:
            self.port = int(f.read())
        self.c = Client(self.port)

    def tearDown(self):
        self.proc.kill()
        self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)

    # ---- helpers

    def control(self, method, path, body=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        conn.request(method, path, body=json.dumps(body) if body is not None else None)
        out = json.loads(conn.getresponse().read())
        conn.close()
        return out

    def faults(self, **faults):
        self.assertTrue(self.control("POST", "/_fake/faults", faults)["ok"])

    def state(self):
        return self.control("GET", "/_fake/state")

    def network(self):
        """Creates the VPC, subnet, security group (+ SSH rule) and key pair a launch needs; their ids."""
        status, vpc, _ = self.c.call("POST", "/v1/%s/vpcs" % PROJECT,
                                     body={"vpc": {"name": "gpuplanner", "cidr": "192.168.0.0/16"}})
        self.assertEqual(status, 200, vpc)
        self.assertEqual(vpc["vpc"]["status"], "CREATING")
        vpc_id = vpc["vpc"]["id"]
        status, subnet, _ = self.c.call("POST", "/v1/%s/subnets" % PROJECT, body={"subnet": {
            "name": "gpuplanner-cn-north-4a", "cidr": "192.168.1.0/24", "gateway_ip": "192.168.1.1",
            "vpc_id": vpc_id, "availability_zone": "cn-north-4a"}})
        self.assertEqual(status, 200, subnet)
        status, group, _ = self.c.call("POST", "/v1/%s/security-groups" % PROJECT, body={"security_group": {
            "name": "gpuplanner-ssh-203-0-113-7-32", "vpc_id": vpc_id}})
        self.assertEqual(status, 200, group)
        self.assertEqual(len(group["security_group"]["security_group_rules"]), 2)  # the default egress rules
        rule = {"security_group_rule": {"security_group_id": group["security_group"]["id"], "direction": "ingress",
                                        "ethertype": "IPv4", "protocol": "tcp", "port_range_min": 22,
                                        "port_range_max": 22, "remote_ip_prefix": "203.0.113.7/32"}}
        self.assertEqual(self.c.call("POST", "/v1/%s/security-group-rules" % PROJECT, body=rule)[0], 200)
        self.assertEqual(self.c.call("POST", "/v1/%s/security-group-rules" % PROJECT, body=rule)[0], 409)
        key = {"keypair": {"name": "gpuplanner-0123456789ab", "public_key": "ssh-ed25519 "
                           + base64.b64encode(b"k" * 32).decode() + " test"}}
        self.assertEqual(self.c.call("GET", "/v2.1/%s/os-keypairs/gpuplanner-0123456789ab" % PROJECT)[0], 404)
        self.assertEqual(self.c.call("POST", "/v2.1/%s/os-keypairs" % PROJECT, body=key)[0], 200)
        status, dup, _ = self.c.call("POST", "/v2.1/%s/os-keypairs" % PROJECT, body=key)
        self.assertEqual(status, 409)
        self.assertIn("conflictingRequest", dup)
        return vpc_id, subnet["subnet"]["id"], group["security_group"]["id"]

    def create_body(self, net, zone="cn-north-4a", token="gpuplan-0123456789abcdef01234567", **extend):
        vpc_id, subnet_id, group_id = net
        ext = {"chargingMode": "postPaid", "regionID": REGION}
        ext.update(extend)
        server = {"name": "gpuplanner-" + token[8:16], "imageRef": "img", "flavorRef": "pi2.2xlarge.4",
                  "availability_zone": zone, "vpcid": vpc_id, "nics": [{"subnet_id": subnet_id}],
                  "security_groups": [{"id": group_id}], "key_name": "gpuplanner-0123456789ab",
                  "user_data": base64.b64encode(b"#!/bin/sh\nGPUPLAN_DEADMAN_HOURS=12\n").decode(), "count": 1,
                  "root_volume": {"volumetype": "SSD"},
                  "publicip": {"eip": {"iptype": "5_bgp", "bandwidth": {"size": 10, "sharetype": "PER",
                                                                        "chargemode": "traffic"}},
                               "delete_on_termination": True},
                  "server_tags": [{"key": "gpuplanner-token", "value": token}], "extendparam": ext}
        if ext["chargingMode"] == "postPaid":
            server["auto_terminate_time"] = "2030-01-01T00:00:00Z"
        return {"server": server, "dry_run": False}

    def subnet_in(self, zone, vpc_id):
        status, subnet, _ = self.c.call("POST", "/v1/%s/subnets" % PROJECT, body={"subnet": {
            "name": "gpuplanner-" + zone, "cidr": "192.168.%d.0/24" % (10 + ord(zone[-1]) - ord("a")),
            "gateway_ip": "192.168.%d.1" % (10 + ord(zone[-1]) - ord("a")), "vpc_id": vpc_id,
            "availability_zone": zone}})
        self.assertEqual(status, 200, subnet)
        return subnet["subnet"]["id"]

    def create(self, body, token="gpuplan-0123456789abcdef01234567"):
        return self.c.call("POST", "/v1.1/%s/cloudservers" % PROJECT, body=body, headers={"X-Client-Token": token})

    def show(self, server_id):
        return self.c.call("GET", "/v1/%s/cloudservers/%s" % (PROJECT, server_id))

    # ---- tests

    def test_the_signer_here_matches_the_documented_vector(self):
        # https://support.huaweicloud.com/devg-apisign/api-sign-algorithm-005.html (reference/cloud_apis.md)
        signed, signature, _ = sign(
            "MFyfvK41ba2giqM7Uio6PznpdUKGpownRZlmVmHc", "GET", "/v1/77b6a44cba5143ab91d13ab9a8ff44fd/vpcs",
            {"limit": "2", "marker": "13551d6b-755d-4757-b956-536f674975c0"},
            {"Content-Type": "application/json", "Host": "service.region.example.com",
             "X-Sdk-Date": "20191115T033655Z"}, b"")
        self.assertEqual(signed, "content-type;host;x-sdk-date")
        self.assertEqual(signature, "7be6668032f70418fcc22abc52071e57aff61b84a1d2381bb430d6870f4f6ebe")

    def test_signature_checks(self):
        status, body, request_id = self.c.call("GET", "/v1/%s/cloudservers/detail" % PROJECT, {"limit": 10})
        self.assertEqual(status, 200, body)
        self.assertEqual(body, {"count": 0, "servers": []})
        self.assertEqual(len(request_id), 32)
        status, body, _ = Client(self.port, ak="WRONGAK").call("GET", "/v1/%s/cloudservers/detail" % PROJECT)
        self.assertEqual((status, body["error_code"]), (401, "APIGW.0301"))
        self.assertIn("ak not exist", body["error_msg"])
        self.assertEqual(len(body["request_id"]), 32)
        status, body, _ = self.c.call("GET", "/v1/%s/cloudservers/detail" % PROJECT, tamper=True)
        self.assertEqual((status, body["error_code"]), (401, "APIGW.0301"))
        self.assertIn("verify aksk signature fail", body["error_msg"])
        status, body, _ = Client(self.port, sk="another-secret").call("GET", "/v1/%s/vpcs" % PROJECT)
        self.assertEqual((status, body["error_code"]), (401, "APIGW.0301"))
        status, body, _ = Client(self.port, skew_s=-20 * 60).call("GET", "/v1/%s/vpcs" % PROJECT)
        self.assertEqual((status, body["error_code"]), (401, "APIGW.0301"))
        self.assertIn("15 minutes", body["error_msg"])
        self.assertEqual(Client(self.port, skew_s=10 * 60).call("GET", "/v1/%s/vpcs" % PROJECT)[0], 200)
        # A query the signer sorts and encodes (a value with a space and a comma).
        status, body, _ = self.c.call("GET", "/v1/%s/cloudservers/detail" % PROJECT,
                                      {"offset": 1, "limit": 25, "name": "a b,c"})
        self.assertEqual(status, 200, body)
        # Unknown path; unknown project id.
        self.assertEqual(self.c.call("GET", "/v9/nothing")[1]["error_code"], "APIGW.0101")
        self.assertEqual(self.c.call("GET", "/v1/%s/vpcs" % ("f" * 32))[0], 404)

    def test_keystone_projects(self):
        status, body, _ = self.c.call("GET", "/v3/projects", {"name": REGION})
        self.assertEqual(status, 200, body)
        self.assertEqual([(p["name"], p["id"]) for p in body["projects"]], [(REGION, PROJECT)])
        status, body, _ = self.c.call("GET", "/v3/projects", {"name": "eu-west-9"})
        other = body["projects"][0]["id"]
        self.assertEqual(len(other), 32)
        # The region of a path is the one of its project id.
        self.assertEqual(self.c.call("GET", "/v1/%s/cloudservers/detail" % other)[1]["count"], 0)
        self.assertEqual(self.state()["calls"][-1]["region"], "eu-west-9")
        status, zones, _ = self.c.call("GET", "/v2.1/%s/os-availability-zone" % PROJECT)
        self.assertEqual([z["zoneName"] for z in zones["availabilityZoneInfo"]],
                         ["cn-north-4a", "cn-north-4b", "cn-north-4c"])

    def test_a_launch_runs_and_ends(self):
        status, images, _ = self.c.call("GET", "/v2/cloudimages", {"__imagetype": "gold", "__os_type": "Linux",
                                                                    "flavor_id": "pi2.2xlarge.4", "status": "active"})
        self.assertEqual(status, 200, images)
        self.assertIn("NVIDIA", images["images"][0]["name"])
        net = self.network()
        vpcs = self.c.call("GET", "/v1/%s/vpcs" % PROJECT)[1]["vpcs"]
        self.assertEqual([(v["name"], v["status"]) for v in vpcs], [("gpuplanner", "CREATING")])
        self.assertEqual(self.c.call("GET", "/v1/%s/vpcs/%s" % (PROJECT, net[0]))[1]["vpc"]["status"], "OK")
        self.assertEqual(self.c.call("GET", "/v1/%s/vpcs/%s" % (PROJECT, "nope"))[0], 404)
        subnets = self.c.call("GET", "/v1/%s/subnets" % PROJECT, {"vpc_id": net[0]})[1]["subnets"]
        self.assertEqual(subnets[0]["status"], "UNKNOWN")
        self.assertEqual(self.c.call("GET", "/v1/%s/subnets" % PROJECT, {"vpc_id": net[0]})[1]["subnets"][0]
                         ["status"], "ACTIVE")
        groups = self.c.call("GET", "/v1/%s/security-groups" % PROJECT, {"vpc_id": net[0]})[1]["security_groups"]
        self.assertEqual([r["port_range_min"] for r in groups[0]["security_group_rules"]
                          if r["direction"] == "ingress"], [22])

        token = "gpuplan-0123456789abcdef01234567"
        body = self.create_body(net, token=token)
        status, created, _ = self.create(body, token)
        self.assertEqual(status, 200, created)
        server_id = created["serverIds"][0]
        # The job: RUNNING first, then SUCCESS with the server id.
        job = self.c.call("GET", "/v1/%s/jobs/%s" % (PROJECT, created["job_id"]))[1]
        self.assertEqual(job["status"], "RUNNING")
        job = self.c.call("GET", "/v1/%s/jobs/%s" % (PROJECT, created["job_id"]))[1]
        self.assertEqual((job["status"], job["entities"]["sub_jobs"][0]["entities"]["server_id"]),
                         ("SUCCESS", server_id))
        # Idempotency: the same token and body -> the same answer; another body -> Ecs.0005; nothing new.
        self.assertEqual(self.create(body, token)[1], created)
        other = json.loads(json.dumps(body))
        other["server"]["flavorRef"] = "p2s.2xlarge.8"
        status, refused, _ = self.create(other, token)
        self.assertEqual((status, refused["error"]["code"]), (400, "Ecs.0005"))
        self.assertEqual(len(self.state()["instances"]), 1)
        # BUILD, BUILD, then ACTIVE with the floating 127.0.0.1.
        first = self.show(server_id)[1]["server"]
        self.assertEqual(first["status"], "BUILD")
        self.assertEqual(self.show(server_id)[1]["server"]["status"], "BUILD")
        running = self.show(server_id)[1]["server"]
        self.assertEqual(running["status"], "ACTIVE")
        floating = [a["addr"] for a in running["addresses"][net[0]] if a["OS-EXT-IPS:type"] == "floating"]
        self.assertEqual(floating, ["127.0.0.1"])
        self.assertEqual(running["metadata"]["charging_mode"], "0")
        self.assertIn("gpuplanner-token=" + token, running["tags"])
        # The listing by tag: the whole "key=value" matches, a key alone does not (the fake is strict).
        listed = self.c.call("GET", "/v1/%s/cloudservers/detail" % PROJECT,
                             {"tags": "gpuplanner-token=" + token, "limit": 100, "offset": 1})[1]
        self.assertEqual([s["id"] for s in listed["servers"]], [server_id])
        self.assertEqual(self.c.call("GET", "/v1/%s/cloudservers/detail" % PROJECT,
                                     {"tags": "gpuplanner-token"})[1]["count"], 0)
        self.assertEqual(self.c.call("GET", "/v1/%s/cloudservers/detail" % PROJECT, {"offset": 2})[1]["servers"],
                         [])
        instance = self.state()["instances"][0]
        self.assertEqual((instance["state"], instance["client_token"], instance["pricing"], instance["zone"]),
                         ("ACTIVE", token, "on_demand", "cn-north-4a"))
        self.assertEqual(instance["tags"], {"gpuplanner-token": token})
        self.assertIn("GPUPLAN_DEADMAN_HOURS", instance["user_data"])
        self.assertEqual(instance["terminate_at"], calendar.timegm((2030, 1, 1, 0, 0, 0)))
        self.assertEqual((instance["key_name"], instance["charging_mode"]), ("gpuplanner-0123456789ab", "0"))
        # Delete: DELETED once, then 404 Ecs.0114; a second delete answers 404 too.
        status, deleted, _ = self.c.call("POST", "/v1/%s/cloudservers/delete" % PROJECT,
                                         body={"servers": [{"id": server_id}], "delete_publicip": True,
                                               "delete_volume": True})
        self.assertEqual(status, 200, deleted)
        self.assertIn("job_id", deleted)
        self.assertEqual(self.state()["instances"][0]["state"], "Terminating")
        self.assertEqual(self.show(server_id)[1]["server"]["status"], "DELETED")
        status, gone, _ = self.show(server_id)
        self.assertEqual((status, gone["error"]["code"]), (404, "Ecs.0114"))
        self.assertEqual(self.state()["instances"][0]["state"], "Terminated")
        self.assertEqual(self.c.call("POST", "/v1/%s/cloudservers/delete" % PROJECT,
                                     body={"servers": [{"id": server_id}]})[0], 404)
        actions = [c["action"] for c in self.state()["calls"]]
        for action in ("CreateServers", "ShowJob", "ShowServer", "ListServersDetails", "DeleteServers",
                       "NovaCreateKeypair", "NovaShowKeypair", "ListImages", "ListVpcs", "CreateVpc",
                       "ListSubnets", "CreateSubnet", "ListSecurityGroups", "CreateSecurityGroup",
                       "CreateSecurityGroupRule"):
            self.assertIn(action, actions)
        self.assertEqual(actions.count("CreateServers"), 3)

    def test_dry_run_prepaid_spot(self):
        net = self.network()
        body = self.create_body(net)
        body["dry_run"] = True
        status, answer, _ = self.create(body)
        self.assertEqual((status, answer), (202, {}))
        self.assertEqual(self.state()["instances"], [])
        # Prepaid, paid at once: order_id; the delete is refused with the pay-per-use code.
        token = "gpuplan-prepaid0000000000000000"
        body = self.create_body(net, token=token, chargingMode="prePaid", periodType="month", periodNum=2,
                                isAutoRenew="true", isAutoPay="true")
        status, refused, _ = self.create(body, token)
        self.assertEqual((status, refused["error"]["code"]), (400, "Ecs.0005"))  # no op_svc_userid
        status, credential, _ = self.c.call("GET", "/v3.0/OS-CREDENTIAL/credentials/" + AK)
        self.assertEqual(status, 200, credential)
        body["server"]["metadata"] = {"op_svc_userid": credential["credential"]["user_id"]}
        status, created, _ = self.create(body, token)
        self.assertEqual(status, 200, created)
        self.assertTrue(created["order_id"])
        status, refused, _ = self.c.call("POST", "/v1/%s/cloudservers/delete" % PROJECT,
                                         body={"servers": [{"id": created["serverIds"][0]}]})
        self.assertEqual((status, refused["error"]["code"]), (400, "Ecs.0000"))
        self.assertIn("pay-per-use", refused["error"]["message"])
        self.assertEqual(self.show(created["serverIds"][0])[1]["server"]["metadata"]["charging_mode"], "1")
        # Spot with a limit.
        token = "gpuplan-spot000000000000000000000"
        status, spot, _ = self.create(self.create_body(net, token=token, marketType="spot", spotPrice="2.5"), token)
        self.assertEqual(status, 200, spot)
        by_id = {i["id"]: i for i in self.state()["instances"]}
        self.assertEqual((by_id[created["serverIds"][0]]["pricing"], by_id[created["serverIds"][0]]
                          ["subscription_months"], by_id[created["serverIds"][0]]["auto_renew"]),
                         ("subscription", 2, True))
        self.assertEqual((by_id[spot["serverIds"][0]]["pricing"], by_id[spot["serverIds"][0]]["spot_price"]),
                         ("spot", "2.5"))
        # auto_terminate_time with prePaid is refused.
        bad = self.create_body(net, token="gpuplan-x", chargingMode="prePaid", periodType="month", periodNum=1,
                               isAutoPay="true")
        bad["server"]["auto_terminate_time"] = "2030-01-01T00:00:00Z"
        self.assertEqual(self.create(bad, "gpuplan-x")[0], 400)

    def test_capacity(self):
        vpc_id, _, group_id = net = self.network()
        subnet_b = self.subnet_in("cn-north-4b", vpc_id)
        self.faults(no_capacity_zones=["cn-north-4a"])
        flavors = self.c.call("GET", "/v1/%s/cloudservers/flavors" % PROJECT,
                              {"availability_zone": "cn-north-4a"})[1]["flavors"]
        az = next(f for f in flavors if f["id"] == "pi2.2xlarge.4")["os_extra_specs"]["cond:operation:az"]
        self.assertEqual(az, "cn-north-4a(sellout),cn-north-4b(normal),cn-north-4c(normal)")
        self.faults(stale_zone_listing=True)
        flavors = self.c.call("GET", "/v1/%s/cloudservers/flavors" % PROJECT)[1]["flavors"]
        self.assertNotIn("sellout", flavors[0]["os_extra_specs"]["cond:operation:az"])
        # Sold out: the job fails, nothing is created, the token stays free.
        token = "gpuplan-soldout0000000000000000"
        status, created, _ = self.create(self.create_body(net, token=token), token)
        self.assertEqual((status, created["serverIds"]), (200, []))
        self.c.call("GET", "/v1/%s/jobs/%s" % (PROJECT, created["job_id"]))
        job = self.c.call("GET", "/v1/%s/jobs/%s" % (PROJECT, created["job_id"]))[1]
        self.assertEqual((job["status"], job["error_code"]), ("FAIL", "Ecs.0319"))
        self.assertIn("sold out", job["entities"]["sub_jobs"][0]["fail_reason"])
        self.assertEqual(self.state()["instances"], [])
        # The next zone takes it.
        body = self.create_body((vpc_id, subnet_b, group_id), zone="cn-north-4b", token=token)
        status, created, _ = self.create(body, token)
        self.assertEqual((status, len(created["serverIds"])), (200, 1))
        # sold_out_sync: the create itself answers 400 Ecs.0319.
        self.faults(sold_out_sync=True)
        status, refused, _ = self.create(self.create_body(net, token="gpuplan-sync"), "gpuplan-sync")
        self.assertEqual((status, refused["error"]["code"]), (400, "Ecs.0319"))

    def test_account_faults(self):
        net = self.network()
        expected = [({"quota_exceeded": True}, 400, "Ecs.0001", "quota"),
                    ({"quota_exceeded": False, "not_enough_balance": True}, 403, "Ecs.0003", "balance"),
                    ({"not_enough_balance": False, "arrears": True}, 403, "Ecs.0003", "arrears"),
                    ({"arrears": False, "real_name_missing": True}, 403, "Ecs.0003", "real-name"),
                    ({"real_name_missing": False, "unauthorized": ["CreateServers"]}, 403, "Ecs.0003",
                     "ecs:cloudServers:create")]
        for faults, status, code, said in expected:
            self.faults(**faults)
            got, body, _ = self.create(self.create_body(net))
            self.assertEqual((got, body["error"]["code"]), (status, code), faults)
            self.assertIn(said, body["error"]["message"])
        self.faults(unauthorized=["CreateVpc"])
        status, body, _ = self.c.call("POST", "/v1/%s/vpcs" % PROJECT, body={"vpc": {"name": "x"}})
        self.assertEqual((status, body["error_code"]), (403, "APIGW.0302"))
        self.assertIn("vpc:vpcs:create", body["error_msg"])
        self.assertEqual(self.state()["instances"], [])
        self.faults(unauthorized=[], throttle=2)
        for _ in range(2):
            status, body, _ = self.c.call("GET", "/v1/%s/vpcs" % PROJECT)
            self.assertEqual((status, body["error_code"]), (429, "APIGW.0308"))
            self.assertTrue(body["error_msg"].startswith("The throttling threshold has been reached"))
        self.assertEqual(self.c.call("GET", "/v1/%s/vpcs" % PROJECT)[0], 200)

    def test_reply_faults(self):
        net = self.network()
        # drop_after_accept: created, no answer; the same token again answers the same server.
        self.faults(drop_after_accept=1)
        with self.assertRaises((http.client.RemoteDisconnected, ConnectionError)):
            self.create(self.create_body(net))
        self.assertEqual(len(self.state()["instances"]), 1)
        status, again, _ = self.create(self.create_body(net))
        self.assertEqual(again["serverIds"], [self.state()["instances"][0]["id"]])
        # internal_error_after_create: created, 500 Ecs.0615; invisible for a while.
        token = "gpuplan-internal0000000000000000"
        self.faults(internal_error_after_create=1, invisible_s=1.5)
        status, body, _ = self.create(self.create_body(net, token=token), token)
        self.assertEqual((status, body["error"]["code"]), (500, "Ecs.0615"))
        server_id = next(i["id"] for i in self.state()["instances"] if i["client_token"] == token)
        self.assertEqual(self.show(server_id)[0], 404)
        listed = self.c.call("GET", "/v1/%s/cloudservers/detail" % PROJECT)[1]
        self.assertNotIn(server_id, [s["id"] for s in listed["servers"]])
        self.assertEqual(self.c.call("POST", "/v1/%s/cloudservers/delete" % PROJECT,
                                     body={"servers": [{"id": server_id}]})[0], 404)
        time.sleep(1.6)
        self.assertEqual(self.show(server_id)[0], 200)
        self.faults(invisible_s=0)
        # hold_run_reply_s: the answer comes S s later, once.
        started = time.time()
        token = "gpuplan-hold000000000000000000000"
        self.faults(hold_run_reply_s=1)
        self.assertEqual(self.create(self.create_body(net, token=token), token)[0], 200)
        self.assertGreaterEqual(time.time() - started, 1)
        # running_after and terminate_slow_s.
        self.faults(running_after=1, terminate_slow_s=1.5)
        token = "gpuplan-slow000000000000000000000"
        server_id = self.create(self.create_body(net, token=token), token)[1]["serverIds"][0]
        self.assertEqual(self.show(server_id)[1]["server"]["status"], "BUILD")
        self.assertEqual(self.show(server_id)[1]["server"]["status"], "ACTIVE")
        self.c.call("POST", "/v1/%s/cloudservers/delete" % PROJECT, body={"servers": [{"id": server_id}]})
        deleting = self.show(server_id)[1]["server"]
        self.assertEqual((deleting["status"], deleting["OS-EXT-STS:task_state"]), ("ACTIVE", "deleting"))
        time.sleep(1.6)
        self.assertEqual(self.show(server_id)[1]["server"]["status"], "DELETED")
        self.assertEqual(self.show(server_id)[0], 404)

    def test_control_endpoints(self):
        other = self.control("POST", "/_fake/vpcs", {"region": REGION})
        vpcs = self.c.call("GET", "/v1/%s/vpcs" % PROJECT)[1]["vpcs"]
        self.assertEqual([(v["id"], v["name"]) for v in vpcs], [(other["id"], "vpc-default")])
        group = self.control("POST", "/_fake/security_groups", {"region": REGION, "vpc_id": other["id"],
                                                                "name": "bare"})
        groups = self.c.call("GET", "/v1/%s/security-groups" % PROJECT)[1]["security_groups"]
        self.assertEqual([(g["id"], g["security_group_rules"]) for g in groups], [(group["id"], [])])
        state = self.state()
        for key in ("instances", "calls", "key_pairs", "security_groups", "vpcs", "subnets"):
            self.assertIn(key, state)

    def test_the_official_sdk_signature_is_accepted(self):
        node = shutil.which("node")
        # Fails (not skipped) without node or the SDK: tests/integration/sdk/setup.sh installs it, as test.sh does.
        self.assertTrue(node and os.path.isdir(os.path.join(SDK, "node_modules", "@huaweicloud", "huaweicloud-sdk-ecs")),
                        "node or tests/integration/sdk/node_modules/@huaweicloud is not installed: run "
                        "tests/integration/sdk/setup.sh")
        net = self.network()
        body = self.create_body(net)
        body["dry_run"] = True
        script = r"""
const {BasicCredentials} = require('@huaweicloud/huaweicloud-sdk-core');
const ecs = require('@huaweicloud/huaweicloud-sdk-ecs');
const [port, ak, sk, project, body] = process.argv.slice(1);
const client = ecs.EcsClient.newBuilder()
    .withCredential(new BasicCredentials().withAk(ak).withSk(sk).withProjectId(project))
    .withEndpoint('http://127.0.0.1:' + port).build();
(async () => {
    const out = {};
    const listed = await client.listServersDetails(new ecs.ListServersDetailsRequest().withLimit(10).withOffset(1));
    out.list = {status: listed.httpStatusCode, count: listed.count};
    try {
        const created = await client.createServers({'X-Client-Token': 'gpuplan-sdk000000000000000000000',
                                                    body: JSON.parse(body)});
        out.create = {status: created.httpStatusCode};
    } catch (e) {
        out.create = {status: e.httpStatusCode || e.status, error: String(e.errorMsg || e.message || e)};
    }
    try {
        await client.listServersDetails(new ecs.ListServersDetailsRequest().withTags('a=b c'));
        out.query = {status: 200};
    } catch (e) {
        out.query = {status: e.httpStatusCode, error: String(e.errorMsg || e.message || e)};
    }
    console.log(JSON.stringify(out));
})().catch((e) => { console.log(JSON.stringify({failed: String(e.errorMsg || e.message || e),
                                                status: e.httpStatusCode})); });
"""
        env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
        env["NODE_PATH"] = os.path.join(SDK, "node_modules")
        done = subprocess.run([node, "-e", script, str(self.port), AK, SK, PROJECT, json.dumps(body)],
                              cwd=SDK, env=env, capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 0, done.stderr)
        out = json.loads(done.stdout.strip().splitlines()[-1])
        self.assertEqual(out.get("list"), {"status": 200, "count": 0}, out)
        self.assertEqual(out["create"]["status"], 202, out)
        self.assertEqual(out["query"]["status"], 200, out)
        calls = [c for c in self.state()["calls"] if c["client_token"] == "gpuplan-sdk000000000000000000000"]
        self.assertEqual([c["action"] for c in calls], ["CreateServers"])
        # And with a wrong secret the same SDK call is refused.
        bad = subprocess.run([node, "-e", script, str(self.port), AK, "wrong", PROJECT, json.dumps(body)],
                             cwd=SDK, env=env, capture_output=True, text=True, timeout=60)
        self.assertEqual(json.loads(bad.stdout.strip().splitlines()[-1]).get("status"), 401, bad.stdout)


if __name__ == "__main__":
    unittest.main()
