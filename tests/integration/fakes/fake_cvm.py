#!/usr/bin/env python3
"""A FAKE of Tencent Cloud API 3.0 (CVM and VPC, version 2017-03-12) for GPU Planner's flow tests.

It is not Tencent Cloud: it answers the actions TencentCvmProvider uses in the documented JSON format
(`{"Response": {..., "RequestId"}}`, errors with HTTP 200 in Response.Error {Code, Message}; shapes from the API
pages' output examples, see tests/data/cloud/tencent/README.md) and it produces on demand the faults a real cloud will
not (throttling, sold-out zones, dropped connections, slow replies, quota and permission errors).

    python3 fake_cvm.py --port-file FILE [--access-key-id ID --secret-key KEY] [--running-after N]
                        [--zones-REGION ZONE,ZONE...]

Binds 127.0.0.1 on a free port, writes the port to FILE (FILE.tmp, then renamed), serves until killed.

- cvm and vpc share the port; an action is told apart by X-TC-Action and the service of the signature's credential
  scope (security-group actions must be signed for "vpc", the others for "cvm").
- Every API request's TC3-HMAC-SHA256 signature is recomputed with the configured key (Host header as sent, the
  request's SignedHeaders); a mismatch answers AuthFailure.SignatureFailure, an unknown SecretId
  AuthFailure.SecretIdNotFound, a timestamp off by more than 5 minutes AuthFailure.SignatureExpire.
- Region: X-TC-Region. Zones: --zones-REGION, else REGION-3, REGION-4, REGION-6 (the naming of ap-guangzhou-3/-4/-6).
- DescribeImages lists one public Ubuntu image per region whose name says it has the GPU driver (fake data).
- Instances start PENDING, become RUNNING (public IP 127.0.0.1) after `running_after` DescribeInstances answers that
  listed them; TerminateInstances makes them TERMINATING, the next DescribeInstances that lists them is the last one
  (state then reads TERMINATED in /_fake/state, and DescribeInstances no longer lists it).
- RunInstances with a ClientToken seen before and the same parameters returns the same instance; with other
  parameters it answers InvalidParameter (CVM documents no dedicated code for a reused token).
- DryRun answers DryRunOperation and creates nothing. ActionTimer's ActionTime is kept as terminate_at (Unix s).

Control (not part of the API): POST /_fake/faults (JSON merged into the faults: throttle, no_capacity_zones,
drop_after_accept, hold_run_reply_s, quota_exceeded, unauthorized, running_after, stale_zone_listing), POST
/_fake/security_groups ({"region", "name"}: a security group without any rule, as one whose rules were deleted or
whose CreateSecurityGroupPolicies never ran; answers {"ok": true, "id"}) and GET /_fake/state (a group's rules are
its "Ingress" and "Egress" lists, as CreateSecurityGroupPolicies received them).

Faults that model how CVM behaves but cannot be produced on demand against it: invisible_s S (eventual consistency:
for S seconds after RunInstances DescribeInstances leaves a new instance out, by id as by tag, and TerminateInstances
answers InvalidInstanceId.NotFound), internal_error_after_create N (next N RunInstances create the instance, then
answer InternalError), terminate_slow_s S (terminated instances stay TERMINATING for S seconds).
"""

import argparse
import base64
import gzip
import calendar
import datetime
import hashlib
import hmac
import json
import os
import random
import socket
import string
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

VPC_ACTIONS = {"DescribeSecurityGroups", "CreateSecurityGroup", "CreateSecurityGroupPolicies",
               "DescribeSecurityGroupPolicies"}
CVM_ACTIONS = {"DescribeImages", "DescribeKeyPairs", "ImportKeyPair", "DescribeZoneInstanceConfigInfos",
               "RunInstances", "DescribeInstances", "TerminateInstances", "InquiryPriceRunInstances"}




def user_data_text(encoded):
    """The user-data as the instance's cloud-init reads it: base64-decoded, then gunzipped when it is gzip."""
    raw = base64.b64decode(encoded, validate=True)
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return raw.decode("utf-8", "replace")

def short_id(prefix):
    return prefix + "-" + "".join(random.choice(string.ascii_lowercase + string.digits) for _ in range(8))


def iso_now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class ApiError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


class State:
    def __init__(self, args, zones):
        self.lock = threading.Lock()
        self.key_id = args.access_key_id
        self.secret = args.secret_key
        self.running_after = args.running_after
        self.zones = zones
        self.faults = {"throttle": 0, "no_capacity_zones": [], "drop_after_accept": 0, "hold_run_reply_s": 0,
                       "quota_exceeded": False, "unauthorized": [], "invisible_s": 0,
                       "internal_error_after_create": 0, "terminate_slow_s": 0}
        self.instances = []  # dicts
        self.calls = []
        self.key_pairs = []
        self.security_groups = []

    def zones_for(self, region):
        return self.zones.get(region, [region + "-3", region + "-4", region + "-6"])


def tc3_signature(secret, date, service, string_to_sign):
    k_date = hmac.new(("TC3" + secret).encode(), date.encode(), hashlib.sha256).digest()
    k_service = hmac.new(k_date, service.encode(), hashlib.sha256).digest()
    k_signing = hmac.new(k_service, b"tc3_request", hashlib.sha256).digest()
    return hmac.new(k_signing, string_to_sign.encode(), hashlib.sha256).hexdigest()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    state = None  # set in main

    def log_message(self, fmt, *args):
        pass

    # ---- plumbing

    def reply(self, status, obj):
        data = json.dumps(obj, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def api_reply(self, response):
        response = dict(response)
        response["RequestId"] = str(uuid.uuid4())
        self.reply(200, {"Response": response})

    def api_error(self, code, message):
        self.api_reply({"Error": {"Code": code, "Message": message}})

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def do_GET(self):
        if self.path == "/_fake/state":
            with self.state.lock:
                self.reply(200, {"instances": [self.public(i) for i in self.state.instances],
                                 "calls": list(self.state.calls),
                                 "key_pairs": list(self.state.key_pairs),
                                 "security_groups": list(self.state.security_groups)})
            return
        self.reply(404, {"error": "unknown path"})

    @staticmethod
    def public(inst):
        out = {k: inst[k] for k in ("id", "client_token", "state", "instance_type", "region", "zone", "pricing",
                                    "image_id", "key_name", "user_data", "tags", "subscription_months",
                                    "auto_renew")}
        if inst.get("terminate_at") is not None:
            out["terminate_at"] = inst["terminate_at"]
        return out

    def do_POST(self):
        body = self.read_body()
        if self.path == "/_fake/faults":
            try:
                faults = json.loads(body or b"{}")
            except ValueError:
                self.reply(400, {"ok": False, "error": "not JSON"})
                return
            with self.state.lock:
                for key, value in faults.items():
                    if key == "running_after":
                        self.state.running_after = int(value)
                    else:
                        self.state.faults[key] = value
            self.reply(200, {"ok": True})
            return
        if self.path == "/_fake/security_groups":
            wanted = json.loads(body or b"{}")
            group = {"SecurityGroupId": short_id("sg"), "SecurityGroupName": wanted.get("name", ""),
                     "SecurityGroupDesc": "made by the test", "region": wanted.get("region", ""),
                     "Ingress": [], "Egress": []}
            with self.state.lock:
                self.state.security_groups.append(group)
            self.reply(200, {"ok": True, "id": group["SecurityGroupId"]})
            return
        if self.path != "/":
            self.reply(404, {"error": "unknown path"})
            return
        try:
            self.api(body)
        except ApiError as e:
            self.api_error(e.code, e.message)

    # ---- API

    def verify(self, body):
        auth = self.headers.get("Authorization", "")
        if not auth.startswith("TC3-HMAC-SHA256 "):
            raise ApiError("AuthFailure.InvalidAuthorization", "Authorization is not TC3-HMAC-SHA256")
        parts = {}
        for item in auth[len("TC3-HMAC-SHA256 "):].split(","):
            name, _, value = item.strip().partition("=")
            parts[name] = value
        scope = parts.get("Credential", "").split("/")
        if len(scope) != 4 or scope[3] != "tc3_request":
            raise ApiError("AuthFailure.InvalidAuthorization", "bad Credential")
        key_id, date, service = scope[0], scope[1], scope[2]
        if key_id != self.state.key_id:
            raise ApiError("AuthFailure.SecretIdNotFound", "The SecretId is not found, please ensure that your "
                                                           "SecretId is correct.")
        timestamp = self.headers.get("X-TC-Timestamp", "")
        if not timestamp.isdigit():
            raise ApiError("MissingParameter", "X-TC-Timestamp")
        if abs(time.time() - int(timestamp)) > 300:
            raise ApiError("AuthFailure.SignatureExpire", "Signature expired, timestamp is too far from now.")
        if datetime.datetime.fromtimestamp(int(timestamp), datetime.timezone.utc).strftime("%Y-%m-%d") != date:
            raise ApiError("AuthFailure.SignatureFailure", "The credential date is not the timestamp's UTC date.")
        signed = parts.get("SignedHeaders", "")
        lines = []
        for name in signed.split(";"):
            value = self.headers.get(name)
            if value is None:
                raise ApiError("AuthFailure.SignatureFailure", "signed header %s missing" % name)
            lines.append("%s:%s\n" % (name, value.strip() if name != "content-type" else value.strip()))
        path, _, query = self.path.partition("?")
        canonical = "POST\n%s\n%s\n%s\n%s\n%s" % (path, query, "".join(lines), signed, hashlib.sha256(body).hexdigest())
        sts = "TC3-HMAC-SHA256\n%s\n%s/%s/tc3_request\n%s" % (timestamp, date, service,
                                                              hashlib.sha256(canonical.encode()).hexdigest())
        if not hmac.compare_digest(tc3_signature(self.state.secret, date, service, sts), parts.get("Signature", "")):
            raise ApiError("AuthFailure.SignatureFailure", "The provided credentials could not be validated. "
                                                           "Please check your signature is correct.")
        return service

    def api(self, body):
        service = self.verify(body)
        action = self.headers.get("X-TC-Action", "")
        region = self.headers.get("X-TC-Region", "")
        try:
            params = json.loads(body or b"{}")
        except ValueError:
            raise ApiError("InvalidParameter", "the body is not JSON")
        expected = "vpc" if action in VPC_ACTIONS else "cvm" if action in CVM_ACTIONS else None
        if expected is None:
            raise ApiError("InvalidAction", "The action %s is not found." % action)
        if service != expected:
            raise ApiError("InvalidAction", "%s is an action of %s, signed for %s" % (action, expected, service))
        st = self.state
        with st.lock:
            st.calls.append({"action": action, "region": region, "params": params})
            if st.faults.get("throttle", 0) > 0:
                st.faults["throttle"] -= 1
                raise ApiError("RequestLimitExceeded", "Your current request times exceeds limit, please try again "
                                                       "later.")
            if action in (st.faults.get("unauthorized") or []):
                raise ApiError("UnauthorizedOperation", "you are not authorized to perform %s" % action)
        if not region:
            raise ApiError("MissingParameter", "The request is missing a required parameter `Region`.")
        getattr(self, "act_" + action)(params, region)

    def act_DescribeImages(self, params, region):
        self.api_reply({"TotalCount": 1, "ImageSet": [{
            "ImageId": "img-fakegpu1", "OsName": "Ubuntu Server 22.04 LTS 64bit", "ImageType": "PUBLIC_IMAGE",
            "CreatedTime": "2026-01-01T00:00:00+00:00", "ImageName": "Ubuntu 22.04 GPU 驱动预装 (fake)",
            "ImageDescription": "Ubuntu 22.04 with the NVIDIA GPU driver (fake image)", "ImageState": "NORMAL",
            "Platform": "Ubuntu", "Architecture": "x86_64", "ImageSource": "OFFICIAL", "ImageCreator": "tencent",
            "IsSupportCloudinit": True, "SnapshotSet": [], "Tags": []}]})

    def act_DescribeKeyPairs(self, params, region):
        names = [v for f in params.get("Filters", []) if f.get("Name") == "key-name" for v in f.get("Values", [])]
        with self.state.lock:
            keys = [k for k in self.state.key_pairs if not names or k["KeyName"] in names]
        self.api_reply({"TotalCount": len(keys), "KeyPairSet": [
            {"KeyId": k["KeyId"], "KeyName": k["KeyName"], "ProjectId": 0, "PublicKey": k["PublicKey"],
             "AssociatedInstanceIds": [], "CreatedTime": k["CreatedTime"], "Description": "", "Tags": []}
            for k in keys]})

    def act_ImportKeyPair(self, params, region):
        name = params.get("KeyName", "")
        if not name or len(name) > 25 or not all(c.isalnum() or c == "_" for c in name):
            raise ApiError("InvalidKeyPairNameIncludeIllegalChar", "密钥名称只支持英文、数字和下划线。")
        with self.state.lock:
            if any(k["KeyName"] == name for k in self.state.key_pairs):
                raise ApiError("InvalidKeyPairName.Duplicate", "密钥对名称重复。")
            key = {"KeyId": short_id("skey"), "KeyName": name, "PublicKey": params.get("PublicKey", ""),
                   "CreatedTime": iso_now()}
            self.state.key_pairs.append(key)
        self.api_reply({"KeyId": key["KeyId"]})

    def act_DescribeSecurityGroups(self, params, region):
        names = [v for f in params.get("Filters", []) if f.get("Name") == "security-group-name"
                 for v in f.get("Values", [])]
        with self.state.lock:
            groups = [g for g in self.state.security_groups
                      if g["region"] == region and (not names or g["SecurityGroupName"] in names)]
        self.api_reply({"TotalCount": len(groups), "SecurityGroupSet": [
            {"SecurityGroupId": g["SecurityGroupId"], "SecurityGroupName": g["SecurityGroupName"],
             "SecurityGroupDesc": g["SecurityGroupDesc"], "ProjectId": "0", "IsDefault": False,
             "CreatedTime": "2026-01-01 00:00:00"} for g in groups]})

    def act_CreateSecurityGroup(self, params, region):
        group = {"SecurityGroupId": short_id("sg"), "SecurityGroupName": params.get("GroupName", ""),
                 "SecurityGroupDesc": params.get("GroupDescription", ""), "region": region,
                 "Ingress": [], "Egress": []}
        with self.state.lock:
            self.state.security_groups.append(group)
        self.api_reply({"SecurityGroup": {"SecurityGroupId": group["SecurityGroupId"],
                                          "SecurityGroupName": group["SecurityGroupName"],
                                          "SecurityGroupDesc": group["SecurityGroupDesc"], "ProjectId": "0",
                                          "TagSet": []}})

    def act_CreateSecurityGroupPolicies(self, params, region):
        policies = params.get("SecurityGroupPolicySet", {})
        if ("Ingress" in policies) == ("Egress" in policies):
            raise ApiError("InvalidParameter", "policies of exactly one direction per request")
        with self.state.lock:
            group = next((g for g in self.state.security_groups
                          if g["SecurityGroupId"] == params.get("SecurityGroupId")), None)
            if group is None:
                raise ApiError("ResourceNotFound", "the security group does not exist")
            for direction in ("Ingress", "Egress"):
                group[direction].extend(policies.get(direction, []))
        self.api_reply({})

    def act_DescribeSecurityGroupPolicies(self, params, region):
        # SecurityGroupPolicySet as the API page documents it (Version, Egress, Ingress of SecurityGroupPolicy).
        with self.state.lock:
            group = next((g for g in self.state.security_groups
                          if g["SecurityGroupId"] == params.get("SecurityGroupId")), None)
            if group is None:
                raise ApiError("ResourceNotFound", "the security group does not exist")
            listed = {direction: [dict(policy, PolicyIndex=i, SecurityGroupId="", Ipv6CidrBlock="",
                                       ModifyTime="2026-01-01 00:00:00")
                                  for i, policy in enumerate(group[direction])]
                      for direction in ("Ingress", "Egress")}
        self.api_reply({"SecurityGroupPolicySet": {"Version": str(len(listed["Ingress"]) + len(listed["Egress"])),
                                                   "Ingress": listed["Ingress"], "Egress": listed["Egress"]}})

    def act_DescribeZoneInstanceConfigInfos(self, params, region):
        types = [v for f in params.get("Filters", []) if f.get("Name") == "instance-type" for v in f.get("Values", [])]
        charge = [v for f in params.get("Filters", []) if f.get("Name") == "instance-charge-type"
                  for v in f.get("Values", [])]
        with self.state.lock:
            # stale_zone_listing: the listing still says SELL where RunInstances finds no stock (it lags in reality).
            stale = bool(self.state.faults.get("stale_zone_listing"))
            sold_out = [] if stale else list(self.state.faults.get("no_capacity_zones") or [])
        items = []
        for zone in self.state.zones_for(region):
            for instance_type in types or ["GN7.2XLARGE32"]:
                items.append({"Zone": zone, "InstanceType": instance_type,
                              "InstanceChargeType": (charge or ["POSTPAID_BY_HOUR"])[0],
                              "Status": "SOLD_OUT" if zone in sold_out else "SELL", "NetworkCard": 0,
                              "Externals": {}, "Cpu": 8, "Memory": 32, "InstanceFamily": instance_type.split(".")[0],
                              "TypeName": "GPU (fake)", "LocalDiskTypeList": [], "SoldOutReason": "", "Gpu": 1,
                              "Fpga": 0, "Remark": "", "Price": {"UnitPrice": 8.0, "ChargeUnit": "HOUR"}})
        self.api_reply({"InstanceTypeQuotaSet": items})

    def act_InquiryPriceRunInstances(self, params, region):
        # The documented answer's shape (tests/data/tencent/inquiry-price-run-instances*.json): made-up prices,
        # 8.68 CNY an hour pay-as-you-go (GN7.2XLARGE32's list price), 2.60 spot, 2,500 CNY a prepaid month.
        if not params.get("Placement", {}).get("Zone") or not params.get("ImageId"):
            raise ApiError("MissingParameter", "Placement.Zone and ImageId are required.")
        charge = params.get("InstanceChargeType", "POSTPAID_BY_HOUR")
        price = {"ChargeUnit": "HOUR", "Discount": 100}
        if charge == "PREPAID":
            months = params["InstanceChargePrepaid"]["Period"]
            price.update({"OriginalPrice": 2500.0 * months, "DiscountPrice": 2500.0 * months})
        elif charge == "SPOTPAID":
            price.update({"UnitPrice": 8.68, "UnitPriceDiscount": 2.6})
        else:
            price.update({"UnitPrice": 8.68, "UnitPriceDiscount": 8.68})
        self.api_reply({"Price": {"InstancePrice": price, "BandwidthPrice": {"UnitPrice": 0.8, "ChargeUnit": "GB"}}})

    def act_RunInstances(self, params, region):
        st = self.state
        zone = params.get("Placement", {}).get("Zone", "")
        if not zone:
            raise ApiError("MissingParameter", "Placement.Zone")
        if zone not in st.zones_for(region):
            raise ApiError("InvalidZone.MismatchRegion", "指定的`zone`不存在。")
        for required in ("ImageId", "InstanceType"):
            if not params.get(required):
                raise ApiError("MissingParameter", required)
        token = params.get("ClientToken", "")
        if len(token) > 64:
            raise ApiError("InvalidClientToken.TooLong", "指定的ClientToken字符串长度超出限制，必须小于等于64字节。")
        with st.lock:
            if st.faults.get("quota_exceeded"):
                raise ApiError("LimitExceeded.InstanceQuota", "当前配额不足够生产指定数量的实例")
            if zone in (st.faults.get("no_capacity_zones") or []):
                raise ApiError("ResourceInsufficient.SpecifiedInstanceType", "指定的实例类型库存不足。")
            if params.get("DryRun"):
                raise ApiError("DryRunOperation", "DryRun 操作，代表请求将会是成功的，只是多传了 DryRun 参数。")
            comparable = {k: v for k, v in params.items() if k != "DryRun"}
            if token:
                for inst in st.instances:
                    if inst["client_token"] == token and inst["region"] == region:
                        if inst["params"] != comparable:
                            raise ApiError("InvalidParameter", "ClientToken %s was used with other parameters" % token)
                        self.api_reply({"InstanceIdSet": [inst["id"]]})
                        return
            charge = params.get("InstanceChargeType", "POSTPAID_BY_HOUR")
            prepaid = params.get("InstanceChargePrepaid", {})
            key_ids = params.get("LoginSettings", {}).get("KeyIds", [])
            key_name = next((k["KeyName"] for k in st.key_pairs if k["KeyId"] in key_ids), "")
            tags = {}
            for spec in params.get("TagSpecification", []):
                for tag in spec.get("Tags", []):
                    tags[tag.get("Key")] = tag.get("Value")
            terminate_at = None
            timer = params.get("ActionTimer")
            if timer and timer.get("TimerAction") == "TerminateInstances":
                try:
                    terminate_at = calendar.timegm(time.strptime(timer.get("ActionTime", ""), "%Y-%m-%dT%H:%M:%SZ"))
                except ValueError:
                    raise ApiError("InvalidParameterValue.InvalidTimeFormat", "时间格式不合法。")
            user_data = params.get("UserData", "")
            try:
                decoded = user_data_text(user_data) if user_data else ""
            except ValueError:
                raise ApiError("InvalidParameterValue.InvalidUserDataFormat", "UserData格式错误, 需要base64编码格式")
            inst = {"id": short_id("ins"), "client_token": token, "state": "PENDING",
                    "instance_type": params["InstanceType"], "region": region, "zone": zone,
                    "pricing": {"SPOTPAID": "spot", "PREPAID": "subscription"}.get(charge, "on_demand"),
                    "image_id": params["ImageId"], "key_name": key_name, "user_data": decoded, "tags": tags,
                    "subscription_months": prepaid.get("Period", 0) if charge == "PREPAID" else 0,
                    "auto_renew": prepaid.get("RenewFlag") == "NOTIFY_AND_AUTO_RENEW",
                    "terminate_at": terminate_at, "params": comparable, "describes": 0,
                    "created": iso_now(), "gone": False, "created_at": time.time()}
            st.instances.append(inst)
            if st.faults.get("internal_error_after_create", 0) > 0:
                st.faults["internal_error_after_create"] -= 1
                raise ApiError("InternalError", "内部错误。")
            drop = st.faults.get("drop_after_accept", 0) > 0
            if drop:
                st.faults["drop_after_accept"] -= 1
            hold = float(st.faults.get("hold_run_reply_s") or 0)
            if hold:
                st.faults["hold_run_reply_s"] = 0
        if drop:
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            return
        if hold:
            time.sleep(hold)
        self.api_reply({"InstanceIdSet": [inst["id"]]})

    def describe_one(self, inst):
        return {"InstanceId": inst["id"], "InstanceState": inst["state"], "InstanceType": inst["instance_type"],
                "InstanceName": "gpuplanner", "Placement": {"Zone": inst["zone"], "ProjectId": 0},
                "ImageId": inst["image_id"], "CreatedTime": inst["created"],
                "PublicIpAddresses": ["127.0.0.1"] if inst["state"] == "RUNNING" else [],
                "PrivateIpAddresses": ["10.0.0.2"],
                "InstanceChargeType": {"spot": "SPOTPAID", "subscription": "PREPAID"}.get(inst["pricing"],
                                                                                          "POSTPAID_BY_HOUR"),
                "Tags": [{"Key": k, "Value": v} for k, v in inst["tags"].items()],
                "LoginSettings": {"KeyIds": []}, "StopChargingMode": "NOT_APPLICABLE"}

    def visible(self, inst):
        """Eventual consistency (invisible_s): a new instance is not seen by reads for a while."""
        return time.time() - inst.get("created_at", 0) >= float(self.state.faults.get("invisible_s") or 0)

    def act_DescribeInstances(self, params, region):
        ids = params.get("InstanceIds") or []
        tag_keys = [v for f in params.get("Filters", []) if f.get("Name") == "tag-key" for v in f.get("Values", [])]
        offset = int(params.get("Offset", 0))
        limit = int(params.get("Limit", 20))
        st = self.state
        with st.lock:
            matched = [i for i in st.instances if i["region"] == region and not i["gone"] and self.visible(i)
                       and (not ids or i["id"] in ids) and (not tag_keys or any(k in i["tags"] for k in tag_keys))]
            page = matched[offset:offset + limit]
            out = [self.describe_one(i) for i in page]
            for inst in page:
                if inst["state"] == "PENDING":
                    inst["describes"] += 1
                    if inst["describes"] >= st.running_after:
                        inst["state"] = "RUNNING"
                elif inst["state"] == "TERMINATING" and \
                        time.time() - inst.get("terminated_at", 0) >= float(st.faults.get("terminate_slow_s") or 0):
                    inst["gone"] = True  # this answer was the last one that lists it
                    inst["state"] = "TERMINATED"
        self.api_reply({"TotalCount": len(matched), "InstanceSet": out})

    def act_TerminateInstances(self, params, region):
        ids = params.get("InstanceIds") or []
        with self.state.lock:
            for instance_id in ids:
                inst = next((i for i in self.state.instances if i["id"] == instance_id and i["region"] == region),
                            None)
                if inst is None or inst["gone"] or not self.visible(inst):
                    raise ApiError("InvalidInstanceId.NotFound", "没有找到相应实例。")
            for inst in self.state.instances:
                if inst["id"] in ids and inst["state"] != "TERMINATING":
                    inst["state"] = "TERMINATING"
                    inst["terminated_at"] = time.time()
        self.api_reply({})


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--access-key-id", default="AKIDFAKEEXAMPLE")
    parser.add_argument("--secret-key", default="fake-secret-key-for-tests")
    parser.add_argument("--running-after", type=int, default=2)
    args, rest = parser.parse_known_args()
    zones = {}
    i = 0
    while i < len(rest):
        arg = rest[i]
        if not arg.startswith("--zones-"):
            parser.error("unknown argument " + arg)
        region, _, value = arg[len("--zones-"):].partition("=")
        if not value:
            i += 1
            value = rest[i] if i < len(rest) else ""
        zones[region] = [z for z in value.split(",") if z]
        i += 1
    Handler.state = State(args, zones)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(tmp, args.port_file)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
