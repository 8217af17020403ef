#!/usr/bin/env python3
"""A FAKE of Huawei Cloud ECS (with the VPC v1, IMS and IAM calls a launch needs) for GPU Planner's flow tests.

It is not Huawei Cloud: it answers the REST calls HuaweiProvider makes, on one loopback port for every service and
region, in the documented JSON shapes, and it produces on demand the faults a real cloud will not (throttling, sold-out
zones, dropped connections, slow replies, quota, balance, real-name and permission errors).

    python3 fake_huawei_ecs.py --port-file FILE [--access-key-id ID --secret-key KEY] [--running-after N]
                               [--zones-REGION Z1,Z2,...] [--project-id-REGION ID]

Binds 127.0.0.1 on a free port, writes the port to FILE (FILE.tmp, then renamed), serves until killed
(ThreadingHTTPServer, HTTP/1.1).

Where the shapes come from
- Paths, methods, header and body names: the official SDK models, tests/integration/sdk/node_modules/@huaweicloud/
  huaweicloud-sdk-ecs and -vpc (EcsClient.js / VpcClient.js ParamCreater), and the API reference
  https://support.huaweicloud.com/api-ecs/ (CreateServers ecs_02_0101, ShowServer, ListServersDetails, DeleteServers
  ecs_02_0103, ShowJob), https://support.huaweicloud.com/api-vpc/ (VPC v1), https://support.huaweicloud.com/api-ims/
  (ListImages), https://support.huaweicloud.com/api-iam/iam_06_0001.html (KeystoneListProjects,
  tests/data/huawei/keystone-list-projects.json).
- Signing: SDK-HMAC-SHA256 as https://support.huaweicloud.com/devg-apisign/api-sign-algorithm-003.html describes and
  @huaweicloud/huaweicloud-sdk-core auth/AKSKSigner.js computes it: canonical request = method, the path with every
  segment URI-encoded and a trailing "/", the query sorted by name then value (RFC 3986 encoding), "name:value\\n" of
  each SignedHeaders header as sent (Host included, so 127.0.0.1:PORT), the SignedHeaders list, and hex SHA-256 of the
  body (or the X-Sdk-Content-Sha256 value); string to sign "SDK-HMAC-SHA256\\n<X-Sdk-Date>\\n<hex SHA-256 of it>";
  signature hex HMAC-SHA256(SK, string to sign). Every API request's signature is recomputed. A '+' in the query
  reads as a space (the SDK's HTTP client, axios, sends a space as '+' and signs it as %20).
- Error codes: ECS https://support.huaweicloud.com/api-ecs/ecs_07_0002.html, API Gateway (APIGW.*)
  https://support.huaweicloud.com/devg-apisign/api-sign-0001.html and the APIG error code list.

Behaviour
- Regions. Every path carries {project_id}; the region is the one whose project id it is. Project ids: a fixed 32-hex
  id per region (MD5 of "gpuplanner-fake:" + region) unless --project-id-REGION gives one. KeystoneListProjects
  (GET /v3/projects[?name=R]) lists the known regions; asked for a region by name it knows (and answers) every region,
  as the fake's world has them all. IMS (GET /v2/cloudimages) has no project in its path: its region comes from the
  X-Project-Id header the SDK sends (BasicCredentials.getAuthHeaderName); a missing or unknown one answers 401
  APIGW.0301. An unknown project id in a path answers 404 APIGW.0101 (no such API for that project: assumption).
- Zones: --zones-REGION, else REGIONa, REGIONb, REGIONc (cn-north-4a/b/c). Flavors: a fixed GPU catalog (pi2.2xlarge.4,
  p2s.2xlarge.8, p2v.16xlarge.8, g6.xlarge.4) plus any flavor a server was created with; CreateServers accepts any
  flavorRef.
  ListFlavors' os_extra_specs: "cond:operation:status" normal, "cond:operation:az" "<zone>(normal|sellout),...",
  and the same for "cond:spot:operation:*"; a zone in no_capacity_zones reads "(sellout)" unless stale_zone_listing.
- ListImages lists one public (gold) Ubuntu image per region whose name says it carries the NVIDIA driver (fake data).
- ShowVpc / ShowSubnet (GET /v1/{project_id}/vpcs/{id}, /subnets/{id}) answer one of them as the listings do (404
  {"code": "VPC.0101"/"VPC.0202", "message"} when absent: codes plausible). ShowPermanentAccessKey (IAM, GET
  /v3.0/OS-CREDENTIAL/credentials/{AK}) answers {"credential": {"user_id", "access", "status": "active", ...}} for the
  configured AK (a fixed user id), else 404 IAM.0004 (plausible). CreateServers with prePaid and a key_name requires
  server.metadata.op_svc_userid = that user id (PrePaidServer's model: required for prePaid with an SSH key pair).
- A fresh project has NO VPC, subnet, security group or key pair. CreateVpc answers status "CREATING", CreateSubnet
  "UNKNOWN"; the first List/Show that shows them still does, the next ones read "OK" (VPC) / "ACTIVE" (subnet): the
  status enums of the SDK's Vpc (CREATING, OK, ERROR) and Subnet (ACTIVE, UNKNOWN, ERROR) models.
  A new security group gets the two default egress rules (IPv4 and IPv6, all protocols), as VPC v1 documents.
  NovaCreateKeypair with a taken name answers 409 {"conflictingRequest": {"message", "code": 409}} (Nova's shape).
- Servers. CreateServers (v1.1) validates the body (imageRef, flavorRef, name, vpcid, nics[].subnet_id, the zone, the
  VPC, subnet and security groups, key_name, user_data base64 <= 32 KB decoded, auto_terminate_time only for postPaid)
  and creates the server at once: status BUILD, then ACTIVE (floating address 127.0.0.1 in addresses) after
  `running_after` ShowServer/ListServersDetails answers that listed it. It answers 200 {"job_id", "serverIds"} (+
  "order_id" for prePaid); a prePaid order without isAutoPay "true" creates nothing and answers {"order_id"} only (the
  order waits for payment). ShowJob: RUNNING on its first answer, then SUCCESS (or FAIL, below),
  entities.sub_jobs[{status, entities {server_id}}].
- Sold out: a zone in no_capacity_zones lets CreateServers accept the request and makes its job FAIL (error_code
  "Ecs.0319", fail_reason "Check capacity: Capacity is not enough." - the ECS error page's text for Ecs.0319 -, the
  sub-job's fail_reason "Flavor <id> is sold out."; nothing is created and serverIds is empty). The ECS error page
  lists Ecs.0319 with HTTP 400 but also says most ECS APIs are asynchronous and such codes show in the job; which one
  the real create does is not documented, so the fault sold_out_sync true makes CreateServers itself answer 400
  {"error": {"code": "Ecs.0319", ...}} instead.
- X-Client-Token: at most 64 characters (assumption: ECS's SDK documents neither a format nor a limit). The same token
  with the same body answers the same job_id and serverIds and creates nothing; with another body it answers 400
  Ecs.0005 (ECS documents no code for a reused token: plausible). A token whose create was refused or sold out is
  not bound.
- dry_run true: the checks run, nothing is created, and a passing check answers 202 with "{}" (CreateServersRequestBody
  in Huawei's SDKs, e.g. huaweicloud-sdk-go-v3 services/ecs/v2/model: "如果检查通过，则返回202状态码"; the body is not
  documented).
- ShowServer of an unknown id: 404 {"error": {"code": "Ecs.0114", "message": "Instance[<id>] could not be found."}}.
- ListServersDetails: offset is a page number (from 1; 0 reads as 1), limit defaults to 25 (max 1000); `tags` keeps the
  servers that carry exactly that tag string "key=value" (a key alone matches only a tag with an empty value:
  the doc says "查询tag字段中包含该值的云服务器" and the tag field lists "key=value"; the fake is strict on purpose).
- DeleteServers: a prePaid server answers 400 {"error": {"code": "Ecs.0000", "message": "Only ECSs billed in the
  pay-per-use mode can be deleted."}} (the delete page says only pay-per-use ECSs can be deleted; the code is not
  documented: Ecs.0000 "Request error" is a plausible one) and nothing is deleted. Otherwise {"job_id"}; the next
  ShowServer/ListServersDetails answer shows status DELETED ("OS-EXT-STS:vm_state" deleted) and is the last one
  (then 404 / left out). An unknown id answers 404 Ecs.0114. With terminate_slow_s S the server first reads, for S
  seconds, as Huawei shows a server being deleted: its old status (ACTIVE) with "OS-EXT-STS:task_state" "deleting".
- /_fake/state "state": BUILD, ACTIVE, then "Terminating" from DeleteServers until the answer that last lists it, then
  "Terminated" (FakeCloud.h's liveInstances counts "terminating"/"terminated" as gone; the API status is as above).

Control (not part of the API)
- GET /_fake/state: {"instances": [{"id", "client_token", "state", "instance_type", "region", "zone", "pricing"
  (on_demand|spot|subscription), "image_id", "key_name", "user_data" (decoded), "tags" {key: value},
  "subscription_months", "auto_renew", "terminate_at" (Unix s, when auto_terminate_time was given), "spot_price"
  (string or null), "subnet_id", "security_group_ids", "charging_mode"}], "calls": [{"action" (the SDK operation
  name), "region", "method", "path", "params" (query), "body", "client_token"}], "key_pairs", "security_groups",
  "vpcs", "subnets"}.
- POST /_fake/faults (JSON merged into the faults):
  throttle N         next N API calls answer 429 {"error_msg": "The throttling threshold has been reached: policy
                     user over ratelimit,limit:...", "error_code": "APIGW.0308", "request_id"};
  no_capacity_zones [zones], stale_zone_listing, sold_out_sync (see Sold out);
  drop_after_accept N   next N CreateServers create, then close the connection without an answer;
  hold_run_reply_s S    the next CreateServers creates, then waits S s before answering (once);
  quota_exceeded     CreateServers answers 400 Ecs.0001 "Insufficient ECS quota. ...";
  unauthorized [actions]  those calls answer 403 "Policy doesn't allow <IAM action> to be performed." - ECS calls in
                     ECS's shape with code Ecs.0003 (documented as "You do not have permission or your balance is
                     insufficient"), VPC/IMS/IAM calls in the gateway shape with APIGW.0302 (the IAM user is not
                     authorized): the exact denial body of fine-grained IAM policies is not documented (plausible);
  real_name_missing  CreateServers answers 403 Ecs.0003 with a message about real-name authentication (实名认证; no
                     dedicated code was found in the ECS error page: plausible);
  not_enough_balance / arrears   CreateServers answers 403 Ecs.0003, the message saying the balance is insufficient
                     / the account is in arrears (frozen);
  running_after N;
  invisible_s S      for S s after CreateServers, ShowServer answers 404 Ecs.0114, ListServersDetails leaves the
                     server out and DeleteServers answers 404 Ecs.0114 (eventual consistency);
  internal_error_after_create N   next N CreateServers create (or find by their token), then answer 500
                     {"error": {"code": "Ecs.0615", "message": "An error has occurred in the request from an ECS."}}
                     (a documented 500);
  terminate_slow_s S (see DeleteServers).
- BSS price inquiries ListOnDemandResourceRatings and ListRateOnPeriodDetail answer in the documented shape with
  made-up prices (30.00 CNY an hour pay-per-use, 15,000.00 CNY a month yearly/monthly).
- POST /_fake/security_groups {"region", "vpc_id", "name"}: a group without any ingress rule; answers {"ok", "id"}.
- POST /_fake/vpcs {"region"}: someone else's VPC, named "vpc-default" (192.168.0.0/16, with a subnet); answers
  {"ok", "id"}.

Signature errors (401, gateway shape {"error_msg", "error_code", "request_id"}): an unknown AK "Incorrect IAM
authentication information: Get secretKey failed,ak:<AK>,err:ak not exist" (APIGW.0301, documented); a wrong signature
"Incorrect IAM authentication information: verify aksk signature fail" (APIGW.0301, documented); X-Sdk-Date more than
15 minutes from the fake's clock: APIGW.0301 "Incorrect IAM authentication information: verify aksk signature fail"
with a note on the date (the signing guide lists the skew under that error; its exact text is not documented).
Unknown paths: 404 APIGW.0101 "The API does not exist or has not been published in the environment". Every answer
carries a random X-Request-Id header.
"""

import argparse
import base64
import calendar
import datetime
import gzip
import hashlib
import hmac
import json
import os
import random
import re
import socket
import string
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import quote, unquote_plus

SIGNING = "SDK-HMAC-SHA256"
SKEW_S = 15 * 60
USER_DATA_MAX = 32 * 1024
OWNER_IMAGE = "Ubuntu 22.04 server 64bit with NVIDIA GPU Driver (fake)"
FLAVORS = [("pi2.2xlarge.4", 8, 32768, "NVIDIA T4", 1), ("p2s.2xlarge.8", 8, 65536, "NVIDIA V100", 1),
           ("p2v.16xlarge.8", 64, 524288, "NVIDIA V100", 8), ("g6.xlarge.4", 4, 16384, "", 0)]

# The IAM action each SDK operation needs (for the unauthorized fault's message).
IAM_ACTIONS = {
    "CreateServers": "ecs:cloudServers:create", "ShowServer": "ecs:cloudServers:get",
    "ListServersDetails": "ecs:cloudServers:list", "DeleteServers": "ecs:cloudServers:delete",
    "ShowJob": "ecs:cloudServers:get", "NovaCreateKeypair": "ecs:serverKeypairs:create",
    "NovaShowKeypair": "ecs:serverKeypairs:get", "ListFlavors": "ecs:cloudServerFlavors:get",
    "NovaListAvailabilityZones": "ecs:availabilityZones:list", "ListImages": "ims:images:list",
    "ListVpcs": "vpc:vpcs:list", "CreateVpc": "vpc:vpcs:create", "ListSubnets": "vpc:subnets:list",
    "CreateSubnet": "vpc:subnets:create", "ListSecurityGroups": "vpc:securityGroups:list",
    "CreateSecurityGroup": "vpc:securityGroups:create", "CreateSecurityGroupRule": "vpc:securityGroupRules:create",
    "KeystoneListProjects": "iam:projects:listProjects", "ShowVpc": "vpc:vpcs:get", "ShowSubnet": "vpc:subnets:get",
    "ShowPermanentAccessKey": "iam:credentials:getCredential",
    "ListOnDemandResourceRatings": "bss:discount:view", "ListRateOnPeriodDetail": "bss:discount:view"}
ECS_ACTIONS = {"CreateServers", "ShowServer", "ListServersDetails", "DeleteServers", "ShowJob", "NovaCreateKeypair",
               "NovaShowKeypair", "ListFlavors", "NovaListAvailabilityZones"}

P = r"(?P<pid>[^/]+)"
ROUTES = [  # (method, path pattern, action); the first match wins
    ("GET", r"/v3/projects", "KeystoneListProjects"),
    ("GET", r"/v3\.0/OS-CREDENTIAL/credentials/(?P<id>[^/]+)", "ShowPermanentAccessKey"),
    ("GET", r"/v2/cloudimages", "ListImages"),
    ("GET", r"/v2\.1/" + P + r"/os-availability-zone", "NovaListAvailabilityZones"),
    ("GET", r"/v2\.1/" + P + r"/os-keypairs/(?P<name>[^/]+)", "NovaShowKeypair"),
    ("POST", r"/v2\.1/" + P + r"/os-keypairs", "NovaCreateKeypair"),
    ("GET", r"/v1/" + P + r"/cloudservers/flavors", "ListFlavors"),
    ("GET", r"/v1/" + P + r"/cloudservers/detail", "ListServersDetails"),
    ("POST", r"/v1/" + P + r"/cloudservers/delete", "DeleteServers"),
    ("GET", r"/v1/" + P + r"/cloudservers/(?P<id>[^/]+)", "ShowServer"),
    ("POST", r"/v1\.1/" + P + r"/cloudservers", "CreateServers"),
    ("GET", r"/v1/" + P + r"/jobs/(?P<id>[^/]+)", "ShowJob"),
    ("GET", r"/v1/" + P + r"/vpcs", "ListVpcs"),
    ("POST", r"/v1/" + P + r"/vpcs", "CreateVpc"),
    ("GET", r"/v1/" + P + r"/vpcs/(?P<id>[^/]+)", "ShowVpc"),
    ("GET", r"/v1/" + P + r"/subnets", "ListSubnets"),
    ("POST", r"/v1/" + P + r"/subnets", "CreateSubnet"),
    ("GET", r"/v1/" + P + r"/subnets/(?P<id>[^/]+)", "ShowSubnet"),
    ("GET", r"/v1/" + P + r"/security-groups", "ListSecurityGroups"),
    ("POST", r"/v1/" + P + r"/security-groups", "CreateSecurityGroup"),
    ("POST", r"/v1/" + P + r"/security-group-rules", "CreateSecurityGroupRule"),
    ("POST", r"/v2/bills/ratings/on-demand-resources", "ListOnDemandResourceRatings"),
    ("POST", r"/v2/bills/ratings/period-resources/subscribe-rate", "ListRateOnPeriodDetail"),
]
ROUTES = [(m, re.compile(p + r"/?$"), a) for m, p, a in ROUTES]


def user_data_text(encoded):
    """The user data as cloud-init reads it: base64-decoded, then gunzipped when it is gzip."""
    raw = base64.b64decode(encoded, validate=True)
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return raw


def new_uuid():
    return str(uuid.uuid4())


def hex32():
    return uuid.uuid4().hex


def iso_now(offset_s=0):
    return datetime.datetime.fromtimestamp(time.time() + offset_s, datetime.timezone.utc).strftime(
        "%Y-%m-%dT%H:%M:%SZ")


def project_id_for(region):
    return hashlib.md5(("gpuplanner-fake:" + region).encode()).hexdigest()


def sdk_encode(text):
    """AKSKSigner.urlEncode: RFC 3986, unreserved A-Z a-z 0-9 - _ . ~ kept, UTF-8 bytes percent-encoded."""
    return quote(text, safe="-_.~")


class ApiError(Exception):
    """An answer other than 2xx: HTTP status and body (request_id filled in when the body has the key)."""

    def __init__(self, status, body):
        super().__init__(json.dumps(body))
        self.status = status
        self.body = body


def ecs_error(status, code, message):
    return ApiError(status, {"error": {"code": code, "message": message}})


def gateway_error(status, code, message):
    return ApiError(status, {"error_msg": message, "error_code": code, "request_id": None})


def vpc_error(status, code, message):
    # VPC v1 error body: {"NeutronError"...} for Neutron paths, {"code", "message"} for VPC's own (api-vpc error codes).
    return ApiError(status, {"code": code, "message": message})


def not_found(server_id):
    return ecs_error(404, "Ecs.0114", "Instance[%s] could not be found." % server_id)


class State:
    def __init__(self, args, zones, project_ids):
        self.lock = threading.Lock()
        self.key_id = args.access_key_id
        self.secret = args.secret_key
        self.running_after = args.running_after
        self.zones = zones
        self.faults = {"throttle": 0, "no_capacity_zones": [], "stale_zone_listing": False, "sold_out_sync": False,
                       "drop_after_accept": 0, "hold_run_reply_s": 0, "quota_exceeded": False, "unauthorized": [],
                       "real_name_missing": False, "not_enough_balance": False, "arrears": False, "invisible_s": 0,
                       "internal_error_after_create": 0, "terminate_slow_s": 0}
        self.projects = {}  # project id -> region
        self.region_projects = {}
        for region in ["cn-north-4", "cn-north-1", "cn-east-3", "cn-south-1", "ap-southeast-1"] + list(zones):
            self.project(region)
        for region, pid in project_ids.items():
            self.region_projects[region] = pid
            self.projects[pid] = region
        self.domain_id = hashlib.md5(b"gpuplanner-fake-domain").hexdigest()
        self.user_id = hashlib.md5(b"gpuplanner-fake-user").hexdigest()
        self.servers = []
        self.jobs = {}
        self.tokens = {}  # (region, token) -> {"body", "job_id", "server_ids", "order_id"}
        self.calls = []
        self.key_pairs = []
        self.security_groups = []
        self.vpcs = []
        self.subnets = []
        self.extra_flavors = {}

    def project(self, region):
        if region not in self.region_projects:
            pid = project_id_for(region)
            self.region_projects[region] = pid
            self.projects[pid] = region
        return self.region_projects[region]

    def zones_for(self, region):
        return self.zones.get(region, [region + "a", region + "b", region + "c"])


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    state = None  # set in main

    def log_message(self, fmt, *args):
        pass

    # ---- plumbing

    def reply(self, status, obj, request_id=None):
        data = b"" if obj is None else json.dumps(obj, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json;charset=UTF-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("X-Request-Id", request_id or hex32())
        self.end_headers()
        self.wfile.write(data)

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def do_GET(self):
        self.handle_any("GET")

    def do_POST(self):
        self.handle_any("POST")

    def do_DELETE(self):
        self.handle_any("DELETE")

    def do_PUT(self):
        self.handle_any("PUT")

    def handle_any(self, method):
        body = self.read_body()
        path = self.path.partition("?")[0]
        if path.startswith("/_fake/"):
            self.control(method, path, body)
            return
        request_id = hex32()
        try:
            self.api(method, body, request_id)
        except ApiError as e:
            out = dict(e.body)
            if "request_id" in out:
                out["request_id"] = request_id
            self.reply(e.status, out, request_id)

    # ---- control

    def control(self, method, path, body):
        st = self.state
        if method == "GET" and path == "/_fake/state":
            with st.lock:
                self.reply(200, {"instances": [self.public(s) for s in st.servers], "calls": list(st.calls),
                                 "key_pairs": list(st.key_pairs), "security_groups": list(st.security_groups),
                                 "vpcs": list(st.vpcs), "subnets": list(st.subnets)})
            return
        try:
            wanted = json.loads(body or b"{}")
        except ValueError:
            self.reply(400, {"ok": False, "error": "not JSON"})
            return
        if method == "POST" and path == "/_fake/faults":
            with st.lock:
                for key, value in wanted.items():
                    if key == "running_after":
                        st.running_after = int(value)
                    else:
                        st.faults[key] = value
            self.reply(200, {"ok": True})
            return
        if method == "POST" and path == "/_fake/security_groups":
            with st.lock:
                group = self.new_group(wanted.get("region", ""), wanted.get("name", ""), wanted.get("vpc_id", ""),
                                       "made by the test", with_egress=False)
            self.reply(200, {"ok": True, "id": group["id"]})
            return
        if method == "POST" and path == "/_fake/vpcs":
            region = wanted.get("region", "")
            with st.lock:
                vpc = {"id": new_uuid(), "name": wanted.get("name", "vpc-default"), "cidr": "192.168.0.0/16",
                       "status": "OK", "description": "someone else's VPC (made by the test)", "routes": [],
                       "enterprise_project_id": "0", "region": region, "listed": True}
                st.vpcs.append(vpc)
                st.subnets.append({"id": new_uuid(), "name": "subnet-default", "cidr": "192.168.0.0/24",
                                   "gateway_ip": "192.168.0.1", "vpc_id": vpc["id"], "availability_zone": "",
                                   "status": "ACTIVE", "region": region, "listed": True, "dhcp_enable": True,
                                   "neutron_network_id": new_uuid(), "neutron_subnet_id": new_uuid()})
            self.reply(200, {"ok": True, "id": vpc["id"]})
            return
        self.reply(404, {"error": "unknown path"})

    @staticmethod
    def public(s):
        out = {k: s[k] for k in ("id", "client_token", "state", "instance_type", "region", "zone", "pricing",
                                 "image_id", "key_name", "user_data", "tags", "subscription_months", "auto_renew",
                                 "spot_price", "subnet_id", "security_group_ids", "charging_mode")}
        if s.get("terminate_at") is not None:
            out["terminate_at"] = s["terminate_at"]
        return out

    # ---- signature

    def verify(self, method, body):
        auth = self.headers.get("Authorization", "")
        if not auth.startswith(SIGNING + " "):
            raise gateway_error(401, "APIGW.0301", "Incorrect IAM authentication information: unsupported "
                                                   "authorization (expected " + SIGNING + ")")
        parts = {}
        for item in auth[len(SIGNING) + 1:].split(","):
            name, _, value = item.strip().partition("=")
            parts[name] = value
        access = parts.get("Access", "")
        if access != self.state.key_id:
            raise gateway_error(401, "APIGW.0301", "Incorrect IAM authentication information: Get secretKey failed,"
                                                   "ak:%s,err:ak not exist" % access)
        fail = "Incorrect IAM authentication information: verify aksk signature fail"
        sdk_date = self.headers.get("X-Sdk-Date", "")
        try:
            when = calendar.timegm(time.strptime(sdk_date, "%Y%m%dT%H%M%SZ"))
        except ValueError:
            raise gateway_error(401, "APIGW.0301", fail + ", x-sdk-date missing or not yyyyMMddTHHmmssZ")
        if abs(time.time() - when) > SKEW_S:
            raise gateway_error(401, "APIGW.0301", fail + ", x-sdk-date %s is more than 15 minutes from the server "
                                                          "time" % sdk_date)
        signed = parts.get("SignedHeaders", "")
        names = signed.split(";")
        if "x-sdk-date" not in names or "host" not in names:
            raise gateway_error(401, "APIGW.0301", fail)
        lines = []
        for name in names:
            value = self.headers.get(name)
            if value is None:
                raise gateway_error(401, "APIGW.0301", fail)
            lines.append("%s:%s\n" % (name, value.strip()))
        raw_path, _, raw_query = self.path.partition("?")
        uri = "/".join(sdk_encode(seg) for seg in raw_path.split("/"))  # the path as sent, as AKSKSigner does
        if not uri.endswith("/"):
            uri += "/"
        pairs = []
        for item in raw_query.split("&"):
            if not item:
                continue
            key, _, value = item.partition("=")
            # '+' is a space: the SDK's HTTP client (axios) sends a space as '+' and signs it as %20.
            pairs.append((sdk_encode(unquote_plus(key)), sdk_encode(unquote_plus(value))))
        pairs.sort()
        query = "&".join("%s=%s" % kv for kv in pairs)
        payload = self.headers.get("X-Sdk-Content-Sha256") or hashlib.sha256(body).hexdigest()
        canonical = "\n".join([method, uri, query, "".join(lines), signed, payload])
        to_sign = "%s\n%s\n%s" % (SIGNING, sdk_date, hashlib.sha256(canonical.encode()).hexdigest())
        expected = hmac.new(self.state.secret.encode(), to_sign.encode(), hashlib.sha256).hexdigest()
        if not hmac.compare_digest(expected, parts.get("Signature", "")):
            raise gateway_error(401, "APIGW.0301", fail)

    # ---- API

    def api(self, method, body, request_id):
        self.verify(method, body)
        raw_path, _, raw_query = self.path.partition("?")
        params = {}
        for item in raw_query.split("&"):
            if not item:
                continue
            key, _, value = item.partition("=")
            params.setdefault(unquote_plus(key), unquote_plus(value))
        route = None
        for m, pattern, action in ROUTES:
            match = pattern.match(raw_path)
            if match and m == method:
                route = (action, match.groupdict())
                break
        if route is None:
            raise gateway_error(404, "APIGW.0101", "The API does not exist or has not been published in the "
                                                   "environment")
        action, groups = route
        st = self.state
        region = ""
        pid = groups.get("pid") or (self.headers.get("X-Project-Id") if action == "ListImages" else None)
        if action == "ListImages" and not pid:
            raise gateway_error(401, "APIGW.0301", "Incorrect IAM authentication information: the X-Project-Id "
                                                   "header is required for a region-level service")
        try:
            payload = json.loads(body) if body else {}
        except ValueError:
            payload = None
        with st.lock:
            if pid is not None:
                region = st.projects.get(pid, "")
            st.calls.append({"action": action, "region": region, "method": method, "path": raw_path,
                             "params": params, "body": payload, "client_token": self.headers.get("X-Client-Token")})
            if pid is not None and not region:
                if action == "ListImages":
                    raise gateway_error(401, "APIGW.0301", "Incorrect IAM authentication information: project "
                                                           "%s not found" % pid)
                raise gateway_error(404, "APIGW.0101", "The API does not exist or has not been published in the "
                                                       "environment")
            if st.faults.get("throttle", 0) > 0:
                st.faults["throttle"] -= 1
                raise gateway_error(429, "APIGW.0308", "The throttling threshold has been reached: policy user over "
                                                       "ratelimit,limit:100,time:1 minute")
            if action in (st.faults.get("unauthorized") or []):
                message = "Policy doesn't allow %s to be performed." % IAM_ACTIONS[action]
                if action in ECS_ACTIONS:
                    raise ecs_error(403, "Ecs.0003", message)
                raise gateway_error(403, "APIGW.0302", message)
        if payload is None:
            raise ecs_error(400, "Ecs.0005", "Invalid request body.")
        getattr(self, "act_" + action)(region, params, payload, groups, request_id)

    # ---- IAM

    def act_KeystoneListProjects(self, region, params, body, groups, request_id):
        st = self.state
        with st.lock:
            name = params.get("name")
            if name:
                st.project(name)
            regions = [name] if name else sorted(st.region_projects)
            projects = [{"domain_id": st.domain_id, "is_domain": False, "parent_id": st.domain_id, "name": r,
                         "description": "", "links": {"next": None, "previous": None,
                                                      "self": "https://iam.myhuaweicloud.com/v3/projects/"
                                                              + st.region_projects[r]},
                         "id": st.region_projects[r], "enabled": True} for r in regions]
        self.reply(200, {"projects": projects, "links": {"next": None, "previous": None,
                                                         "self": "https://iam.myhuaweicloud.com/v3/projects"}},
                   request_id)

    # ---- BSS price inquiries (global, no project in the path): the documented answer shapes
    # (tests/data/huawei/period-rating.json; ListOnDemandResourceRatings' 响应参数) with MADE-UP prices: 30.00 CNY an
    # hour pay-per-use (official_website_amount), 15,000.00 CNY a month yearly/monthly, times the months asked.

    def rating_results(self, body):
        return [{"id": item.get("id"), "product_id": "fake-product", "amount": 0, "discount_amount": 0,
                 "official_website_amount": 0, "measure_id": 1, "extend_params": None}
                for item in (body or {}).get("product_infos", [])]

    def act_ListOnDemandResourceRatings(self, region, params, body, groups, request_id):
        results = self.rating_results(body)
        for r in results:
            r.update({"amount": 27.0, "discount_amount": 3.0, "official_website_amount": 30.0})
        self.reply(200, {"amount": 27.0 * len(results), "discount_amount": 3.0 * len(results),
                         "official_website_amount": 30.0 * len(results), "measure_id": 1, "currency": "CNY",
                         "product_rating_results": results}, request_id)

    def act_ListRateOnPeriodDetail(self, region, params, body, groups, request_id):
        results = self.rating_results(body)
        months = max([int(item.get("period_num", 1)) * (12 if item.get("period_type") == 3 else 1)
                      for item in (body or {}).get("product_infos", [])] or [1])
        for r in results:
            r.update({"amount": 13500.0 * months, "discount_amount": 1500.0 * months,
                      "official_website_amount": 15000.0 * months})
        self.reply(200, {"official_website_rating_result": {
            "official_website_amount": 15000.0 * months * len(results), "measure_id": 1,
            "product_rating_results": results}, "optional_discount_rating_results": [], "currency": "CNY"},
            request_id)

    def act_ShowPermanentAccessKey(self, region, params, body, groups, request_id):
        st = self.state
        if unquote_plus(groups["id"]) != st.key_id:
            raise gateway_error(404, "IAM.0004", "Could not find credential: %s." % groups["id"])
        self.reply(200, {"credential": {"user_id": st.user_id, "access": st.key_id, "status": "active",
                                        "created_at": "2026-01-01T00:00:00.000000Z", "description": "",
                                        "last_use_time": iso_now()}}, request_id)

    # ---- zones, flavors, images

    def act_NovaListAvailabilityZones(self, region, params, body, groups, request_id):
        self.reply(200, {"availabilityZoneInfo": [{"zoneName": z, "zoneState": {"available": True}, "hosts": None}
                                                  for z in self.state.zones_for(region)]}, request_id)

    def act_ListFlavors(self, region, params, body, groups, request_id):
        st = self.state
        zones = st.zones_for(region)
        with st.lock:
            stale = bool(st.faults.get("stale_zone_listing"))
            sold_out = [] if stale else list(st.faults.get("no_capacity_zones") or [])
            catalog = list(FLAVORS) + [(f, 8, 32768, "", 0) for f in st.extra_flavors
                                       if f not in [x[0] for x in FLAVORS]]
        wanted_zone = params.get("availability_zone")
        per_az = ",".join("%s(%s)" % (z, "sellout" if z in sold_out else "normal") for z in zones)
        flavors = []
        for name, vcpus, ram, gpu, gpus in catalog:
            specs = {"ecs:performancetype": "gpu" if gpu else "computingv3", "ecs:virtualization_env_types":
                     "CloudCompute", "resource_type": "IOoptimizedS6", "cond:operation:status": "normal",
                     "cond:operation:az": per_az, "cond:spot:operation:status": "normal",
                     "cond:spot:operation:az": per_az, "cond:network": "switch", "cond:storage": "scsi,localdisk",
                     "quota:max_rate": "10000", "quota:min_rate": "3000", "quota:max_pps": "1000000"}
            if gpu:
                specs.update({"pci_passthrough:enable_gpu": "true", "info:gpu:name": gpu,
                              "pci_passthrough:gpu_specs": "%s:%d" % (gpu.split()[-1], gpus),
                              "quota:gpu": "%s:%d" % (gpu.split()[-1], gpus)})
            flavors.append({"id": name, "name": name, "vcpus": str(vcpus), "ram": ram, "disk": "0", "swap": "",
                            "OS-FLV-EXT-DATA:ephemeral": 0, "OS-FLV-DISABLED:disabled": False, "rxtx_factor": 1,
                            "rxtx_quota": None, "rxtx_cap": None, "os-flavor-access:is_public": True,
                            "links": [], "os_extra_specs": specs, "attachableQuantity": None})
        if wanted_zone and wanted_zone not in zones:
            flavors = []
        if params.get("flavor_id"):
            flavors = [f for f in flavors if f["id"] == params["flavor_id"]]
        self.reply(200, {"flavors": flavors}, request_id)

    def act_ListImages(self, region, params, body, groups, request_id):
        image = {"id": project_id_for("image:" + region)[:8] + "-fake-gpu-ubuntu", "name": OWNER_IMAGE,
                 "__platform": "Ubuntu", "__os_type": "Linux", "__os_version": "Ubuntu 22.04 server 64bit",
                 "__imagetype": "gold", "__isregistered": "true", "__os_bit": "64", "status": "active",
                 "visibility": "public", "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-01T00:00:00Z",
                 "min_disk": 40, "min_ram": 0, "disk_format": "zvhd2", "protected": True,
                 "virtual_env_type": "FusionCompute",
                 "__support_kvm": "true", "__support_kvm_gpu_type": "pi2", "__support_kvm_infiniband": None,
                 "__image_source_type": "uds", "file": "", "self": "", "schema": "/v2/schemas/image",
                 "tags": [], "architecture": "x86", "__imagesize": "10737418240", "owner": ""}
        if params.get("__imagetype") not in (None, "gold") or params.get("__os_type") not in (None, "Linux"):
            images = []
        else:
            images = [image]
        self.reply(200, {"images": images}, request_id)

    # ---- key pairs

    def act_NovaShowKeypair(self, region, params, body, groups, request_id):
        name = unquote_plus(groups["name"])
        with self.state.lock:
            key = next((k for k in self.state.key_pairs if k["name"] == name and k["region"] == region), None)
        if key is None:
            raise ApiError(404, {"itemNotFound": {"message": "Keypair %s not found." % name, "code": 404}})
        self.reply(200, {"keypair": {"name": key["name"], "public_key": key["public_key"],
                                     "fingerprint": key["fingerprint"], "id": key["id"], "user_id": hex32(),
                                     "created_at": key["created_at"], "deleted": False, "deleted_at": None,
                                     "updated_at": None}}, request_id)

    def act_NovaCreateKeypair(self, region, params, body, groups, request_id):
        wanted = body.get("keypair") or {}
        name = wanted.get("name", "")
        if not name or len(name) > 64 or not all(c.isalnum() or c in "-_" for c in name):
            raise ApiError(400, {"badRequest": {"message": "Keypair data is invalid: Keypair name contains unsafe "
                                                           "characters", "code": 400}})
        public_key = wanted.get("public_key", "")
        blob = public_key.split()[1] if len(public_key.split()) >= 2 else ""
        try:
            raw = base64.b64decode(blob, validate=True)
        except ValueError:
            raw = b""
        if public_key and not raw:
            raise ApiError(400, {"badRequest": {"message": "Keypair data is invalid: failed to generate fingerprint",
                                                "code": 400}})
        digest = hashlib.md5(raw).hexdigest()
        with self.state.lock:
            if any(k["name"] == name and k["region"] == region for k in self.state.key_pairs):
                raise ApiError(409, {"conflictingRequest": {"message": "Key pair '%s' already exists." % name,
                                                            "code": 409}})
            key = {"name": name, "public_key": public_key, "region": region, "id": random.randint(1, 10 ** 6),
                   "fingerprint": ":".join(digest[i:i + 2] for i in range(0, 32, 2)), "created_at": iso_now()}
            self.state.key_pairs.append(key)
        self.reply(200, {"keypair": {"name": name, "public_key": public_key, "fingerprint": key["fingerprint"],
                                     "user_id": hex32()}}, request_id)

    # ---- VPC v1

    @staticmethod
    def mature(items, show):
        """A VPC or subnet created CREATING/UNKNOWN reads usable from the second listing that shows it on; the
        listing of `items`, made by show()."""
        for item in items:
            if item.get("listed"):
                item["status"] = item.get("ready_status", item["status"])
        out = [show(item) for item in items]
        for item in items:
            item["listed"] = True
        return out

    @staticmethod
    def public_vpc(v):
        return {k: v[k] for k in ("id", "name", "cidr", "status", "description", "routes", "enterprise_project_id")}

    @staticmethod
    def public_subnet(s):
        out = {k: s[k] for k in ("id", "name", "cidr", "gateway_ip", "vpc_id", "availability_zone", "status",
                                 "dhcp_enable", "neutron_network_id", "neutron_subnet_id")}
        out.update({"primary_dns": "100.125.1.250", "secondary_dns": "100.125.21.250", "ipv6_enable": False,
                    "description": ""})
        return out

    def act_ListVpcs(self, region, params, body, groups, request_id):
        with self.state.lock:
            vpcs = [v for v in self.state.vpcs if v["region"] == region and params.get("id") in (None, v["id"])]
            out = self.mature(vpcs, self.public_vpc)
        limit = int(params.get("limit") or 2000)
        self.reply(200, {"vpcs": out[:limit]}, request_id)

    def act_ShowVpc(self, region, params, body, groups, request_id):
        with self.state.lock:
            vpcs = [v for v in self.state.vpcs if v["region"] == region and v["id"] == groups["id"]]
            if not vpcs:
                raise vpc_error(404, "VPC.0101", "Vpc %s could not be found." % groups["id"])
            out = self.mature(vpcs, self.public_vpc)[0]
        self.reply(200, {"vpc": out}, request_id)

    def act_ShowSubnet(self, region, params, body, groups, request_id):
        with self.state.lock:
            subnets = [x for x in self.state.subnets if x["region"] == region and x["id"] == groups["id"]]
            if not subnets:
                raise vpc_error(404, "VPC.0202", "Subnet %s could not be found." % groups["id"])
            out = self.mature(subnets, self.public_subnet)[0]
        self.reply(200, {"subnet": out}, request_id)

    def act_CreateVpc(self, region, params, body, groups, request_id):
        wanted = body.get("vpc") or {}
        cidr = wanted.get("cidr", "")
        if cidr and not re.match(r"^(10\.0\.0\.0/8|172\.16\.0\.0/12|192\.168\.0\.0/16|"
                                 r"\d+\.\d+\.\d+\.\d+/(1[2-9]|2[0-8]|8))$", cidr):
            raise vpc_error(400, "VPC.0002", "Invalid cidr")
        vpc = {"id": new_uuid(), "name": wanted.get("name", ""), "cidr": cidr, "status": "CREATING",
               "ready_status": "OK", "description": wanted.get("description", ""), "routes": [],
               "enterprise_project_id": "0", "region": region, "listed": False}
        with self.state.lock:
            self.state.vpcs.append(vpc)
            out = self.public_vpc(vpc)
        self.reply(200, {"vpc": out}, request_id)

    def act_ListSubnets(self, region, params, body, groups, request_id):
        vpc_id = params.get("vpc_id")
        with self.state.lock:
            subnets = [s for s in self.state.subnets if s["region"] == region and (not vpc_id or s["vpc_id"] == vpc_id)]
            out = self.mature(subnets, self.public_subnet)
        self.reply(200, {"subnets": out}, request_id)

    def act_CreateSubnet(self, region, params, body, groups, request_id):
        wanted = body.get("subnet") or {}
        for field in ("name", "cidr", "gateway_ip", "vpc_id"):
            if not wanted.get(field):
                raise vpc_error(400, "VPC.0202", "%s is required" % field)
        with self.state.lock:
            if not any(v["id"] == wanted["vpc_id"] and v["region"] == region for v in self.state.vpcs):
                raise vpc_error(404, "VPC.0202", "vpc %s not found" % wanted["vpc_id"])
            zone = wanted.get("availability_zone", "")
            if zone and zone not in self.state.zones_for(region):
                raise vpc_error(400, "VPC.0202", "invalid availability_zone %s" % zone)
            if any(s["vpc_id"] == wanted["vpc_id"] and s["cidr"] == wanted["cidr"] for s in self.state.subnets):
                raise vpc_error(400, "VPC.0202", "cidr %s conflicts with another subnet" % wanted["cidr"])
            subnet = {"id": new_uuid(), "name": wanted["name"], "cidr": wanted["cidr"],
                      "gateway_ip": wanted["gateway_ip"], "vpc_id": wanted["vpc_id"], "availability_zone": zone,
                      "status": "UNKNOWN", "ready_status": "ACTIVE", "region": region, "listed": False,
                      "dhcp_enable": wanted.get("dhcp_enable", True), "neutron_network_id": new_uuid(),
                      "neutron_subnet_id": new_uuid()}
            self.state.subnets.append(subnet)
            out = self.public_subnet(subnet)
        self.reply(200, {"subnet": out}, request_id)

    def new_group(self, region, name, vpc_id, description, with_egress=True):
        group = {"id": new_uuid(), "name": name, "description": description, "vpc_id": vpc_id,
                 "enterprise_project_id": "0", "region": region, "security_group_rules": []}
        if with_egress:
            for ethertype in ("IPv4", "IPv6"):
                group["security_group_rules"].append(
                    {"id": new_uuid(), "direction": "egress", "ethertype": ethertype, "protocol": None,
                     "port_range_min": None, "port_range_max": None, "remote_ip_prefix": None,
                     "remote_group_id": None, "security_group_id": group["id"], "description": "",
                     "tenant_id": ""})
        self.state.security_groups.append(group)
        return group

    @staticmethod
    def public_group(g):
        return {k: g[k] for k in ("id", "name", "description", "vpc_id", "enterprise_project_id",
                                  "security_group_rules")}

    def act_ListSecurityGroups(self, region, params, body, groups, request_id):
        vpc_id = params.get("vpc_id")
        with self.state.lock:
            out = [self.public_group(g) for g in self.state.security_groups
                   if g["region"] == region and (not vpc_id or g["vpc_id"] == vpc_id)]
        self.reply(200, {"security_groups": json.loads(json.dumps(out))}, request_id)

    def act_CreateSecurityGroup(self, region, params, body, groups, request_id):
        wanted = body.get("security_group") or {}
        if not wanted.get("name"):
            raise vpc_error(400, "VPC.0601", "name is required")
        with self.state.lock:
            group = self.new_group(region, wanted["name"], wanted.get("vpc_id", ""), wanted.get("description", ""))
            out = json.loads(json.dumps(self.public_group(group)))
        self.reply(200, {"security_group": out}, request_id)

    def act_CreateSecurityGroupRule(self, region, params, body, groups, request_id):
        wanted = body.get("security_group_rule") or {}
        if wanted.get("direction") not in ("ingress", "egress"):
            raise vpc_error(400, "VPC.0602", "direction must be ingress or egress")
        with self.state.lock:
            group = next((g for g in self.state.security_groups
                          if g["id"] == wanted.get("security_group_id") and g["region"] == region), None)
            if group is None:
                raise vpc_error(404, "VPC.0602", "security group %s not found" % wanted.get("security_group_id"))
            rule = {"id": new_uuid(), "direction": wanted["direction"], "ethertype": wanted.get("ethertype", "IPv4"),
                    "protocol": wanted.get("protocol"), "port_range_min": wanted.get("port_range_min"),
                    "port_range_max": wanted.get("port_range_max"),
                    "remote_ip_prefix": wanted.get("remote_ip_prefix"), "remote_group_id": None,
                    "security_group_id": group["id"], "description": wanted.get("description", ""), "tenant_id": ""}
            same = [r for r in group["security_group_rules"]
                    if all(r[k] == rule[k] for k in ("direction", "ethertype", "protocol", "port_range_min",
                                                     "port_range_max", "remote_ip_prefix"))]
            if same:
                raise vpc_error(409, "VPC.0604", "Security group rule already exists.")
            group["security_group_rules"].append(rule)
        self.reply(200, {"security_group_rule": dict(rule)}, request_id)

    # ---- servers

    def visible(self, server):
        return time.time() - server["created_at"] >= float(self.state.faults.get("invisible_s") or 0)

    def validate_create(self, region, body):
        """The checks CreateServers (and its dry run) make; returns the parsed launch."""
        st = self.state
        server = body.get("server")
        if not isinstance(server, dict):
            raise ecs_error(400, "Ecs.0005", "Invalid request body.")
        for field in ("imageRef", "flavorRef", "name", "vpcid"):
            if not server.get(field):
                raise ecs_error(400, "Ecs.0005", "Parameter [%s] is required." % field)
        name = server["name"]
        if len(name) > 64:
            raise ecs_error(400, "Ecs.0914", "Invalid length of ECS [%d]." % len(name))
        if not re.match(r"^[\w.\-\u4e00-\u9fa5]+$", name):
            raise ecs_error(400, "Ecs.0915", "ECS name [%s] contains invalid characters." % name)
        nics = server.get("nics") or []
        if not nics or not all(isinstance(n, dict) and n.get("subnet_id") for n in nics):
            raise ecs_error(400, "Ecs.0005", "Parameter [nics] is invalid.")
        zone = server.get("availability_zone") or st.zones_for(region)[0]
        if zone not in st.zones_for(region):
            raise ecs_error(400, "Ecs.0005", "Invalid availability_zone [%s]." % zone)
        if int(server.get("count", 1)) != 1:
            raise ecs_error(400, "Ecs.0913", "Invalid number of ECSs.")
        vpc = next((v for v in st.vpcs if v["id"] == server["vpcid"] and v["region"] == region), None)
        if vpc is None:
            raise ecs_error(400, "Ecs.0005", "VPC [%s] does not exist." % server["vpcid"])
        for nic in nics:
            subnet = next((s for s in st.subnets if s["id"] == nic["subnet_id"] and s["region"] == region), None)
            if subnet is None or subnet["vpc_id"] != vpc["id"]:
                raise ecs_error(400, "Ecs.0005", "Subnet [%s] does not exist in VPC [%s]." % (nic["subnet_id"],
                                                                                             vpc["id"]))
            if subnet["availability_zone"] and subnet["availability_zone"] != zone:
                raise ecs_error(400, "Ecs.0005", "Subnet [%s] is not in availability zone [%s]."
                                % (nic["subnet_id"], zone))
        group_ids = []
        for group in server.get("security_groups") or []:
            gid = (group or {}).get("id", "")
            if not any(g["id"] == gid and g["region"] == region for g in st.security_groups):
                raise ecs_error(400, "Ecs.0005", "Security group [%s] does not exist." % gid)
            group_ids.append(gid)
        key_name = server.get("key_name") or ""
        if key_name and not any(k["name"] == key_name and k["region"] == region for k in st.key_pairs):
            raise ecs_error(400, "Ecs.0005", "Keypair [%s] does not exist." % key_name)
        user_data = server.get("user_data") or ""
        try:
            decoded = user_data_text(user_data) if user_data else b""
        except ValueError:
            raise ecs_error(400, "Ecs.0005", "user_data must be base64 encoded.")
        if len(base64.b64decode(user_data or "")) > USER_DATA_MAX:
            raise ecs_error(400, "Ecs.0005", "user_data is larger than 32 KB before encoding.")
        ext = server.get("extendparam") or {}
        charging = str(ext.get("chargingMode", "postPaid"))
        if charging not in ("postPaid", "prePaid", "0", "1"):
            raise ecs_error(400, "Ecs.0005", "Invalid chargingMode [%s]." % charging)
        prepaid = charging in ("prePaid", "1")
        spot = ext.get("marketType") == "spot"
        if spot and prepaid:
            raise ecs_error(400, "Ecs.0005", "Spot ECSs must be billed in pay-per-use mode.")
        months = 0
        if prepaid:
            period_type, period_num = ext.get("periodType"), int(ext.get("periodNum") or 0)
            if period_type == "month" and 1 <= period_num <= 9:
                months = period_num
            elif period_type == "year" and 1 <= period_num <= 3:
                months = 12 * period_num
            else:
                raise ecs_error(400, "Ecs.0005", "Invalid periodType/periodNum.")
        for flag in ("isAutoRenew", "isAutoPay"):
            if flag in ext and ext[flag] not in ("true", "false"):
                raise ecs_error(400, "Ecs.0005", "%s must be the string \"true\" or \"false\"." % flag)
        if prepaid and key_name and (server.get("metadata") or {}).get("op_svc_userid") != st.user_id:
            # PrePaidServer.metadata: op_svc_userid is required for prePaid with an SSH key pair
            # (huaweicloud-sdk-python-v3 pre_paid_server.py; /work/shared/reference/provider_launch_apis.md 2.2)
            raise ecs_error(400, "Ecs.0005", "metadata.op_svc_userid (the IAM user id) is required for a prePaid ECS "
                                             "with a key pair.")
        terminate_at = None
        if server.get("auto_terminate_time"):
            if prepaid:
                raise ecs_error(400, "Ecs.0005", "auto_terminate_time is only for pay-per-use ECSs.")
            try:
                terminate_at = calendar.timegm(time.strptime(server["auto_terminate_time"], "%Y-%m-%dT%H:%M:%SZ"))
            except ValueError:
                raise ecs_error(400, "Ecs.0005", "Invalid auto_terminate_time [%s]." % server["auto_terminate_time"])
        spot_price = ext.get("spotPrice") if spot else None
        if spot_price is not None and not isinstance(spot_price, str):
            raise ecs_error(400, "Ecs.0005", "spotPrice must be a string.")
        tags = {}
        for tag in server.get("server_tags") or []:
            if tag.get("key") in tags:
                raise ecs_error(400, "Ecs.0908", "The tag key cannot be duplicate.")
            tags[tag.get("key")] = tag.get("value", "")
        if len(tags) > 10:
            raise ecs_error(400, "Ecs.0905", "The number of tags cannot be greater than 10.")
        return {"zone": zone, "vpc": vpc, "subnet_id": nics[0]["subnet_id"], "group_ids": group_ids,
                "key_name": key_name, "user_data": decoded.decode("utf-8", "replace"), "prepaid": prepaid,
                "spot": spot, "months": months, "auto_renew": ext.get("isAutoRenew") == "true",
                "auto_pay": ext.get("isAutoPay") == "true", "terminate_at": terminate_at,
                "spot_price": spot_price, "tags": tags, "name": name}

    def account_faults(self):
        f = self.state.faults
        if f.get("real_name_missing"):
            raise ecs_error(403, "Ecs.0003", "You do not have permission or your balance is insufficient: the account "
                                             "has not completed real-name authentication (实名认证).")
        if f.get("arrears"):
            raise ecs_error(403, "Ecs.0003", "You do not have permission or your balance is insufficient: the account "
                                             "is in arrears (frozen).")
        if f.get("not_enough_balance"):
            raise ecs_error(403, "Ecs.0003", "You do not have permission or your balance is insufficient: the account "
                                             "balance is insufficient.")
        if f.get("quota_exceeded"):
            raise ecs_error(400, "Ecs.0001", "Insufficient ECS quota. Contact customer service to increase quota.")

    def act_CreateServers(self, region, params, body, groups, request_id):
        st = self.state
        token = self.headers.get("X-Client-Token") or ""
        if len(token) > 64:
            raise ecs_error(400, "Ecs.0005", "X-Client-Token is longer than 64 characters.")
        dry_run = body.get("dry_run") is True
        comparable = {k: v for k, v in body.items() if k != "dry_run"}
        with st.lock:
            if token and not dry_run and (region, token) in st.tokens:
                bound = st.tokens[(region, token)]
                if bound["body"] != comparable:
                    raise ecs_error(400, "Ecs.0005", "X-Client-Token [%s] was used with another request body."
                                    % token)
                if st.faults.get("internal_error_after_create", 0) > 0:
                    st.faults["internal_error_after_create"] -= 1  # a retry with the token fails the same way
                    raise ecs_error(500, "Ecs.0615", "An error has occurred in the request from an ECS.")
                answer = bound["answer"]
                self.reply(200, answer, request_id)
                return
            launch = self.validate_create(region, body)
            self.account_faults()
            flavor = body["server"]["flavorRef"]
            sold_out = launch["zone"] in (st.faults.get("no_capacity_zones") or [])
            if dry_run:
                pass
            elif sold_out and st.faults.get("sold_out_sync"):
                raise ecs_error(400, "Ecs.0319", "Check capacity: Capacity is not enough.")
        if dry_run:
            self.reply(202, {}, request_id)
            return
        with st.lock:
            job_id = hex32()
            order_id = ("CS" + time.strftime("%y%m%d%H%M") + "".join(random.choice(string.ascii_uppercase)
                                                                     for _ in range(5))) if launch["prepaid"] else None
            if launch["prepaid"] and not launch["auto_pay"]:
                # The order waits for payment in the console: no job, no server yet.
                self.reply(200, {"order_id": order_id}, request_id)
                return
            begin = iso_now()
            if sold_out:
                st.jobs[job_id] = {"job_id": job_id, "status": "FAIL", "server_id": None, "begin": begin,
                                   "flavor": flavor, "region": region, "answers": 0}
                self.reply(200, {"job_id": job_id, "serverIds": []}, request_id)
                return
            st.extra_flavors[flavor] = True
            server_id = new_uuid()
            pricing = "subscription" if launch["prepaid"] else "spot" if launch["spot"] else "on_demand"
            server = {"id": server_id, "client_token": token, "state": "BUILD", "instance_type": flavor,
                      "region": region, "zone": launch["zone"], "pricing": pricing,
                      "image_id": body["server"]["imageRef"], "key_name": launch["key_name"],
                      "user_data": launch["user_data"], "tags": launch["tags"],
                      "subscription_months": launch["months"], "auto_renew": launch["auto_renew"],
                      "terminate_at": launch["terminate_at"], "spot_price": launch["spot_price"],
                      "subnet_id": launch["subnet_id"], "security_group_ids": launch["group_ids"],
                      "charging_mode": {"subscription": "1", "spot": "2"}.get(pricing, "0"),
                      "name": launch["name"], "vpc_id": launch["vpc"]["id"], "order_id": order_id,
                      "status": "BUILD", "describes": 0, "created": begin, "created_at": time.time(),
                      "launched_at": None, "gone": False, "deleting_since": None,
                      "fixed_ip": "192.168.%d.%d" % (random.randint(0, 254), random.randint(2, 254)),
                      "auto_terminate_time": body["server"].get("auto_terminate_time")}
            st.servers.append(server)
            st.jobs[job_id] = {"job_id": job_id, "status": "SUCCESS", "server_id": server_id, "begin": begin,
                               "flavor": flavor, "region": region, "answers": 0}
            answer = {"job_id": job_id, "serverIds": [server_id]}
            if order_id:
                answer["order_id"] = order_id
            if token:
                st.tokens[(region, token)] = {"body": comparable, "answer": answer}
            if st.faults.get("internal_error_after_create", 0) > 0:
                st.faults["internal_error_after_create"] -= 1
                raise ecs_error(500, "Ecs.0615", "An error has occurred in the request from an ECS.")
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
        self.reply(200, answer, request_id)

    def act_ShowJob(self, region, params, body, groups, request_id):
        with self.state.lock:
            job = self.state.jobs.get(groups["id"])
            if job is None or job["region"] != region:
                raise ecs_error(404, "Ecs.0005", "Job [%s] does not exist." % groups["id"])
            job["answers"] += 1
            status = "RUNNING" if job["answers"] == 1 else job["status"]
        sub = {"status": status, "entities": {}, "job_id": hex32(), "job_type": "createSingleServer",
               "begin_time": job["begin"], "end_time": "" if status == "RUNNING" else iso_now(),
               "error_code": None, "fail_reason": None}
        out = {"job_id": job["job_id"], "job_type": "createServer", "status": status, "begin_time": job["begin"],
               "end_time": "" if status == "RUNNING" else iso_now(), "error_code": None, "fail_reason": None,
               "entities": {"sub_jobs_total": 1, "sub_jobs": [sub]}}
        if job["server_id"]:
            sub["entities"] = {"server_id": job["server_id"]}
        if status == "FAIL":
            sub.update({"error_code": "Ecs.0319", "fail_reason": "Flavor %s is sold out." % job["flavor"]})
            out.update({"error_code": "Ecs.0319", "fail_reason": "Check capacity: Capacity is not enough."})
        self.reply(200, out, request_id)

    def describe_one(self, s):
        floating = s["status"] == "ACTIVE" or (s["status"] == "DELETED" and s.get("launched_at"))
        addresses = [{"version": 4, "addr": s["fixed_ip"], "OS-EXT-IPS:type": "fixed",
                      "OS-EXT-IPS-MAC:mac_addr": "fa:16:3e:00:00:01", "OS-EXT-IPS:port_id": new_uuid()}]
        if floating and s["status"] != "DELETED":
            addresses.append({"version": 4, "addr": "127.0.0.1", "OS-EXT-IPS:type": "floating",
                              "OS-EXT-IPS-MAC:mac_addr": "fa:16:3e:00:00:01", "OS-EXT-IPS:port_id": new_uuid()})
        vm_state = {"BUILD": "building", "ACTIVE": "active", "DELETED": "deleted"}.get(s["status"], "active")
        metadata = {"charging_mode": s["charging_mode"], "vpc_id": s["vpc_id"], "metering.image_id": s["image_id"],
                    "metering.imagetype": "gold", "metering.resourcespeccode": s["instance_type"] + ".linux",
                    "image_name": OWNER_IMAGE, "os_type": "Linux", "os_bit": "64",
                    "metering.resourcetype": "1", "cascaded.instance_extrainfo": ""}
        if s["order_id"]:
            metadata["metering.order_id"] = s["order_id"]
            metadata["metering.product_id"] = "00301-" + s["order_id"][-6:]
        if s["pricing"] == "spot":
            metadata["spot_price"] = s["spot_price"] or ""
        return {"id": s["id"], "name": s["name"], "status": s["status"], "description": "",
                "OS-EXT-AZ:availability_zone": s["zone"], "addresses": {s["vpc_id"]: addresses},
                "flavor": {"id": s["instance_type"], "name": s["instance_type"], "disk": "0", "vcpus": "8",
                           "ram": "32768"},
                "image": {"id": s["image_id"]}, "key_name": s["key_name"] or None,
                "tags": ["%s=%s" % (k, v) for k, v in s["tags"].items()], "sys_tags": [],
                "metadata": metadata, "created": s["created"], "updated": iso_now(),
                "OS-EXT-STS:vm_state": vm_state,
                "OS-EXT-STS:task_state": "deleting" if s["deleting_since"] and s["status"] != "DELETED" else
                ("spawning" if s["status"] == "BUILD" else None),
                "OS-EXT-STS:power_state": 1 if s["status"] == "ACTIVE" else 0,
                "OS-SRV-USG:launched_at": s["launched_at"] or "", "OS-SRV-USG:terminated_at": "",
                "security_groups": [{"id": g, "name": g} for g in s["security_group_ids"]],
                "hostId": hex32(), "tenant_id": self.state.region_projects.get(s["region"], ""),
                "user_id": hex32(), "locked": False, "auto_terminate_time": s["auto_terminate_time"] or "",
                "enterprise_project_id": "0", "config_drive": "", "progress": 0 if s["status"] == "BUILD" else 100,
                "os-extended-volumes:volumes_attached": [{"id": new_uuid(), "delete_on_termination": "true",
                                                          "bootIndex": "0", "device": "/dev/vda"}]}

    def before_shown(self, s):
        """A server about to be shown in an answer: a delete that is no longer slow shows as DELETED."""
        slow = float(self.state.faults.get("terminate_slow_s") or 0)
        if s["deleting_since"] and s["status"] != "DELETED" and time.time() - s["deleting_since"] >= slow:
            s["status"] = "DELETED"

    def shown(self, s):
        """A server was just shown in an answer: it becomes ACTIVE after running_after of them, and DELETED is
        shown once."""
        if s["status"] == "DELETED":
            s["gone"] = True  # this answer was the last one that shows it
            s["state"] = "Terminated"
        elif s["status"] == "BUILD" and not s["deleting_since"]:
            s["describes"] += 1
            if s["describes"] >= self.state.running_after:
                s["status"] = s["state"] = "ACTIVE"
                s["launched_at"] = iso_now().replace("Z", ".000000")

    def act_ShowServer(self, region, params, body, groups, request_id):
        server_id = groups["id"]
        with self.state.lock:
            s = next((x for x in self.state.servers if x["id"] == server_id and x["region"] == region), None)
            if s is None or s["gone"] or not self.visible(s):
                raise not_found(server_id)
            self.before_shown(s)
            out = self.describe_one(s)
            self.shown(s)
        self.reply(200, {"server": out}, request_id)

    def act_ListServersDetails(self, region, params, body, groups, request_id):
        try:
            limit = int(params.get("limit") or 25)
            page = max(1, int(params.get("offset") or 1))
        except ValueError:
            raise ecs_error(400, "Ecs.0005", "Invalid limit or offset.")
        if not 1 <= limit <= 1000:
            raise ecs_error(400, "Ecs.0005", "Invalid limit [%d]." % limit)
        wanted_tag = params.get("tags")
        status = params.get("status")
        with self.state.lock:
            matched = []
            for s in self.state.servers:
                if s["region"] != region or s["gone"] or not self.visible(s):
                    continue
                tag_strings = ["%s=%s" % (k, v) for k, v in s["tags"].items()] + \
                              [k for k, v in s["tags"].items() if v == ""]
                if wanted_tag is not None and wanted_tag not in tag_strings:
                    continue
                if status and s["status"] != status:
                    continue
                matched.append(s)
            page_items = matched[(page - 1) * limit:page * limit]
            for s in page_items:
                self.before_shown(s)
            out = [self.describe_one(s) for s in page_items]
            for s in page_items:
                self.shown(s)
        self.reply(200, {"count": len(matched), "servers": out}, request_id)

    def act_DeleteServers(self, region, params, body, groups, request_id):
        servers = body.get("servers") or []
        ids = [(x or {}).get("id", "") for x in servers]
        if not ids:
            raise ecs_error(400, "Ecs.0005", "Parameter [servers] is required.")
        with self.state.lock:
            found = []
            for server_id in ids:
                s = next((x for x in self.state.servers if x["id"] == server_id and x["region"] == region), None)
                if s is None or s["gone"] or not self.visible(s):
                    raise not_found(server_id)
                if s["charging_mode"] == "1":
                    raise ecs_error(400, "Ecs.0000", "Only ECSs billed in the pay-per-use mode can be deleted.")
                found.append(s)
            for s in found:
                if not s["deleting_since"]:
                    s["deleting_since"] = time.time()
                    s["state"] = "Terminating"
            job_id = hex32()
        self.reply(200, {"job_id": job_id}, request_id)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--access-key-id", default="AKIDFAKEEXAMPLE")
    parser.add_argument("--secret-key", default="fake-secret-key-for-tests")
    parser.add_argument("--running-after", type=int, default=2)
    args, rest = parser.parse_known_args()
    zones, project_ids = {}, {}
    i = 0
    while i < len(rest):
        arg = rest[i]
        if arg.startswith("--zones-"):
            target, prefix = zones, "--zones-"
        elif arg.startswith("--project-id-"):
            target, prefix = project_ids, "--project-id-"
        else:
            parser.error("unknown argument " + arg)
        region, _, value = arg[len(prefix):].partition("=")
        if not value:
            i += 1
            value = rest[i] if i < len(rest) else ""
        target[region] = [z for z in value.split(",") if z] if target is zones else value
        i += 1
    Handler.state = State(args, zones, project_ids)
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
