#!/usr/bin/env python3
"""A FAKE of Alibaba Cloud ECS (2014-05-26) and VPC (2016-04-28) for GPU Planner's flow tests.

It is not Alibaba Cloud: it answers the actions the Alibaba provider uses in the RPC style with the V3 signature, as
@alicloud/openapi-core sends them (POST /, the parameters in the query string, flattened as Tag.1.Key, InstanceId.1,
InstanceIds as a JSON array string; a form-encoded body is read too), and it produces on demand the faults a real cloud
will not (throttling, sold-out zones, dropped connections, slow replies, quota, permission and account errors).
Answer shapes follow the response examples of the API reference pages (AlibabaCloudDocs/ecs, intl.en-US/API Reference:
DescribeInstances, DescribeAvailableResource, DescribePrice, DescribeSecurityGroupAttribute, ...); error codes, HTTP
statuses and messages come from those pages' error tables and from "Response results" (common error codes).

    python3 fake_ecs.py --port-file FILE [--access-key-id ID --secret-key KEY] [--running-after N]
                        [--zones-REGION ZONE,ZONE...]

Binds 127.0.0.1 on a free port, writes the port to FILE (FILE.tmp, then renamed), serves until killed.

- ECS and VPC share the port; the product is told by x-acs-version (2014-05-26 ECS, 2016-04-28 VPC). An action that
  is not one of that product's answers InvalidAction.NotFound (404).
- Every API request's ACS3-HMAC-SHA256 signature is recomputed with the configured key (canonical query rebuilt from
  the decoded parameters, RFC 3986-encoded and sorted; the SignedHeaders the request names, Host as sent; the body's
  SHA-256, which must also equal x-acs-content-sha256). Unknown AccessKey ID: InvalidAccessKeyId.NotFound (404); a bad
  signature: SignatureDoesNotMatch (400); host/x-acs-* headers left out of SignedHeaders: IncompleteSignature (400);
  x-acs-date more than 15 minutes off: InvalidTimeStamp.Expired (400).
- Nonces: a nonce seen again within 15 minutes is counted in /_fake/state ("nonce_reuses") but NOT refused unless
  the fault enforce_nonce is true (then SignatureNonceUsed, 400, as Alibaba answers). Not enforced by default because
  a client that resends a request with the same signature after a dropped connection would then fail here for a
  reason the tests do not look at; the real SDK makes a new nonce per attempt, so a test can turn it on.
- Errors: the documented HTTP status with {"RequestId", "HostId", "Code", "Message", "Recommend"}. Where the docs
  name a code but give no message ("%s"), or give no code at all, the text here is made up and marked so below.
- Region: the RegionId parameter. Zones: --zones-REGION, else REGION-g, REGION-h, REGION-i (cn-beijing-g/-h/-i are
  real Beijing zones).
- A fresh fake account has no VPC: the client must CreateVpc and CreateVSwitch (or a test makes a default VPC with
  POST /_fake/vpcs). DescribeImages lists one public Ubuntu 22.04 image per region whose name and description say it
  has the NVIDIA GPU driver (fake data; Alibaba publishes no such public image).
- RunInstances: ClientToken with the same parameters returns the same InstanceIdSets; with other parameters it
  answers IdempotentParameterMismatch (400). DryRun=true answers DryRunOperation (400) and creates nothing
  (VSwitchId and SecurityGroupId may be absent then). UserData must be base64 of at most 32 KB; /_fake/state
  shows it decoded (and gunzipped). AutoReleaseTime must be 30 minutes to 3 years ahead (otherwise
  InvalidAutoReleaseTime.Malformed); its seconds are dropped, as Alibaba does, and it is kept as terminate_at (Unix s).
- A public address is given only when InternetMaxBandwidthOut > 0, as on Alibaba (the instance gets none otherwise).
- Instances start Pending, become Running (public IP 127.0.0.1) after `running_after` DescribeInstances answers that
  listed them. DeleteInstances: a Running instance needs Force=true (IncorrectInstanceStatus, 403, otherwise); a
  Pending one is released too (lenient: Alibaba may answer IncorrectInstanceStatus.Initializing while it starts).
  Deleted instances read Stopping (Terminating in /_fake/state); the next DescribeInstances that lists one is the last
  (state then Terminated in /_fake/state). An unexpired PrePaid instance is refused with ChargeTypeViolation (403, documented for DeleteInstance;
  DeleteInstances documents no code for it). Prices from DescribePrice are made up (plausible CNY figures).

Control (not part of the API):
- POST /_fake/faults (JSON merged): throttle N (next N API calls answer Throttling.User), no_capacity_zones [zones]
  (RunInstances there: OperationDenied.NoStock; DescribeAvailableResource shows the type SoldOut/WithoutStock there
  unless stale_zone_listing is true), stale_zone_listing, drop_after_accept N (RunInstances creates, then closes the
  connection without an answer), hold_run_reply_s S (RunInstances creates, then waits S s before answering, once),
  quota_exceeded (QuotaExceed.ElasticQuota), unauthorized [actions] (Forbidden.RAM), real_name_missing
  (RealNameAuthenticationError), not_enough_balance (InvalidAccountStatus.NotEnoughBalance), arrears
  (Account.Arrearage), running_after N, enforce_nonce.
  Faults that model how ECS behaves but cannot be produced on demand against it: invisible_s S (eventual consistency:
  for S s after RunInstances, DescribeInstances leaves the new instance out, by id as by tag, and DeleteInstances
  answers InvalidInstanceId.NotFound), internal_error_after_create N (next N RunInstances create the instance, or
  find it by its token, then answer InternalError, 500), terminate_slow_s S (deleted instances stay Stopping for S s).
- POST /_fake/vpcs {"region", "default": true}: a default VPC 172.16.0.0/12 with one default vSwitch per zone
  (172.16.0.0/20, 172.16.16.0/20, ...; the layout the console's default VPC uses); answers {"ok": true, "vpc_id"}.
- POST /_fake/security_groups {"region", "vpc_id", "name"}: a group without any rule (as one whose rules were deleted);
  answers {"ok": true, "id"}.
- GET /_fake/state: {"instances", "calls" (every API call after the signature check: action, region, params),
  "key_pairs", "security_groups" (each with its "Permissions"), "vpcs", "vswitches", "nonce_reuses"}.
"""

import argparse
import base64
import calendar
import datetime
import gzip
import hashlib
import hmac
import ipaddress
import json
import os
import random
import socket
import string
import sys
import threading
import time
import uuid
from fnmatch import fnmatch
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, quote

ECS_VERSION = "2014-05-26"
VPC_VERSION = "2016-04-28"
ECS_ACTIONS = {"DescribeImages", "DescribeKeyPairs", "ImportKeyPair", "DescribeSecurityGroups", "CreateSecurityGroup",
               "AuthorizeSecurityGroup", "DescribeSecurityGroupAttribute", "DescribeAvailableResource", "RunInstances",
               "DescribeInstances", "DeleteInstances", "DescribePrice"}
VPC_ACTIONS = {"DescribeVpcs", "CreateVpc", "DescribeVSwitches", "CreateVSwitch"}
SIGNED_REQUIRED = ("host", "x-acs-action", "x-acs-content-sha256", "x-acs-date", "x-acs-signature-nonce",
                   "x-acs-version")
SKEW_S = 15 * 60
NEVER_EXPIRES = "2099-12-31T15:59Z"  # what DescribeInstances shows as a pay-as-you-go instance's ExpiredTime
IMAGE_ID = "ubuntu_22_04_x64_20G_alibase_gpu_driver_fake.vhd"
DEFAULT_TYPE = "ecs.gn7i-c8g1.2xlarge"
# Made-up but plausible prices (CNY): pay-as-you-go per hour, spot per hour, subscription per month.
HOURLY, SPOT_HOURLY, MONTHLY = 11.2, 3.36, 5400.0


def user_data_text(raw):
    """The user-data as the instance's cloud-init reads it: gunzipped when it is gzip."""
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return raw.decode("utf-8", "replace")


def rand_id(prefix, n=20):
    return prefix + "".join(random.choice(string.ascii_lowercase + string.digits) for _ in range(n))


def iso_minutes(t):
    return time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime(t))


def iso_seconds(t):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def add_months(t, months):
    d = datetime.datetime.fromtimestamp(t, datetime.timezone.utc)
    month = d.month - 1 + months
    year = d.year + month // 12
    month = month % 12 + 1
    day = min(d.day, [31, 29 if year % 4 == 0 and (year % 100 or year % 400 == 0) else 28, 31, 30, 31, 30, 31, 31,
                      30, 31, 30, 31][month - 1])
    return calendar.timegm(d.replace(year=year, month=month, day=day).timetuple())


def rfc3986(s):
    return quote(s, safe="-_.~")


def truthy(value):
    return str(value).lower() == "true"


class ApiError(Exception):
    def __init__(self, status, code, message):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def missing(name):
    return ApiError(400, "MissingParameter",
                    'The input parameter "%s" that is mandatory for processing this request is not supplied.' % name)


def indexed(params, prefix, fields):
    """Flattened lists: prefix.N.field -> [{field: value}] in N order (Tag.1.Key, Permissions.2.PortRange)."""
    found = {}
    for key, value in params.items():
        if not key.startswith(prefix + "."):
            continue
        parts = key[len(prefix) + 1:].split(".", 1)
        if not parts[0].isdigit():
            continue
        entry = found.setdefault(int(parts[0]), {})
        if len(parts) == 2 and parts[1] in fields:
            entry[parts[1]] = value
        elif len(parts) == 1:
            entry[""] = value
    return [found[n] for n in sorted(found)]


class State:
    def __init__(self, args, zones):
        self.lock = threading.Lock()
        self.key_id = args.access_key_id
        self.secret = args.secret_key
        self.running_after = args.running_after
        self.zones = zones
        self.faults = {"throttle": 0, "no_capacity_zones": [], "stale_zone_listing": False, "drop_after_accept": 0,
                       "hold_run_reply_s": 0, "quota_exceeded": False, "unauthorized": [], "real_name_missing": False,
                       "not_enough_balance": False, "arrears": False, "invisible_s": 0,
                       "internal_error_after_create": 0, "terminate_slow_s": 0, "enforce_nonce": False}
        self.instances = []
        self.calls = []
        self.key_pairs = []
        self.security_groups = []
        self.vpcs = []
        self.vswitches = []
        self.nonces = {}
        self.nonce_reuses = 0
        self.page_tokens = {}

    def zones_for(self, region):
        return self.zones.get(region, [region + "-g", region + "-h", region + "-i"])

    def add_vpc(self, region, name, cidr, is_default, token=""):
        vpc = {"VpcId": rand_id("vpc-2ze"), "VpcName": name, "CidrBlock": cidr, "IsDefault": is_default,
               "Status": "Available", "VRouterId": rand_id("vrt-2ze"), "RouteTableId": rand_id("vtb-2ze"),
               "Description": "", "CreationTime": iso_seconds(time.time()), "RegionId": region,
               "client_token": token}
        self.vpcs.append(vpc)
        return vpc

    def add_vswitch(self, vpc, zone, cidr, name, is_default, token=""):
        net = ipaddress.ip_network(cidr)
        vsw = {"VSwitchId": rand_id("vsw-2ze"), "VpcId": vpc["VpcId"], "ZoneId": zone, "CidrBlock": cidr,
               "VSwitchName": name, "Status": "Available", "IsDefault": is_default,
               "AvailableIpAddressCount": max(net.num_addresses - 4, 0), "Description": "",
               "CreationTime": iso_seconds(time.time()), "RegionId": vpc["RegionId"], "client_token": token}
        self.vswitches.append(vsw)
        return vsw


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    state = None  # set in main

    def log_message(self, fmt, *args):
        pass

    # ---- plumbing

    def reply(self, status, obj, content_type="application/json"):
        data = json.dumps(obj, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def api_reply(self, response):
        response = dict(response)
        response["RequestId"] = str(uuid.uuid4()).upper()
        self.reply(200, response, "application/json;charset=utf-8")

    def api_error(self, e, region):
        product = "vpc" if self.headers.get("x-acs-version") == VPC_VERSION else "ecs"
        host = "%s.%s.aliyuncs.com" % (product, region) if region else "%s.aliyuncs.com" % product
        self.reply(e.status, {"RequestId": str(uuid.uuid4()).upper(), "HostId": host, "Code": e.code,
                              "Message": e.message,
                              "Recommend": "https://api.aliyun.com/troubleshoot?q=%s&product=%s"
                                           % (e.code, product.capitalize())},
                   "application/json;charset=utf-8")

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def do_GET(self):
        if self.path == "/_fake/state":
            with self.state.lock:
                st = self.state
                self.reply(200, {"instances": [self.public(i) for i in st.instances], "calls": list(st.calls),
                                 "key_pairs": [dict(k) for k in st.key_pairs],
                                 "security_groups": [dict(g, Permissions=list(g["Permissions"]))
                                                     for g in st.security_groups],
                                 "vpcs": [dict(v) for v in st.vpcs], "vswitches": [dict(v) for v in st.vswitches],
                                 "nonce_reuses": st.nonce_reuses})
            return
        if self.path.startswith("/?") or self.path == "/":
            self.serve_api(b"")
            return
        self.reply(404, {"error": "unknown path"})

    @staticmethod
    def public(inst):
        out = {k: inst[k] for k in ("id", "client_token", "state", "instance_type", "region", "zone", "pricing",
                                    "image_id", "key_name", "user_data", "tags", "subscription_months", "auto_renew",
                                    "spot_strategy", "spot_price_limit", "vswitch_id", "security_group_id",
                                    "charge_type", "internet_max_bandwidth_out")}
        if inst.get("terminate_at") is not None:
            out["terminate_at"] = inst["terminate_at"]
        if inst.get("deleted_at") is not None and inst["state"] == "Stopping":
            # The API shows a released instance as Stopping until it is gone; the fake knows it was released.
            out["state"] = "Terminating"
        return out

    def do_POST(self):
        body = self.read_body()
        if self.path.startswith("/_fake/"):
            try:
                wanted = json.loads(body or b"{}")
            except ValueError:
                self.reply(400, {"ok": False, "error": "not JSON"})
                return
            self.control(self.path, wanted)
            return
        if self.path.startswith("/?") or self.path == "/":
            self.serve_api(body)
            return
        self.reply(404, {"error": "unknown path"})

    def control(self, path, wanted):
        st = self.state
        if path == "/_fake/faults":
            with st.lock:
                for key, value in wanted.items():
                    if key == "running_after":
                        st.running_after = int(value)
                    else:
                        st.faults[key] = value
            self.reply(200, {"ok": True})
        elif path == "/_fake/security_groups":
            group = {"SecurityGroupId": rand_id("sg-2ze"), "SecurityGroupName": wanted.get("name", ""),
                     "Description": "made by the test", "VpcId": wanted.get("vpc_id", ""),
                     "RegionId": wanted.get("region", ""), "SecurityGroupType": "normal",
                     "CreationTime": iso_seconds(time.time()), "Permissions": []}
            with st.lock:
                st.security_groups.append(group)
            self.reply(200, {"ok": True, "id": group["SecurityGroupId"]})
        elif path == "/_fake/vpcs":
            region = wanted.get("region", "")
            with st.lock:
                if wanted.get("default", True):
                    vpc = st.add_vpc(region, "", "172.16.0.0/12", True)
                    for i, zone in enumerate(st.zones_for(region)):
                        st.add_vswitch(vpc, zone, "172.16.%d.0/20" % (16 * i), "", True)
                else:
                    vpc = st.add_vpc(region, wanted.get("name", ""), wanted.get("cidr", "192.168.0.0/16"), False)
            self.reply(200, {"ok": True, "vpc_id": vpc["VpcId"]})
        else:
            self.reply(404, {"error": "unknown path"})

    # ---- API

    def params_of(self, body):
        _, _, query = self.path.partition("?")
        pairs = parse_qsl(query, keep_blank_values=True)
        params = dict(pairs)
        ctype = (self.headers.get("Content-Type") or "").lower()
        if body and ctype.startswith("application/x-www-form-urlencoded"):
            for key, value in parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True):
                params.setdefault(key, value)
        return pairs, params

    def verify(self, pairs, body):
        st = self.state
        auth = self.headers.get("Authorization", "")
        if not auth.startswith("ACS3-HMAC-SHA256 "):
            raise ApiError(400, "IncompleteSignature", "The request signature does not conform to Aliyun standards.")
        parts = {}
        for item in auth[len("ACS3-HMAC-SHA256 "):].split(","):
            name, _, value = item.strip().partition("=")
            parts[name] = value
        if parts.get("Credential") != st.key_id:
            raise ApiError(404, "InvalidAccessKeyId.NotFound", "Specified access key is not found.")
        stamp = self.headers.get("x-acs-date", "")
        try:
            when = calendar.timegm(time.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ"))
        except ValueError:
            raise ApiError(400, "InvalidTimeStamp.Format", "Specified time stamp or date value is not well formatted.")
        if abs(time.time() - when) > SKEW_S:
            raise ApiError(400, "InvalidTimeStamp.Expired", "Specified time stamp or date value is expired.")
        signed = parts.get("SignedHeaders", "").split(";")
        if any(h not in signed for h in SIGNED_REQUIRED) or signed != sorted(signed):
            raise ApiError(400, "IncompleteSignature", "The request signature does not conform to Aliyun standards.")
        payload = hashlib.sha256(body).hexdigest()
        lines = []
        for name in signed:
            value = self.headers.get(name)
            if value is None:
                raise ApiError(400, "IncompleteSignature", "The signed header %s is missing." % name)
            lines.append("%s:%s\n" % (name, value.strip()))
        query = "&".join("%s=%s" % (k, v) for k, v in sorted((rfc3986(k), rfc3986(v)) for k, v in pairs))
        path = self.path.partition("?")[0]
        canonical = "%s\n%s\n%s\n%s\n%s\n%s" % (self.command, path, query, "".join(lines), ";".join(signed), payload)
        sts = "ACS3-HMAC-SHA256\n" + hashlib.sha256(canonical.encode()).hexdigest()
        expected = hmac.new(st.secret.encode(), sts.encode(), hashlib.sha256).hexdigest()
        if self.headers.get("x-acs-content-sha256", "") != payload or \
                not hmac.compare_digest(expected, parts.get("Signature", "")):
            raise ApiError(400, "SignatureDoesNotMatch", "Specified signature is not matched with our calculation.")
        nonce = self.headers.get("x-acs-signature-nonce", "")
        with st.lock:
            now = time.time()
            for old in [n for n, t in st.nonces.items() if now - t > SKEW_S]:
                del st.nonces[old]
            if nonce in st.nonces:
                st.nonce_reuses += 1
                if st.faults.get("enforce_nonce"):
                    raise ApiError(400, "SignatureNonceUsed", "Specified signature nonce was used already.")
            st.nonces[nonce] = now

    def serve_api(self, body):
        pairs, params = self.params_of(body)
        region = params.get("RegionId", "")
        try:
            self.verify(pairs, body)
            self.api(params, region)
        except ApiError as e:
            self.api_error(e, region)

    def api(self, params, region):
        st = self.state
        action = self.headers.get("x-acs-action", "")
        version = self.headers.get("x-acs-version", "")
        actions = ECS_ACTIONS if version == ECS_VERSION else VPC_ACTIONS if version == VPC_VERSION else set()
        if action not in actions:
            raise ApiError(404, "InvalidAction.NotFound", "Specified api is not found, please check your url and "
                                                          "method.")
        with st.lock:
            st.calls.append({"action": action, "region": region, "params": dict(params)})
            if st.faults.get("throttle", 0) > 0:
                st.faults["throttle"] -= 1
                raise ApiError(400, "Throttling.User", "Request was denied due to user flow control.")
            if action in (st.faults.get("unauthorized") or []):
                raise ApiError(403, "Forbidden.RAM", "User not authorized to operate on the specified resource, or "
                                                     "this API doesn't support RAM.")
        if not region:
            raise missing("RegionId")
        getattr(self, "act_" + action)(params, region)

    # ---- VPC

    def act_DescribeVpcs(self, params, region):
        ids = [v for v in params.get("VpcId", "").split(",") if v]
        with self.state.lock:
            vpcs = [v for v in self.state.vpcs if v["RegionId"] == region and (not ids or v["VpcId"] in ids)
                    and (not params.get("VpcName") or v["VpcName"] == params["VpcName"])
                    and ("IsDefault" not in params or v["IsDefault"] == truthy(params["IsDefault"]))]
            out = [{"VpcId": v["VpcId"], "VpcName": v["VpcName"], "CidrBlock": v["CidrBlock"],
                    "IsDefault": v["IsDefault"], "Status": v["Status"], "VRouterId": v["VRouterId"],
                    "RegionId": region, "Description": v["Description"], "CreationTime": v["CreationTime"],
                    "VSwitchIds": {"VSwitchId": [s["VSwitchId"] for s in self.state.vswitches
                                                 if s["VpcId"] == v["VpcId"]]},
                    "UserCidrs": {"UserCidr": []}, "NatGatewayIds": {"NatGatewayIds": []},
                    "RouterTableIds": {"RouterTableIds": [v["RouteTableId"]]}, "Tags": {"Tag": []},
                    "ResourceGroupId": "rg-acfmxazb4ph6aiy", "OwnerId": 1234567890123456}
                   for v in vpcs]
        self.api_reply({"TotalCount": len(out), "PageNumber": 1, "PageSize": max(len(out), 10), "Vpcs": {"Vpc": out}})

    def act_CreateVpc(self, params, region):
        cidr = params.get("CidrBlock") or "172.16.0.0/12"
        try:
            net = ipaddress.ip_network(cidr)
        except ValueError:
            raise ApiError(400, "InvalidCidrBlock.Malformed", "Specified CIDR block is not valid.")  # made-up message
        if net.prefixlen < 8 or net.prefixlen > 28:
            raise ApiError(400, "InvalidCidrBlock.Malformed", "Specified CIDR block is not valid.")
        token = params.get("ClientToken", "")
        with self.state.lock:
            for vpc in self.state.vpcs:
                if token and vpc["client_token"] == token and vpc["RegionId"] == region:
                    if vpc["CidrBlock"] != cidr or vpc["VpcName"] != params.get("VpcName", ""):
                        raise ApiError(400, "IdempotentParameterMismatch",
                                       "The request is retried with updated parameters.")
                    break
            else:
                vpc = self.state.add_vpc(region, params.get("VpcName", ""), cidr, False, token)
                vpc["Description"] = params.get("Description", "")
        self.api_reply({"VpcId": vpc["VpcId"], "VRouterId": vpc["VRouterId"], "RouteTableId": vpc["RouteTableId"],
                        "ResourceGroupId": "rg-acfmxazb4ph6aiy"})

    def act_DescribeVSwitches(self, params, region):
        ids = [v for v in params.get("VSwitchId", "").split(",") if v]
        with self.state.lock:
            found = [s for s in self.state.vswitches if s["RegionId"] == region
                     and (not ids or s["VSwitchId"] in ids)
                     and (not params.get("VpcId") or s["VpcId"] == params["VpcId"])
                     and (not params.get("ZoneId") or s["ZoneId"] == params["ZoneId"])]
            out = [{"VSwitchId": s["VSwitchId"], "VpcId": s["VpcId"], "ZoneId": s["ZoneId"],
                    "CidrBlock": s["CidrBlock"], "Status": s["Status"], "VSwitchName": s["VSwitchName"],
                    "IsDefault": s["IsDefault"], "AvailableIpAddressCount": s["AvailableIpAddressCount"],
                    "Description": s["Description"], "CreationTime": s["CreationTime"],
                    "ResourceGroupId": "rg-acfmxazb4ph6aiy", "NetworkAclId": "", "OwnerId": 1234567890123456,
                    "ShareType": "", "Tags": {"Tag": []}, "RouteTable": {"RouteTableId": "",
                                                                        "RouteTableType": "System"}}
                   for s in found]
        self.api_reply({"TotalCount": len(out), "PageNumber": 1, "PageSize": max(len(out), 10),
                        "VSwitches": {"VSwitch": out}})

    def act_CreateVSwitch(self, params, region):
        for required in ("VpcId", "ZoneId", "CidrBlock"):
            if not params.get(required):
                raise missing(required)
        if params["ZoneId"] not in self.state.zones_for(region):
            raise ApiError(404, "InvalidZoneId.NotFound", "The specified zone does not exist.")
        try:
            net = ipaddress.ip_network(params["CidrBlock"])
        except ValueError:
            raise ApiError(400, "InvalidCidrBlock.Malformed", "Specified CIDR block is not valid.")
        if net.prefixlen < 16 or net.prefixlen > 29:
            raise ApiError(400, "InvalidCidrBlock.Malformed", "Specified CIDR block is not valid.")
        token = params.get("ClientToken", "")
        with self.state.lock:
            vpc = next((v for v in self.state.vpcs if v["VpcId"] == params["VpcId"] and v["RegionId"] == region),
                       None)
            if vpc is None:
                raise ApiError(404, "InvalidVpcId.NotFound", "Specified VPC does not exist.")
            for vsw in self.state.vswitches:
                if token and vsw["client_token"] == token and vsw["RegionId"] == region:
                    if (vsw["VpcId"], vsw["ZoneId"], vsw["CidrBlock"]) != (vpc["VpcId"], params["ZoneId"], str(net)):
                        raise ApiError(400, "IdempotentParameterMismatch",
                                       "The request is retried with updated parameters.")
                    self.api_reply({"VSwitchId": vsw["VSwitchId"]})
                    return
            # Codes as the VPC API names them; the messages are made up.
            if not net.subnet_of(ipaddress.ip_network(vpc["CidrBlock"])):
                raise ApiError(400, "InvalidCidrBlock.Malformed",
                               "Specified CIDR block is not in the CIDR block of the VPC.")
            for other in self.state.vswitches:
                if other["VpcId"] == vpc["VpcId"] and net.overlaps(ipaddress.ip_network(other["CidrBlock"])):
                    raise ApiError(400, "InvalidCidrBlock.Overlapped",
                                   "Specified CIDR block overlapped with other vswitch.")
            vsw = self.state.add_vswitch(vpc, params["ZoneId"], str(net), params.get("VSwitchName", ""), False, token)
        self.api_reply({"VSwitchId": vsw["VSwitchId"]})

    # ---- ECS: images, keys, security groups

    def act_DescribeImages(self, params, region):
        image = {"ImageId": IMAGE_ID, "ImageName": IMAGE_ID, "ImageFamily": "acs:ubuntu_22_04_x64_gpu_fake",
                 "Description": "Ubuntu 22.04 64-bit with the NVIDIA GPU driver and CUDA preinstalled (fake image)",
                 "OSName": "Ubuntu  22.04 64位", "OSNameEn": "Ubuntu  22.04 64 bit", "OSType": "linux",
                 "Platform": "Ubuntu", "Architecture": "x86_64", "ImageOwnerAlias": "system", "Status": "Available",
                 "IsSupportCloudinit": True, "IsSupportIoOptimized": True, "Size": 20, "Progress": "100%",
                 "Usage": "instance", "ImageVersion": "22.04", "BootMode": "BIOS", "IsPublic": True,
                 "CreationTime": "2026-01-01T00:00:00Z", "DiskDeviceMappings": {"DiskDeviceMapping": []},
                 "Tags": {"Tag": []}}
        ok = (not params.get("ImageId") or IMAGE_ID in params["ImageId"].split(",")) \
            and (not params.get("ImageName") or fnmatch(IMAGE_ID, params["ImageName"])) \
            and (not params.get("ImageOwnerAlias") or params["ImageOwnerAlias"] == "system") \
            and (not params.get("OSType") or params["OSType"] == "linux") \
            and (not params.get("Architecture") or params["Architecture"] == "x86_64") \
            and (not params.get("Status") or "Available" in params["Status"].split(","))
        images = [image] if ok else []
        self.api_reply({"RegionId": region, "TotalCount": len(images), "PageNumber": 1, "PageSize": 10,
                        "Images": {"Image": images}})

    def act_DescribeKeyPairs(self, params, region):
        name = params.get("KeyPairName", "")
        with self.state.lock:
            keys = [k for k in self.state.key_pairs if k["RegionId"] == region and (not name or
                                                                                  fnmatch(k["KeyPairName"], name))]
        self.api_reply({"TotalCount": len(keys), "PageNumber": 1, "PageSize": 10, "KeyPairs": {"KeyPair": [
            {"KeyPairName": k["KeyPairName"], "KeyPairFingerPrint": k["KeyPairFingerPrint"],
             "CreationTime": k["CreationTime"], "ResourceGroupId": "", "Tags": {"Tag": []}} for k in keys]}})

    def act_ImportKeyPair(self, params, region):
        name = params.get("KeyPairName", "")
        if not name:
            raise missing("KeyPairName")
        if not params.get("PublicKeyBody"):
            raise missing("PublicKeyBody")
        if len(name) < 2 or len(name) > 128 or not name[0].isalpha() or name.startswith(("http://", "https://")):
            raise ApiError(400, "InvalidKeyPairName.Malformed", "Specified Key Pair name is not valid.")
        fields = params["PublicKeyBody"].split()
        try:
            blob = base64.b64decode(fields[1], validate=True) if len(fields) >= 2 else b""
        except ValueError:
            blob = b""
        if not fields[0].startswith(("ssh-", "ecdsa-")) or not blob:
            raise ApiError(400, "InvalidPublicKeyBody.Malformed", "The PublicKeyBody format is not supported.")
        digest = hashlib.md5(blob).hexdigest()
        with self.state.lock:
            if any(k["KeyPairName"] == name and k["RegionId"] == region for k in self.state.key_pairs):
                raise ApiError(400, "KeyPair.AlreadyExist", "The key pair already exist.")
            key = {"KeyPairName": name, "KeyPairFingerPrint": digest, "PublicKeyBody": params["PublicKeyBody"],
                   "RegionId": region, "CreationTime": iso_seconds(time.time())}
            self.state.key_pairs.append(key)
        self.api_reply({"KeyPairName": name, "KeyPairFingerPrint": digest})

    def act_DescribeSecurityGroups(self, params, region):
        ids = []
        if params.get("SecurityGroupIds"):
            try:
                ids = json.loads(params["SecurityGroupIds"])
            except ValueError:
                raise ApiError(400, "InvalidSecurityGroupIds.Malformed", "The specified SecurityGroupIds is not "
                                                                         "valid.")  # made-up message
        if params.get("SecurityGroupId"):
            ids.append(params["SecurityGroupId"])
        with self.state.lock:
            groups = [g for g in self.state.security_groups if g["RegionId"] == region
                      and (not ids or g["SecurityGroupId"] in ids)
                      and (not params.get("VpcId") or g["VpcId"] == params["VpcId"])
                      and (not params.get("SecurityGroupName")
                           or g["SecurityGroupName"] == params["SecurityGroupName"])]
            out = [{"SecurityGroupId": g["SecurityGroupId"], "SecurityGroupName": g["SecurityGroupName"],
                    "Description": g["Description"], "VpcId": g["VpcId"], "SecurityGroupType": g["SecurityGroupType"],
                    "CreationTime": g["CreationTime"], "ResourceGroupId": "", "ServiceManaged": False,
                    "EcsCount": sum(1 for i in self.state.instances if i["security_group_id"] == g["SecurityGroupId"]
                                    and i["state"] != "Terminated"),
                    "AvailableInstanceAmount": 2000, "RuleCount": len(g["Permissions"]), "GroupToGroupRuleCount": 0,
                    "Tags": {"Tag": []}} for g in groups]
        self.api_reply({"RegionId": region, "TotalCount": len(out), "PageNumber": 1, "PageSize": max(len(out), 10),
                        "NextToken": "", "SecurityGroups": {"SecurityGroup": out}})

    def act_CreateSecurityGroup(self, params, region):
        vpc_id = params.get("VpcId", "")
        if not vpc_id:
            # Documented for regions that only offer VPC instances (all of those GPU types live in).
            raise ApiError(403, "InvalidVpcId.NotFound", "vpc id must not empty when only support vpc vm.")
        name = params.get("SecurityGroupName", "")
        if name and (len(name) < 2 or len(name) > 128 or not name[0].isalpha()
                     or name.startswith(("http://", "https://"))):
            raise ApiError(400, "InvalidSecurityGroupName.Malformed", "Specified security group name is not valid.")
        with self.state.lock:
            if not any(v["VpcId"] == vpc_id and v["RegionId"] == region for v in self.state.vpcs):
                raise ApiError(404, "InvalidVpcId.NotFound", "Specified VPC does not exist.")
            token = params.get("ClientToken", "")
            group = next((g for g in self.state.security_groups if token and g.get("client_token") == token), None)
            if group is None:
                group = {"SecurityGroupId": rand_id("sg-2ze"), "SecurityGroupName": name,
                         "Description": params.get("Description", ""), "VpcId": vpc_id, "RegionId": region,
                         "SecurityGroupType": params.get("SecurityGroupType", "normal"),
                         "CreationTime": iso_seconds(time.time()), "Permissions": [], "client_token": token}
                self.state.security_groups.append(group)
        self.api_reply({"SecurityGroupId": group["SecurityGroupId"]})

    def group_of(self, params, region):
        group_id = params.get("SecurityGroupId", "")
        if not group_id:
            raise missing("SecurityGroupId")
        group = next((g for g in self.state.security_groups
                      if g["SecurityGroupId"] == group_id and g["RegionId"] == region), None)
        if group is None:
            raise ApiError(404, "InvalidSecurityGroupId.NotFound", "The specified SecurityGroupId does not exist.")
        return group

    def act_AuthorizeSecurityGroup(self, params, region):
        fields = ("IpProtocol", "PortRange", "SourceCidrIp", "Policy", "Priority", "Description", "NicType",
                  "DestCidrIp", "SourcePortRange", "SourceGroupId", "Ipv6SourceCidrIp")
        rules = indexed(params, "Permissions", fields)
        if params.get("IpProtocol"):
            rules.insert(0, {f: params[f] for f in fields if f in params})
        if not rules:
            raise missing("IpProtocol")
        made = []
        for rule in rules:
            protocol = rule.get("IpProtocol", "").upper()
            if protocol not in ("TCP", "UDP", "ICMP", "ICMPV6", "GRE", "ALL"):
                raise ApiError(400, "OperationDenied", "The specified IpProtocol does not exist or IpProtocol and "
                                                       "PortRange do not match.")
            ports = rule.get("PortRange", "")
            low, _, high = ports.partition("/")
            if protocol in ("TCP", "UDP") and not (low.isdigit() and high.isdigit()
                                                   and 1 <= int(low) <= int(high) <= 65535):
                raise ApiError(400, "InvalidIpProtocol.Malformed", 'The specified parameter "PortRange" is not '
                                                                   'valid.')
            source = rule.get("SourceCidrIp", "")
            if source:
                try:
                    ipaddress.ip_network(source, strict=False)
                except ValueError:
                    raise ApiError(400, "InvalidSourceCidrIp.Malformed", 'The specified parameter "SourceCidrIp" is '
                                                                         'not valid.')
            policy = rule.get("Policy", "accept").lower()
            if policy not in ("accept", "drop"):
                raise ApiError(400, "InvalidPolicy.Malformed", 'The specified parameter "Policy" is not valid.')
            made.append({"Direction": "ingress", "IpProtocol": protocol, "PortRange": ports, "SourceCidrIp": source,
                         "Policy": policy.capitalize(), "Priority": int(rule.get("Priority") or 1),
                         "NicType": rule.get("NicType", "intranet"), "Description": rule.get("Description", ""),
                         "DestCidrIp": "", "SourceGroupId": rule.get("SourceGroupId", ""),
                         "SourcePortRange": rule.get("SourcePortRange", ""), "CreateTime": iso_seconds(time.time())})
        with self.state.lock:
            group = self.group_of(params, region)
            for rule in made:
                key = lambda r: (r["IpProtocol"], r["PortRange"], r["SourceCidrIp"], r["Policy"], r["Priority"])
                if not any(key(r) == key(rule) for r in group["Permissions"]):  # an existing rule is not added twice
                    group["Permissions"].append(rule)
        self.api_reply({})

    def act_DescribeSecurityGroupAttribute(self, params, region):
        direction = params.get("Direction", "all")
        with self.state.lock:
            group = self.group_of(params, region)
            rules = [dict(r, DestGroupId="", DestGroupName="", DestGroupOwnerAccount="", SourceGroupName="",
                          SourceGroupOwnerAccount="", Ipv6DestCidrIp="", Ipv6SourceCidrIp="",
                          SecurityGroupRuleId="sgr-" + hashlib.md5(json.dumps(r, sort_keys=True).encode())
                          .hexdigest()[:20])
                     for r in group["Permissions"] if direction in ("all", r["Direction"])]
            out = {"SecurityGroupId": group["SecurityGroupId"], "SecurityGroupName": group["SecurityGroupName"],
                   "Description": group["Description"], "VpcId": group["VpcId"], "RegionId": region,
                   "InnerAccessPolicy": "Accept", "Permissions": {"Permission": rules}}
        self.api_reply(out)

    # ---- ECS: stock, price

    def act_DescribeAvailableResource(self, params, region):
        zones = self.state.zones_for(region)
        if params.get("ZoneId"):
            zones = [z for z in zones if z == params["ZoneId"]]
        types = [params["InstanceType"]] if params.get("InstanceType") else [DEFAULT_TYPE]
        with self.state.lock:
            # stale_zone_listing: the listing still says Available where RunInstances finds no stock (it lags).
            sold_out = [] if self.state.faults.get("stale_zone_listing") else \
                list(self.state.faults.get("no_capacity_zones") or [])
        out = []
        for zone in zones:
            stocked = zone not in sold_out
            out.append({"ZoneId": zone, "RegionId": region, "Status": "Available",
                        "StatusCategory": "WithStock" if stocked else "WithoutStock",
                        "AvailableResources": {"AvailableResource": [{
                            "Type": params.get("DestinationResource", "InstanceType"),
                            "SupportedResources": {"SupportedResource": [
                                {"Value": t, "Status": "Available" if stocked else "SoldOut",
                                 "StatusCategory": "WithStock" if stocked else "WithoutStock"} for t in types]}}]}})
        self.api_reply({"AvailableZones": {"AvailableZone": out}})

    def act_DescribePrice(self, params, region):
        if params.get("ResourceType", "instance") != "instance":
            raise ApiError(400, "InvalidResourceType.ValueNotSupported", "The specified parameter ResourceType is not "
                                                                         "valid.")
        if not params.get("InstanceType"):
            raise ApiError(404, "InvalidInstanceType.Missing", "The InstanceType parameter that is mandatory for "
                                                               "processing the request is not provided.")
        unit = params.get("PriceUnit", "Hour")
        period = int(params.get("Period") or 1)
        spot = params.get("SpotStrategy", "NoSpot") in ("SpotWithPriceLimit", "SpotAsPriceGo")
        if unit == "Hour":
            original = HOURLY * period
            trade = (SPOT_HOURLY if spot else HOURLY) * period
        elif unit in ("Month", "Year", "Week"):
            months = {"Month": period, "Year": 12 * period, "Week": period / 4.0}[unit]
            original = MONTHLY * months / 0.85
            trade = MONTHLY * months
        else:
            raise ApiError(400, "InvalidPriceUnit.ValueNotSupported", "The specified parameter PriceUnit is not "
                                                                      "valid.")
        original, trade = round(original, 2), round(trade, 2)
        self.api_reply({"PriceInfo": {
            "Price": {"Currency": "CNY", "OriginalPrice": original, "TradePrice": trade,
                      "DiscountPrice": round(original - trade, 2),
                      "DetailInfos": {"DetailInfo": [{"Resource": "instanceType", "OriginalPrice": original,
                                                      "TradePrice": trade,
                                                      "DiscountPrice": round(original - trade, 2)}]}},
            "Rules": {"Rule": []}}})

    # ---- ECS: instances

    def act_RunInstances(self, params, region):
        st = self.state
        dry_run = truthy(params.get("DryRun", "false"))
        if not params.get("InstanceType"):
            raise ApiError(400, "MissingParameter", "The input parameter InstanceType that is mandatory for "
                                                    "processing this request is not supplied.")
        image_id = params.get("ImageId", "")
        if not image_id and not params.get("ImageFamily"):
            raise ApiError(400, "MissingParameter", "The input parameter ImageId that is mandatory for processing "
                                                    "this request is not supplied.")
        if image_id and image_id != IMAGE_ID:
            raise ApiError(404, "InvalidImageId.NotFound", "The specified ImageId does not exist.")
        image_id = image_id or IMAGE_ID
        token = params.get("ClientToken", "")
        if len(token) > 64 or not token.isascii():
            raise ApiError(400, "InvalidClientToken.ValueNotSupported", "The ClientToken provided is invalid.")
        zone = params.get("ZoneId", "")
        if zone and zone not in st.zones_for(region):
            raise ApiError(404, "InvalidZoneId.NotFound", "The specified zoneId does not exist.")
        charge = params.get("InstanceChargeType", "PostPaid")
        if charge not in ("PostPaid", "PrePaid"):
            raise ApiError(404, "InvalidInstanceChargeType.NotFound", "The InstanceChargeType does not exist in our "
                                                                      "records")
        spot = params.get("SpotStrategy", "NoSpot")
        if spot not in ("NoSpot", "SpotWithPriceLimit", "SpotAsPriceGo"):
            raise ApiError(400, "InvalidSpotStrategy", "The specified SpotStrategy is not valid.")
        if spot != "NoSpot" and charge == "PrePaid":
            raise ApiError(400, "InvalidSpotPrepaid", "The specified Spot type is not support PrePay Instance.")
        price_limit = None
        if spot == "SpotWithPriceLimit":
            try:
                price_limit = float(params.get("SpotPriceLimit", ""))
            except ValueError:
                raise ApiError(400, "InvalidSpotPriceLimit", "The specified SpotPriceLimitis not valid.")
            if price_limit <= 0:
                raise ApiError(400, "InvalidSpotPriceLimit", "The specified SpotPriceLimitis not valid.")
        months = 0
        if charge == "PrePaid":
            if not params.get("Period"):
                raise ApiError(400, "MissingParamter", 'The specified parameter "Period" is not null.')  # sic
            unit = params.get("PeriodUnit", "Month")
            if unit not in ("Month", "Week") or not params["Period"].isdigit() or \
                    int(params["Period"]) not in ((1, 2, 3, 4) if unit == "Week" else
                                                  (1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 24, 36, 48, 60)):
                raise ApiError(400, "InvalidPeriod", "The specified period is not valid.")
            months = int(params["Period"]) if unit == "Month" else 0
        terminate_at = None
        if params.get("AutoReleaseTime"):
            try:
                when = calendar.timegm(time.strptime(params["AutoReleaseTime"], "%Y-%m-%dT%H:%M:%SZ"))
            except ValueError:
                when = None
            when = when and when - when % 60  # Alibaba drops the seconds
            if when is None or when < time.time() + 30 * 60 or when > time.time() + 3 * 366 * 86400:
                raise ApiError(400, "InvalidAutoReleaseTime.Malformed", "The specified parameter AutoReleaseTime is "
                                                                        "not valid.")
            if charge == "PrePaid":  # no documented code: AutoReleaseTime is for pay-as-you-go instances only
                raise ApiError(400, "InvalidParameter", "AutoReleaseTime applies to pay-as-you-go instances only.")
            terminate_at = when
        decoded = ""
        if params.get("UserData"):
            try:
                raw = base64.b64decode(params["UserData"], validate=True)
            except ValueError:
                raise ApiError(400, "InvalidUserData.Base64FormatInvalid", "The specified parameter UserData is not "
                                                                           "valid Base64.")  # made-up message
            if len(raw) > 32 * 1024:
                raise ApiError(400, "InvalidUserData.SizeExceeded", 'The specified parameter "UserData" exceeds the '
                                                                    'size.')
            try:
                decoded = user_data_text(raw)
            except OSError:
                decoded = raw.decode("utf-8", "replace")
        amount = int(params.get("Amount") or 1)
        bandwidth = int(params.get("InternetMaxBandwidthOut") or 0)
        if bandwidth < 0 or bandwidth > 100:
            raise ApiError(400, "InvalidInternetMaxBandwidthOut.ValueNotSupported",
                           'The specified parameter "InternetMaxBandwidthOut" is not valid.')
        tags = {t.get("Key", ""): t.get("Value", "") for t in indexed(params, "Tag", ("Key", "Value"))}
        with st.lock:
            vswitch_id = params.get("VSwitchId", "")
            group_id = params.get("SecurityGroupId", "")
            vsw = None
            if vswitch_id:
                vsw = next((s for s in st.vswitches if s["VSwitchId"] == vswitch_id and s["RegionId"] == region),
                           None)
                if vsw is None:
                    raise ApiError(404, "InvalidVSwitchId.NotFound", "Specified virtual switch does not exist.")
                if zone and vsw["ZoneId"] != zone:
                    raise ApiError(400, "InvalidParameter.Mismatch", "Specified virtual switch is not in the "
                                                                     "specified zone.")
                zone = vsw["ZoneId"]
            elif not dry_run:
                raise ApiError(400, "InvalidVSwitchId.Necessary", "The VSwitchId is necessary")
            if group_id:
                group = next((g for g in st.security_groups
                              if g["SecurityGroupId"] == group_id and g["RegionId"] == region), None)
                if group is None:
                    raise ApiError(404, "InvalidSecurityGroupId.NotFound", "The specified SecurityGroupId does not "
                                                                           "exist.")
                if vsw is not None and group["VpcId"] != vsw["VpcId"]:
                    raise ApiError(400, "InvalidParameter.Mismatch", "Specified security group and virtual switch are "
                                                                     "not in the same VPC.")
            elif not dry_run:
                raise missing("SecurityGroupId")
            key_name = params.get("KeyPairName", "")
            if key_name and not any(k["KeyPairName"] == key_name and k["RegionId"] == region for k in st.key_pairs):
                # no code documented in RunInstances' table; the one ECS uses for an unknown key pair
                raise ApiError(404, "InvalidKeyPairName.NotFound", "The specified KeyPairName does not exist.")
            comparable = {k: v for k, v in params.items() if k != "DryRun"}
            if token and not dry_run:
                same = [i for i in st.instances if i["client_token"] == token and i["region"] == region]
                if same:
                    if same[0]["params"] != comparable:
                        raise ApiError(400, "IdempotentParameterMismatch", "The request is retried with updated "
                                                                           "parameters.")
                    if st.faults.get("internal_error_after_create", 0) > 0:
                        st.faults["internal_error_after_create"] -= 1  # a retry with the token fails the same way
                        raise ApiError(500, "InternalError", "The request processing has failed due to some unknown "
                                                             "error.")
                    self.run_answer([i["id"] for i in same], same[0])
                    return
            if st.faults.get("quota_exceeded"):
                raise ApiError(403, "QuotaExceed.ElasticQuota", "No additional quota is available for the specified "
                                                                "ECS instance type.")
            if st.faults.get("real_name_missing"):
                raise ApiError(403, "RealNameAuthenticationError", "Your account has not passed the real-name "
                                                                   "authentication yet.")
            if st.faults.get("not_enough_balance"):
                raise ApiError(403, "InvalidAccountStatus.NotEnoughBalance", "Your account does not have enough "
                                                                             "balance.")
            if st.faults.get("arrears"):
                raise ApiError(400, "Account.Arrearage", "Your account has been in arrears.")
            if zone and zone in (st.faults.get("no_capacity_zones") or []):
                raise ApiError(403, "OperationDenied.NoStock", "The resource is out of stock in the specified zone. "
                                                               "Please try other types, or choose other regions and "
                                                               "zones.")
            if dry_run:
                raise ApiError(400, "DryRunOperation", "Request validation has been passed with DryRun flag set.")
            now = time.time()
            made = []
            for n in range(amount):
                subnet = ipaddress.ip_network(vsw["CidrBlock"])
                inst = {"id": rand_id("i-2ze"), "client_token": token, "state": "Pending",
                        "instance_type": params["InstanceType"], "region": region, "zone": zone,
                        "pricing": "subscription" if charge == "PrePaid" else "spot" if spot != "NoSpot"
                        else "on_demand",
                        "image_id": image_id, "key_name": key_name, "user_data": decoded, "tags": tags,
                        "subscription_months": months, "auto_renew": truthy(params.get("AutoRenew", "false")),
                        "terminate_at": terminate_at, "spot_strategy": spot, "spot_price_limit": price_limit,
                        "vswitch_id": vswitch_id, "vpc_id": vsw["VpcId"], "security_group_id": group_id,
                        "charge_type": charge, "internet_max_bandwidth_out": bandwidth,
                        "private_ip": str(subnet.network_address + 10 + len(st.instances) + n),
                        "name": params.get("InstanceName", ""),
                        "params": comparable, "describes": 0, "created_at": now, "gone": False,
                        "expires_at": add_months(now, months) if charge == "PrePaid" else None,
                        "order_id": str(random.randint(10 ** 14, 10 ** 15 - 1)) if charge == "PrePaid" else ""}
                st.instances.append(inst)
                made.append(inst)
            if st.faults.get("internal_error_after_create", 0) > 0:
                st.faults["internal_error_after_create"] -= 1
                raise ApiError(500, "InternalError", "The request processing has failed due to some unknown error.")
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
        self.run_answer([i["id"] for i in made], made[0])

    def run_answer(self, ids, inst):
        price = {"subscription": MONTHLY * inst["subscription_months"], "spot": SPOT_HOURLY}.get(inst["pricing"],
                                                                                                  HOURLY)
        answer = {"InstanceIdSets": {"InstanceIdSet": ids}, "TradePrice": round(price * len(ids), 2)}
        if inst["order_id"]:
            answer["OrderId"] = inst["order_id"]
        self.api_reply(answer)

    def describe_one(self, inst):
        public = inst["state"] == "Running" and inst["internet_max_bandwidth_out"] > 0
        return {"InstanceId": inst["id"], "InstanceName": inst["name"], "HostName": inst["id"],
                "Status": inst["state"], "InstanceType": inst["instance_type"],
                "InstanceTypeFamily": ".".join(inst["instance_type"].split(".")[:2]), "ZoneId": inst["zone"],
                "RegionId": inst["region"], "ImageId": inst["image_id"], "OSType": "linux",
                "OSName": "Ubuntu  22.04 64位", "OSNameEn": "Ubuntu  22.04 64 bit", "Cpu": 8, "Memory": 30720,
                "GPUAmount": 1, "GPUSpec": "NVIDIA A10", "InstanceNetworkType": "vpc", "IoOptimized": True,
                "VpcAttributes": {"VpcId": inst["vpc_id"], "VSwitchId": inst["vswitch_id"], "NatIpAddress": "",
                                  "PrivateIpAddress": {"IpAddress": [inst["private_ip"]]}},
                "InnerIpAddress": {"IpAddress": []},
                "PublicIpAddress": {"IpAddress": ["127.0.0.1"] if public else []},
                "EipAddress": {"IpAddress": "", "AllocationId": "", "InternetChargeType": ""},
                "InternetMaxBandwidthOut": inst["internet_max_bandwidth_out"], "InternetChargeType": "PayByTraffic",
                "SecurityGroupIds": {"SecurityGroupId": [inst["security_group_id"]]},
                "KeyPairName": inst["key_name"], "InstanceChargeType": inst["charge_type"],
                "SpotStrategy": inst["spot_strategy"], "SpotPriceLimit": inst["spot_price_limit"] or 0.0,
                "SpotDuration": 1 if inst["spot_strategy"] != "NoSpot" else 0,
                "SpotInterruptionBehavior": "Terminate",
                "CreationTime": iso_minutes(inst["created_at"]),
                "StartTime": iso_minutes(inst["created_at"]) if inst["state"] != "Pending" else "",
                "ExpiredTime": iso_minutes(inst["expires_at"]) if inst["expires_at"] else NEVER_EXPIRES,
                "AutoReleaseTime": iso_seconds(inst["terminate_at"]) if inst["terminate_at"] else "",
                "OperationLocks": {"LockReason": []}, "DeletionProtection": False, "StoppedMode": "Not-applicable",
                "Tags": {"Tag": [{"TagKey": k, "TagValue": v} for k, v in inst["tags"].items()]},
                "MetadataOptions": {"HttpEndpoint": "enabled", "HttpTokens": "optional"},
                "NetworkInterfaces": {"NetworkInterface": []}, "ResourceGroupId": "", "Description": "",
                "SerialNumber": str(uuid.uuid5(uuid.NAMESPACE_OID, inst["id"]))}

    def visible(self, inst):
        """Eventual consistency (invisible_s): a new instance is not seen by reads for a while."""
        return time.time() - inst["created_at"] >= float(self.state.faults.get("invisible_s") or 0)

    def act_DescribeInstances(self, params, region):
        st = self.state
        ids = None
        if params.get("InstanceIds"):
            try:
                ids = json.loads(params["InstanceIds"])
                if not isinstance(ids, list):
                    raise ValueError
            except ValueError:
                raise ApiError(400, "InvalidInstanceIds.Malformed", "The specified parameter InstancesIds is not "
                                                                    "valid.")
        tag_filters = indexed(params, "Tag", ("Key", "Value"))
        statuses = [params["Status"]] if params.get("Status") else None
        use_token = "MaxResults" in params or "NextToken" in params
        if use_token:
            size = int(params.get("MaxResults") or 10)
            if size < 1 or size > 100:
                raise ApiError(400, "InvalidParameter.MaxResults", "The specified MaxResults is not valid.")
        else:
            size = min(int(params.get("PageSize") or 10), 100)
        with st.lock:
            if use_token:
                token = params.get("NextToken", "")
                if token and token not in st.page_tokens:
                    raise ApiError(400, "InvalidParameter.NextToken", "The specified NextToken is not valid.")
                offset = st.page_tokens.get(token, 0) if token else 0
            else:
                offset = (max(int(params.get("PageNumber") or 1), 1) - 1) * size

            def matches(i):
                return i["region"] == region and not i["gone"] and self.visible(i) \
                    and (ids is None or i["id"] in ids) \
                    and (not params.get("ZoneId") or i["zone"] == params["ZoneId"]) \
                    and (not params.get("VpcId") or i["vpc_id"] == params["VpcId"]) \
                    and (statuses is None or i["state"] in statuses) \
                    and all(t.get("Key") in i["tags"] and (t.get("Value") is None
                                                          or i["tags"][t["Key"]] == t["Value"]) for t in tag_filters)
            matched = [i for i in st.instances if matches(i)]
            page = matched[offset:offset + size]
            out = [self.describe_one(i) for i in page]
            for inst in page:
                if inst["state"] == "Pending":
                    inst["describes"] += 1
                    if inst["describes"] >= st.running_after:
                        inst["state"] = "Running"
                elif inst["state"] == "Stopping" and \
                        time.time() - inst.get("deleted_at", 0) >= float(st.faults.get("terminate_slow_s") or 0):
                    inst["gone"] = True  # this answer was the last one that lists it
                    inst["state"] = "Terminated"
            next_token = ""
            if use_token and offset + size < len(matched):
                next_token = uuid.uuid4().hex
                st.page_tokens[next_token] = offset + size
        answer = {"TotalCount": len(matched), "PageSize": size, "Instances": {"Instance": out}}
        if use_token:
            answer["NextToken"] = next_token
        else:
            answer["PageNumber"] = offset // size + 1
        self.api_reply(answer)

    def act_DeleteInstances(self, params, region):
        ids = [e.get("") for e in indexed(params, "InstanceId", ()) if e.get("")]
        if not ids:
            raise missing("InstanceId.1")
        force = truthy(params.get("Force", "false"))
        with self.state.lock:
            found = []
            for instance_id in ids:
                inst = next((i for i in self.state.instances if i["id"] == instance_id and i["region"] == region),
                            None)
                if inst is None or inst["gone"] or not self.visible(inst):
                    raise ApiError(404, "InvalidInstanceId.NotFound", "The specified InstanceId does not exist.")
                found.append(inst)
            for inst in found:
                if inst["charge_type"] == "PrePaid" and inst["expires_at"] and inst["expires_at"] > time.time():
                    raise ApiError(403, "ChargeTypeViolation", "The operation is not permitted due to charge type of "
                                                               "the instance.")
                if inst["state"] == "Running" and not force:
                    raise ApiError(403, "IncorrectInstanceStatus", "The current status of the resource does not "
                                                                   "support this operation.")
            if truthy(params.get("DryRun", "false")):
                raise ApiError(400, "DryRunOperation", "Request validation has been passed with DryRun flag set.")
            for inst in found:
                if inst["state"] != "Stopping":
                    inst["state"] = "Stopping"
                    inst["deleted_at"] = time.time()
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
