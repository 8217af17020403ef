#!/usr/bin/env python3
"""Self-test of fake_ecs.py (run by hand: python3 tests/integration/fakes/test_fake_ecs.py; not in ctest).

It starts the fake and sends it requests signed here with ACS3-HMAC-SHA256, written from Alibaba's "V3 request
structure and signature" page (https://help.aliyun.com/zh/sdk/product-overview/v3-request-structure-and-signature),
independently of the fake's verifier: the signer is first checked against that page's worked example (the vector in
/work/shared/reference/cloud_apis.md section 3). It checks the signature rejections, the VPC/vSwitch/key/group set-up,
a launch to Running and its release, idempotency, parameter checks and the faults. When
tests/integration/sdk/node_modules holds @alicloud/ecs20140526, the official SDK sends a DescribeInstances and a
RunInstances DryRun to the fake too, to show the fake accepts the real SDK's signature.
"""

import base64
import gzip
import hashlib
import hmac
import http.client
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest
import uuid
from urllib.parse import quote

HERE = os.path.dirname(os.path.abspath(__file__))
SDK_DIR = os.path.join(HERE, "..", "sdk")
AK, SECRET = "AKIDFAKEEXAMPLE", "fake-secret-key-for-tests"
REGION = "cn-beijing"
ZONES = ["cn-beijing-g", "cn-beijing-h", "cn-beijing-i"]
ECS, VPC = "2014-05-26", "2016-04-28"
PUBKEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE test@example"


def enc(s):
    return quote(str(s), safe="-_.~")


def acs3(method, host, path, params, headers, body, secret, ak):
    """The signed headers (Authorization added) for a request, as the V3 signature page describes it."""
    headers = dict(headers)
    headers["host"] = host
    headers["x-acs-content-sha256"] = hashlib.sha256(body).hexdigest()
    query = "&".join("%s=%s" % kv for kv in sorted((enc(k), enc(v)) for k, v in params.items()))
    names = sorted(h.lower() for h in headers if h.lower().startswith("x-acs-") or h.lower() in ("host",
                                                                                                 "content-type"))
    lower = {k.lower(): str(v).strip() for k, v in headers.items()}
    canonical = "\n".join([method, path, query, "".join("%s:%s\n" % (n, lower[n]) for n in names), ";".join(names),
                           headers["x-acs-content-sha256"]])
    hashed = hashlib.sha256(canonical.encode()).hexdigest()
    signature = hmac.new(secret.encode(), ("ACS3-HMAC-SHA256\n" + hashed).encode(), hashlib.sha256).hexdigest()
    headers["Authorization"] = "ACS3-HMAC-SHA256 Credential=%s,SignedHeaders=%s,Signature=%s" % (ak, ";".join(names),
                                                                                                signature)
    return headers, query, hashed


class FakeEcs:
    def __init__(self):
        self.dir = tempfile.TemporaryDirectory()
        port_file = os.path.join(self.dir.name, "port")
        self.proc = subprocess.Popen([sys.executable, os.path.join(HERE, "fake_ecs.py"), "--port-file", port_file,
                                      "--access-key-id", AK, "--secret-key", SECRET])
        for _ in range(100):
            if os.path.exists(port_file):
                with open(port_file) as f:
                    self.port = int(f.read())
                return
            time.sleep(0.05)
        raise RuntimeError("the fake did not start")

    def close(self):
        self.proc.kill()
        self.proc.wait()
        self.dir.cleanup()

    def conn(self):
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)

    def call(self, action, params=None, version=ECS, ak=AK, secret=SECRET, date=None, nonce=None, form=False,
             region=REGION):
        params = dict(params or {})
        if region:
            params.setdefault("RegionId", region)
        headers = {"x-acs-action": action, "x-acs-version": version,
                   "x-acs-date": date or time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                   "x-acs-signature-nonce": nonce or uuid.uuid4().hex}
        body, query_params = b"", params
        if form:
            body = "&".join("%s=%s" % (enc(k), enc(v)) for k, v in params.items()).encode()
            headers["content-type"] = "application/x-www-form-urlencoded"
            query_params = {}
        host = "127.0.0.1:%d" % self.port
        signed, query, _ = acs3("POST", host, "/", query_params, headers, body, secret, ak)
        c = self.conn()
        try:
            c.request("POST", "/?" + query if query else "/", body=body, headers=signed)
            r = c.getresponse()
            data = r.read()
        finally:
            c.close()
        return r.status, json.loads(data), r.getheader("Content-Type")

    def control(self, path, obj=None):
        c = self.conn()
        if obj is None:
            c.request("GET", path)
        else:
            c.request("POST", path, body=json.dumps(obj), headers={"Content-Type": "application/json"})
        data = c.getresponse().read()
        c.close()
        return json.loads(data)

    def state(self):
        return self.control("/_fake/state")

    def faults(self, **faults):
        return self.control("/_fake/faults", faults)


def user_data(text):
    return base64.b64encode(gzip.compress(text.encode())).decode()


class TestFakeEcs(unittest.TestCase):
    def setUp(self):
        self.fake = FakeEcs()

    def tearDown(self):
        self.fake.close()

    def ok(self, action, params=None, version=ECS, **kw):
        status, body, _ = self.fake.call(action, params, version, **kw)
        self.assertEqual(status, 200, body)
        self.assertTrue(body["RequestId"].isupper() and len(body["RequestId"]) == 36)
        return body

    def err(self, status, code, action, params=None, version=ECS, **kw):
        got, body, ctype = self.fake.call(action, params, version, **kw)
        self.assertEqual((got, body.get("Code")), (status, code), body)
        self.assertEqual(ctype, "application/json;charset=utf-8")
        self.assertEqual(set(body), {"RequestId", "HostId", "Code", "Message", "Recommend"})
        self.assertIn("q=" + code, body["Recommend"])
        return body

    def network(self):
        """A VPC, a vSwitch in the first zone, an SSH group and a key pair, as the provider would set them up."""
        vpc = self.ok("CreateVpc", {"CidrBlock": "172.16.0.0/12", "VpcName": "gpuplanner", "ClientToken": "v1"},
                      VPC)["VpcId"]
        vsw = self.ok("CreateVSwitch", {"VpcId": vpc, "ZoneId": ZONES[0], "CidrBlock": "172.16.0.0/24",
                                        "ClientToken": "s1"}, VPC)["VSwitchId"]
        sg = self.ok("CreateSecurityGroup", {"VpcId": vpc, "SecurityGroupName": "gpuplanner-ssh"})["SecurityGroupId"]
        self.ok("AuthorizeSecurityGroup", {"SecurityGroupId": sg, "Permissions.1.IpProtocol": "TCP",
                                           "Permissions.1.PortRange": "22/22",
                                           "Permissions.1.SourceCidrIp": "203.0.113.7/32",
                                           "Permissions.1.Policy": "accept"})
        self.ok("ImportKeyPair", {"KeyPairName": "gpuplanner", "PublicKeyBody": PUBKEY})
        return vpc, vsw, sg

    def launch_params(self, vsw, sg, token="tok-1", **extra):
        params = {"InstanceType": "ecs.gn7i-c8g1.2xlarge",
                  "ImageId": "ubuntu_22_04_x64_20G_alibase_gpu_driver_fake.vhd",
                  "VSwitchId": vsw, "SecurityGroupId": sg, "KeyPairName": "gpuplanner", "ClientToken": token,
                  "InternetMaxBandwidthOut": "10", "UserData": user_data("#!/bin/sh\necho dead-man\n"),
                  "Tag.1.Key": "gpuplanner-token", "Tag.1.Value": token,
                  "AutoReleaseTime": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 7200))}
        params.update(extra)
        return params

    # ---- signing

    def test_signer_matches_the_documented_example(self):
        headers = {"x-acs-action": "RunInstances", "x-acs-version": "2014-05-26", "x-acs-date": "2023-10-26T10:22:32Z",
                   "x-acs-signature-nonce": "3156853299f313e23d1673dc12e1703d"}
        signed, _, hashed = acs3("POST", "ecs.cn-shanghai.aliyuncs.com", "/",
                                 {"ImageId": "win2019_1809_x64_dtc_zh-cn_40G_alibase_20230811.vhd",
                                  "RegionId": "cn-shanghai"}, headers, b"", "YourAccessKeySecret", "YourAccessKeyId")
        self.assertEqual(hashed, "7ea06492da5221eba5297e897ce16e55f964061054b7695beedaac1145b1e259")
        self.assertTrue(signed["Authorization"].endswith(
            "Signature=06563a9e1b43f5dfe96b81484da74bceab24a1d853912eee15083a6f0f3283c0"))

    def test_bad_signatures_are_refused_and_not_recorded(self):
        self.err(404, "InvalidAccessKeyId.NotFound", "DescribeInstances", ak="LTAI-someone-else")
        self.err(400, "SignatureDoesNotMatch", "DescribeInstances", secret="wrong-secret")
        self.err(400, "InvalidTimeStamp.Expired", "DescribeInstances",
                 date=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - 20 * 60)))
        self.assertEqual(self.fake.state()["calls"], [])
        # Signed correctly, but for a product the action is not in / without a region.
        self.err(404, "InvalidAction.NotFound", "DescribeVpcs", version=ECS)
        self.err(404, "InvalidAction.NotFound", "RunInstances", version=VPC)
        body = self.err(400, "MissingParameter", "DescribeInstances", region="")
        self.assertIn("RegionId", body["Message"])
        # A tampered query: the signature no longer covers what arrives.
        c = self.fake.conn()
        headers, query, _ = acs3("POST", "127.0.0.1:%d" % self.fake.port, "/", {"RegionId": REGION},
                                 {"x-acs-action": "DescribeInstances", "x-acs-version": ECS,
                                  "x-acs-date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                                  "x-acs-signature-nonce": uuid.uuid4().hex}, b"", SECRET, AK)
        c.request("POST", "/?" + query + "&InstanceIds=%5B%5D", headers=headers)
        r = c.getresponse()
        self.assertEqual((r.status, json.loads(r.read())["Code"]), (400, "SignatureDoesNotMatch"))
        c.close()

    def test_form_body_and_nonce_reuse(self):
        self.assertEqual(self.ok("DescribeInstances", {"MaxResults": "10"}, form=True)["TotalCount"], 0)
        self.ok("DescribeInstances", nonce="n-1")
        self.ok("DescribeInstances", nonce="n-1")  # counted, not refused by default
        self.assertEqual(self.fake.state()["nonce_reuses"], 1)
        self.fake.faults(enforce_nonce=True)
        self.err(400, "SignatureNonceUsed", "DescribeInstances", nonce="n-1")

    # ---- set-up resources

    def test_vpc_vswitch_key_and_group(self):
        self.assertEqual(self.ok("DescribeVpcs", {}, VPC)["Vpcs"]["Vpc"], [])  # a fresh account has no VPC
        vpc, vsw, sg = self.network()
        again = self.ok("CreateVpc", {"CidrBlock": "172.16.0.0/12", "VpcName": "gpuplanner", "ClientToken": "v1"}, VPC)
        self.assertEqual(again["VpcId"], vpc)
        self.assertTrue(again["VRouterId"] and again["RouteTableId"])
        self.err(400, "IdempotentParameterMismatch", "CreateVpc", {"CidrBlock": "10.0.0.0/8", "ClientToken": "v1"},
                 VPC)
        self.assertEqual(self.ok("CreateVSwitch", {"VpcId": vpc, "ZoneId": ZONES[0], "CidrBlock": "172.16.0.0/24",
                                                   "ClientToken": "s1"}, VPC)["VSwitchId"], vsw)
        self.err(400, "InvalidCidrBlock.Overlapped", "CreateVSwitch",
                 {"VpcId": vpc, "ZoneId": ZONES[1], "CidrBlock": "172.16.0.128/25"}, VPC)
        self.err(400, "InvalidCidrBlock.Malformed", "CreateVSwitch",
                 {"VpcId": vpc, "ZoneId": ZONES[1], "CidrBlock": "10.1.0.0/24"}, VPC)
        self.err(404, "InvalidZoneId.NotFound", "CreateVSwitch",
                 {"VpcId": vpc, "ZoneId": "cn-beijing-z", "CidrBlock": "172.16.1.0/24"}, VPC)
        vpcs = self.ok("DescribeVpcs", {"VpcName": "gpuplanner"}, VPC)["Vpcs"]["Vpc"]
        self.assertEqual([(v["VpcId"], v["IsDefault"], v["Status"], v["VSwitchIds"]["VSwitchId"]) for v in vpcs],
                         [(vpc, False, "Available", [vsw])])
        switches = self.ok("DescribeVSwitches", {"VpcId": vpc, "ZoneId": ZONES[0]}, VPC)["VSwitches"]["VSwitch"]
        self.assertEqual([(s["VSwitchId"], s["CidrBlock"], s["Status"]) for s in switches],
                         [(vsw, "172.16.0.0/24", "Available")])
        self.assertGreater(switches[0]["AvailableIpAddressCount"], 0)

        self.err(400, "KeyPair.AlreadyExist", "ImportKeyPair", {"KeyPairName": "gpuplanner", "PublicKeyBody": PUBKEY})
        keys = self.ok("DescribeKeyPairs", {"KeyPairName": "gpuplanner"})["KeyPairs"]["KeyPair"]
        self.assertEqual([k["KeyPairName"] for k in keys], ["gpuplanner"])

        self.ok("AuthorizeSecurityGroup", {"SecurityGroupId": sg, "IpProtocol": "TCP", "PortRange": "80/80",
                                           "SourceCidrIp": "198.51.100.0/24"})
        rules = self.ok("DescribeSecurityGroupAttribute", {"SecurityGroupId": sg})["Permissions"]["Permission"]
        self.assertEqual([(r["Direction"], r["IpProtocol"], r["PortRange"], r["SourceCidrIp"], r["Policy"])
                          for r in rules],
                         [("ingress", "TCP", "22/22", "203.0.113.7/32", "Accept"),
                          ("ingress", "TCP", "80/80", "198.51.100.0/24", "Accept")])
        groups = self.ok("DescribeSecurityGroups", {"VpcId": vpc, "SecurityGroupName": "gpuplanner-ssh"})
        self.assertEqual([g["SecurityGroupId"] for g in groups["SecurityGroups"]["SecurityGroup"]], [sg])
        self.err(403, "InvalidVpcId.NotFound", "CreateSecurityGroup", {"SecurityGroupName": "novpc"})

        made = self.fake.control("/_fake/vpcs", {"region": REGION, "default": True})
        default = self.ok("DescribeVpcs", {"IsDefault": "true"}, VPC)["Vpcs"]["Vpc"]
        self.assertEqual([v["VpcId"] for v in default], [made["vpc_id"]])
        zones = [s["ZoneId"] for s in self.ok("DescribeVSwitches", {"VpcId": made["vpc_id"]}, VPC)["VSwitches"]
                 ["VSwitch"]]
        self.assertEqual(zones, ZONES)
        bare = self.fake.control("/_fake/security_groups", {"region": REGION, "vpc_id": vpc, "name": "bare"})
        self.assertEqual(self.ok("DescribeSecurityGroupAttribute", {"SecurityGroupId": bare["id"]})["Permissions"]
                         ["Permission"], [])

    def test_image_stock_and_price(self):
        images = self.ok("DescribeImages", {"ImageOwnerAlias": "system", "ImageName": "*ubuntu_22_04*gpu*"})
        self.assertEqual(images["TotalCount"], 1)
        self.assertIn("NVIDIA", images["Images"]["Image"][0]["Description"])
        self.fake.faults(no_capacity_zones=[ZONES[0]])
        listing = self.ok("DescribeAvailableResource", {"DestinationResource": "InstanceType",
                                                        "InstanceType": "ecs.gn7i-c8g1.2xlarge"})
        status = {z["ZoneId"]: z["AvailableResources"]["AvailableResource"][0]["SupportedResources"]
                  ["SupportedResource"][0]["Status"] for z in listing["AvailableZones"]["AvailableZone"]}
        self.assertEqual(status, {ZONES[0]: "SoldOut", ZONES[1]: "Available", ZONES[2]: "Available"})
        self.fake.faults(stale_zone_listing=True)
        listing = self.ok("DescribeAvailableResource", {"DestinationResource": "InstanceType"})
        self.assertTrue(all(z["StatusCategory"] == "WithStock" for z in listing["AvailableZones"]["AvailableZone"]))
        hour = self.ok("DescribePrice", {"ResourceType": "instance", "InstanceType": "ecs.gn7i-c8g1.2xlarge",
                                         "PriceUnit": "Hour"})["PriceInfo"]["Price"]
        month = self.ok("DescribePrice", {"ResourceType": "instance", "InstanceType": "ecs.gn7i-c8g1.2xlarge",
                                          "PriceUnit": "Month", "Period": "2"})["PriceInfo"]["Price"]
        self.assertEqual(hour["Currency"], "CNY")
        self.assertGreater(month["TradePrice"], 100 * hour["TradePrice"])
        self.assertAlmostEqual(month["OriginalPrice"] - month["TradePrice"], month["DiscountPrice"], places=1)

    # ---- instances

    def test_launch_idempotency_and_release(self):
        vpc, vsw, sg = self.network()
        dry = self.launch_params(vsw, sg, DryRun="true")
        del dry["VSwitchId"], dry["SecurityGroupId"]
        body = self.err(400, "DryRunOperation", "RunInstances", dry)
        self.assertEqual(body["Message"], "Request validation has been passed with DryRun flag set.")
        self.assertEqual(self.fake.state()["instances"], [])

        params = self.launch_params(vsw, sg)
        first = self.ok("RunInstances", params)
        ids = first["InstanceIdSets"]["InstanceIdSet"]
        self.assertEqual(len(ids), 1)
        self.assertTrue(ids[0].startswith("i-"))
        self.assertEqual(self.ok("RunInstances", params)["InstanceIdSets"]["InstanceIdSet"], ids)
        self.err(400, "IdempotentParameterMismatch", "RunInstances", dict(params, InstanceName="other"))
        inst = self.fake.state()["instances"]
        self.assertEqual(len(inst), 1)
        inst = inst[0]
        self.assertEqual((inst["state"], inst["zone"], inst["pricing"], inst["key_name"], inst["tags"],
                          inst["vswitch_id"], inst["security_group_id"], inst["charge_type"]),
                         ("Pending", ZONES[0], "on_demand", "gpuplanner", {"gpuplanner-token": "tok-1"}, vsw, sg,
                          "PostPaid"))
        self.assertIn("dead-man", inst["user_data"])
        self.assertEqual(inst["terminate_at"] % 60, 0)
        self.assertLess(abs(inst["terminate_at"] - (time.time() + 7200)), 120)

        by_id = {"InstanceIds": json.dumps(ids)}
        seen = self.ok("DescribeInstances", by_id)["Instances"]["Instance"][0]
        self.assertEqual((seen["Status"], seen["PublicIpAddress"]["IpAddress"]), ("Pending", []))
        seen = self.ok("DescribeInstances", {"Tag.1.Key": "gpuplanner-token", "Tag.1.Value": "tok-1",
                                             "MaxResults": "10"})
        self.assertEqual(seen["NextToken"], "")
        seen = seen["Instances"]["Instance"][0]
        self.assertEqual(seen["Status"], "Pending")  # listed twice now: Running from the next answer on
        seen = self.ok("DescribeInstances", by_id)["Instances"]["Instance"][0]
        self.assertEqual((seen["Status"], seen["PublicIpAddress"]["IpAddress"]), ("Running", ["127.0.0.1"]))
        self.assertRegex(seen["CreationTime"], r"^\d{4}-\d\d-\d\dT\d\d:\d\dZ$")
        self.assertEqual(seen["ExpiredTime"], "2099-12-31T15:59Z")
        self.assertEqual(seen["VpcAttributes"]["VpcId"], vpc)
        self.assertEqual(seen["Tags"]["Tag"], [{"TagKey": "gpuplanner-token", "TagValue": "tok-1"}])

        self.err(403, "IncorrectInstanceStatus", "DeleteInstances", {"InstanceId.1": ids[0]})
        self.err(404, "InvalidInstanceId.NotFound", "DeleteInstances",
                 {"InstanceId.1": "i-2zenothere", "Force": "true"})
        self.ok("DeleteInstances", {"InstanceId.1": ids[0], "Force": "true"})
        self.assertEqual(self.fake.state()["instances"][0]["state"], "Terminating")  # released: Stopping in the API
        self.assertEqual(self.ok("DescribeInstances", by_id)["Instances"]["Instance"][0]["Status"], "Stopping")
        self.assertEqual(self.ok("DescribeInstances", by_id)["TotalCount"], 0)
        self.assertEqual(self.fake.state()["instances"][0]["state"], "Terminated")
        self.err(404, "InvalidInstanceId.NotFound", "DeleteInstances", {"InstanceId.1": ids[0], "Force": "true"})

    def test_parameter_checks(self):
        vpc, vsw, sg = self.network()
        p = self.launch_params(vsw, sg, token="t-2")
        cases = [
            (400, "InvalidUserData.Base64FormatInvalid", {"UserData": "not base64!"}),
            (400, "InvalidUserData.SizeExceeded", {"UserData": base64.b64encode(os.urandom(33 * 1024)).decode()}),
            (400, "InvalidClientToken.ValueNotSupported", {"ClientToken": "x" * 65}),
            (400, "InvalidAutoReleaseTime.Malformed",
             {"AutoReleaseTime": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 600))}),
            (400, "InvalidAutoReleaseTime.Malformed", {"AutoReleaseTime": "tomorrow"}),
            (404, "InvalidZoneId.NotFound", {"ZoneId": "cn-beijing-z"}),
            (400, "InvalidParameter.Mismatch", {"ZoneId": ZONES[1]}),
            (400, "InvalidSpotPrepaid", {"InstanceChargeType": "PrePaid", "Period": "1",
                                         "SpotStrategy": "SpotAsPriceGo",
                                         "AutoReleaseTime": ""}),
            (400, "MissingParamter", {"InstanceChargeType": "PrePaid", "AutoReleaseTime": ""}),
            (400, "InvalidSpotPriceLimit", {"SpotStrategy": "SpotWithPriceLimit"}),
            (400, "InvalidVSwitchId.Necessary", {"VSwitchId": ""}),
            (404, "InvalidImageId.NotFound", {"ImageId": "m-unknown"}),
        ]
        for status, code, change in cases:
            with self.subTest(code=code):
                self.err(status, code, "RunInstances", dict(p, **change))
        self.assertEqual(self.fake.state()["instances"], [])
        spot = self.ok("RunInstances", dict(p, SpotStrategy="SpotWithPriceLimit", SpotPriceLimit="4.5"))
        self.assertTrue(spot["TradePrice"] > 0)
        inst = self.fake.state()["instances"][0]
        self.assertEqual((inst["pricing"], inst["spot_strategy"], inst["spot_price_limit"]),
                         ("spot", "SpotWithPriceLimit", 4.5))
        monthly = self.ok("RunInstances", dict(p, ClientToken="t-3", InstanceChargeType="PrePaid", Period="1",
                                               PeriodUnit="Month", AutoRenew="true", AutoReleaseTime=""))
        self.assertTrue(monthly["OrderId"].isdigit())
        inst = self.fake.state()["instances"][1]
        self.assertEqual((inst["pricing"], inst["subscription_months"], inst["auto_renew"]),
                         ("subscription", 1, True))
        self.err(403, "ChargeTypeViolation", "DeleteInstances",
                 {"InstanceId.1": monthly["InstanceIdSets"]["InstanceIdSet"][0], "Force": "true"})

    def test_faults(self):
        vpc, vsw, sg = self.network()
        p = self.launch_params(vsw, sg, token="f-1")
        self.fake.faults(throttle=1)
        body = self.err(400, "Throttling.User", "DescribeInstances")
        self.assertEqual(body["Message"], "Request was denied due to user flow control.")
        self.ok("DescribeInstances")
        self.fake.faults(unauthorized=["RunInstances"])
        self.err(403, "Forbidden.RAM", "RunInstances", p)
        self.fake.faults(unauthorized=[])
        for fault, status, code in [("quota_exceeded", 403, "QuotaExceed.ElasticQuota"),
                                    ("real_name_missing", 403, "RealNameAuthenticationError"),
                                    ("not_enough_balance", 403, "InvalidAccountStatus.NotEnoughBalance"),
                                    ("arrears", 400, "Account.Arrearage")]:
            with self.subTest(fault=fault):
                self.fake.faults(**{fault: True})
                self.err(status, code, "RunInstances", p)
                self.fake.faults(**{fault: False})
        self.fake.faults(no_capacity_zones=[ZONES[0]])
        self.err(403, "OperationDenied.NoStock", "RunInstances", p)
        self.err(403, "OperationDenied.NoStock", "RunInstances", dict(p, DryRun="true"))  # DryRun checks stock
        self.fake.faults(no_capacity_zones=[])
        self.assertEqual(self.fake.state()["instances"], [])

        # A reply lost after the launch was accepted: the retry with the same token finds the same instance.
        self.fake.faults(drop_after_accept=1)
        with self.assertRaises((http.client.HTTPException, ConnectionError)):
            self.fake.call("RunInstances", p)  # the connection closes without a status line
        self.assertEqual(len(self.fake.state()["instances"]), 1)
        ids = self.ok("RunInstances", p)["InstanceIdSets"]["InstanceIdSet"]
        self.assertEqual(ids, [self.fake.state()["instances"][0]["id"]])

        self.fake.faults(internal_error_after_create=1, invisible_s=2)
        self.err(500, "InternalError", "RunInstances", dict(p, ClientToken="f-2", **{"Tag.1.Value": "f-2"}))
        self.assertEqual(len(self.fake.state()["instances"]), 2)
        hidden = self.fake.state()["instances"][1]["id"]
        self.assertEqual(self.ok("DescribeInstances", {"Tag.1.Key": "gpuplanner-token", "Tag.1.Value": "f-2"})
                         ["TotalCount"], 0)
        self.err(404, "InvalidInstanceId.NotFound", "DeleteInstances", {"InstanceId.1": hidden, "Force": "true"})
        time.sleep(2.1)
        self.assertEqual(self.ok("DescribeInstances", {"InstanceIds": json.dumps([hidden])})["TotalCount"], 1)
        self.fake.faults(invisible_s=0)

        self.fake.faults(hold_run_reply_s=1)
        started = time.time()
        self.ok("RunInstances", dict(p, ClientToken="f-3"))
        self.assertGreaterEqual(time.time() - started, 1)

        self.fake.faults(terminate_slow_s=30)
        self.ok("DeleteInstances", {"InstanceId.1": hidden, "Force": "true"})
        for _ in range(3):
            listed = self.ok("DescribeInstances", {"InstanceIds": json.dumps([hidden])})["Instances"]["Instance"]
            self.assertEqual(listed[0]["Status"], "Stopping")

    def test_paging(self):
        vpc, vsw, sg = self.network()
        for n in range(3):
            self.ok("RunInstances", self.launch_params(vsw, sg, token="p-%d" % n))
        first = self.ok("DescribeInstances", {"MaxResults": "2"})
        self.assertEqual((first["TotalCount"], len(first["Instances"]["Instance"])), (3, 2))
        second = self.ok("DescribeInstances", {"MaxResults": "2", "NextToken": first["NextToken"]})
        self.assertEqual((len(second["Instances"]["Instance"]), second["NextToken"]), (1, ""))

    # ---- the official SDK

    def test_the_official_sdk_is_accepted(self):
        # Fails (not skipped) without the SDK: tests/integration/sdk/setup.sh installs it, as test.sh does.
        self.assertTrue(os.path.isdir(os.path.join(SDK_DIR, "node_modules", "@alicloud", "ecs20140526")),
                        "the official SDK is not installed: run tests/integration/sdk/setup.sh")
        vpc, vsw, sg = self.network()
        script = r"""
const Ecs = require('@alicloud/ecs20140526');
const {$OpenApiUtil} = require('@alicloud/openapi-core');
const [port, ak, secret, region, vsw, sg] = process.argv.slice(1);
const client = new Ecs.default(new $OpenApiUtil.Config({accessKeyId: ak, accessKeySecret: secret,
    endpoint: '127.0.0.1:' + port, protocol: 'http', regionId: region}));
const runtime = {autoretry: false, maxAttempts: 0};
(async () => {
  const out = {};
  const listed = await client.describeInstances(new Ecs.DescribeInstancesRequest({regionId: region,
      instanceIds: JSON.stringify(['i-2zenothere']), maxResults: 10}));
  out.describe = {status: listed.statusCode, total: listed.body.totalCount};
  try {
    await client.runInstances(new Ecs.RunInstancesRequest({regionId: region, instanceType: 'ecs.gn7i-c8g1.2xlarge',
        imageId: 'ubuntu_22_04_x64_20G_alibase_gpu_driver_fake.vhd', vSwitchId: vsw, securityGroupId: sg,
        clientToken: 'sdk-1', dryRun: true, internetMaxBandwidthOut: 10,
        tag: [new Ecs.RunInstancesRequestTag({key: 'gpuplanner-token', value: 'sdk-1'})]}));
    out.run = {code: 'no error'};
  } catch (e) {
    out.run = {code: e.code, status: e.statusCode};
  }
  console.log(JSON.stringify(out));
})().catch((e) => { console.log(JSON.stringify({error: String(e), code: e.code})); });
"""
        env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
        env["NODE_PATH"] = os.path.join(SDK_DIR, "node_modules")
        done = subprocess.run(["node", "-e", script, str(self.fake.port), AK, SECRET, REGION, vsw, sg], env=env,
                              cwd=SDK_DIR, capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 0, done.stderr)
        out = json.loads(done.stdout.strip().splitlines()[-1])
        self.assertEqual(out.get("describe"), {"status": 200, "total": 0}, out)
        self.assertEqual(out.get("run"), {"code": "DryRunOperation", "status": 400}, out)
        calls = [c for c in self.fake.state()["calls"] if c["params"].get("ClientToken") == "sdk-1"
                 or c["action"] == "DescribeInstances"]
        self.assertEqual([c["action"] for c in calls], ["DescribeInstances", "RunInstances"])
        self.assertEqual(calls[1]["params"]["Tag.1.Key"], "gpuplanner-token")
        self.assertEqual(calls[0]["params"]["InstanceIds"], '["i-2zenothere"]')


if __name__ == "__main__":
    unittest.main(verbosity=2)
