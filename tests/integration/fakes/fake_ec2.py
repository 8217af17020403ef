#!/usr/bin/env python3
"""A FAKE of the Amazon EC2 Query API, for GPU Planner's flow tests. It is not EC2 and proves nothing about EC2's
wire format (TestEc2Wire does that against the official SDK); it exists for what a real cloud will not do on
demand: throttling, no capacity in a zone, dropped connections after a launch was accepted, slow replies, quota
and permission errors.

Answers are built from the documented response examples of the EC2 API Reference (the same ones saved in
tests/data/cloud/aws, whose README names each page): element names and nesting follow those pages, and errors use
the documented <Response><Errors><Error><Code/><Message/></Error></Errors><RequestID/></Response> document.

Usage:
    python3 fake_ec2.py --port-file FILE [--access-key-id ID --secret-key KEY] [--running-after N]
                        [--zones-REGION ZONE,ZONE,...]...
Binds 127.0.0.1 on a free port, writes the port to FILE (through FILE.tmp and a rename), serves until killed.
Defaults: access key id AKIDFAKEEXAMPLE, secret key fake-secret-key-for-tests, running_after 2, and for every
region R the zones Ra, Rb, Rc.

Every API request's SigV4 signature is checked with the configured key (canonical request rebuilt from the request
as received, Host header as sent; region from the credential scope); a request that does not verify gets
AuthFailure (unknown key id) or SignatureDoesNotMatch (HTTP 403).

Operations: DescribeImages (one current DLAMI and an older one), DescribeKeyPairs, ImportKeyPair,
DescribeSecurityGroups, CreateSecurityGroup, AuthorizeSecurityGroupIngress, RunInstances, DescribeInstances,
TerminateInstances, DescribeInstanceTypeOfferings. Any write with DryRun=true answers DryRunOperation (HTTP 412)
and creates nothing.

Instances start "pending", turn "running" (public IP 127.0.0.1) after running_after DescribeInstances calls that
returned them; TerminateInstances makes them "shutting-down", the next describe shows "terminated", and terminated
instances stay listed. RunInstances with a ClientToken seen before: the same instance if the parameters are the
same, else IdempotentParameterMismatch.

Control (not EC2):
    POST /_fake/faults   JSON object merged into the faults: throttle N (next N API requests: HTTP 503
                         RequestLimitExceeded), no_capacity_zones [..] (InsufficientInstanceCapacity),
                         drop_after_accept N (next N RunInstances create the instance then close the connection
                         without a reply), hold_run_reply_s S (next RunInstances creates, then waits S seconds),
                         quota_exceeded bool (VcpuLimitExceeded), unauthorized [actions] (UnauthorizedOperation),
                         running_after N. Answers {"ok": true}.
                         Faults that model how EC2 behaves but cannot be produced on demand against it:
                         invisible_s S (eventual consistency: for S seconds after RunInstances a new instance is
                         InvalidInstanceID.NotFound to DescribeInstances and TerminateInstances and missing from
                         listings), internal_error_after_create N (next N RunInstances answer HTTP 500 InternalError, the
                         first of a token after creating the instance, a retry of it without a second one), terminate_slow_s S (terminated instances stay
                         "shutting-down" for S seconds).
    POST /_fake/security_groups  {"region": R, "name": N}: creates a security group in R without any inbound rule
                         (one whose SSH rule was deleted, or whose AuthorizeSecurityGroupIngress never ran). Answers
                         {"ok": true, "id": ...}.
    POST /_fake/reclaim  {"instance": ID}: EC2 reclaims a spot instance (what a real cloud does only when it needs the
                         capacity back): it is "terminated" at once, its stateReason Server.SpotInstanceTermination
                         (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_StateReason.html). Answers
                         {"ok": true}, or 404 for an unknown instance.
    GET  /_fake/state    {"instances": [...], "calls": [...], "key_pairs": [...], "security_groups": [...]}; a
                         group's "ssh_from" lists the sources of its inbound TCP 22 rules.
"""

import argparse
import base64
import gzip
import hashlib
import hmac
import json
import os
import threading
import time
import urllib.parse
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from xml.sax.saxutils import escape

NS = "http://ec2.amazonaws.com/doc/2016-11-15/"
DLAMI_PREFIX = "Deep Learning Base OSS Nvidia Driver GPU AMI (Ubuntu 22.04) "
IMAGES = [  # (id, date YYYYMMDD): the newest must win
    ("ami-0fake0dlami20261120", "20261120"),
    ("ami-0fake0dlami20261002", "20261002"),
]
WRITES = {"ImportKeyPair", "CreateSecurityGroup", "AuthorizeSecurityGroupIngress", "RunInstances",
          "TerminateInstances"}




def user_data_text(encoded):
    """The user-data as the instance's cloud-init reads it: base64-decoded, then gunzipped when it is gzip."""
    raw = base64.b64decode(encoded, validate=True)
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return raw.decode("utf-8", "replace")

class ApiError(Exception):
    def __init__(self, status, code, message):
        super().__init__(code)
        self.status = status
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
        self.tokens = {}  # client token -> (params signature, instance)

    def zones_for(self, region):
        return self.zones.get(region, [region + "a", region + "b", region + "c"])


def sign(key, msg):
    return hmac.new(key, msg.encode("utf-8"), hashlib.sha256).digest()


def uri_encode(text, keep_slash=False):
    safe = "-_.~" + ("/" if keep_slash else "")
    return urllib.parse.quote(text, safe=safe)


def verify_sigv4(state, method, raw_path, headers, body):
    """Returns (region, None) when the signature verifies, else (None, ApiError)."""
    auth = headers.get("authorization", "")
    if not auth.startswith("AWS4-HMAC-SHA256 "):
        return None, ApiError(401, "AuthFailure", "AWS was not able to validate the provided access credentials")
    fields = {}
    for part in auth[len("AWS4-HMAC-SHA256 "):].split(","):
        name, _, value = part.strip().partition("=")
        fields[name] = value
    credential = fields.get("Credential", "").split("/")
    if len(credential) != 5 or credential[0] != state.key_id:
        return None, ApiError(401, "AuthFailure", "AWS was not able to validate the provided access credentials")
    _, date, region, service, _ = credential
    signed = fields.get("SignedHeaders", "").split(";")
    path, _, query = raw_path.partition("?")
    pairs = sorted((uri_encode(urllib.parse.unquote(k)), uri_encode(urllib.parse.unquote(v)))
                   for k, _, v in (p.partition("=") for p in query.split("&") if p))
    canonical_query = "&".join(k + "=" + v for k, v in pairs)
    canonical_headers = "".join(name + ":" + " ".join(headers.get(name, "").split()) + "\n" for name in signed)
    canonical = "\n".join([method, uri_encode(urllib.parse.unquote(path), True) or "/", canonical_query,
                           canonical_headers, ";".join(signed), hashlib.sha256(body).hexdigest()])
    amz_date = headers.get("x-amz-date", "")
    scope = "/".join([date, region, service, "aws4_request"])
    to_sign = "\n".join(["AWS4-HMAC-SHA256", amz_date, scope, hashlib.sha256(canonical.encode()).hexdigest()])
    k = sign(("AWS4" + state.secret).encode(), date)
    k = sign(k, region)
    k = sign(k, service)
    k = sign(k, "aws4_request")
    expected = hmac.new(k, to_sign.encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, fields.get("Signature", "")):
        return None, ApiError(403, "SignatureDoesNotMatch",
                              "The request signature we calculated does not match the signature you provided.")
    return region, None


def error_xml(code, message):
    return ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Response><Errors><Error><Code>%s</Code><Message>%s"
            "</Message></Error></Errors><RequestID>%s</RequestID></Response>" % (escape(code), escape(message),
                                                                                uuid.uuid4()))


def response_xml(action, inner):
    return ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<%sResponse xmlns=\"%s\">\n<requestId>%s</requestId>\n%s\n"
            "</%sResponse>" % (action, NS, uuid.uuid4(), inner, action))


def indexed(params, prefix):
    """Values of prefix.1, prefix.2, ... in order."""
    out = []
    i = 1
    while prefix + "." + str(i) in params:
        out.append(params[prefix + "." + str(i)])
        i += 1
    return out


def filters(params):
    out = {}
    i = 1
    while "Filter.%d.Name" % i in params:
        out[params["Filter.%d.Name" % i]] = indexed(params, "Filter.%d.Value" % i)
        i += 1
    return out


def instance_xml(inst):
    state_codes = {"pending": 0, "running": 16, "shutting-down": 32, "terminated": 48, "stopping": 64, "stopped": 80}
    tags = "".join("<item><key>%s</key><value>%s</value></item>" % (escape(k), escape(v))
                   for k, v in inst["tags"].items())
    ip = "<ipAddress>127.0.0.1</ipAddress>" if inst["state"] == "running" else ""
    return ("<item><instanceId>%s</instanceId><imageId>%s</imageId><instanceState><code>%d</code><name>%s</name>"
            "</instanceState><privateDnsName/><dnsName/><reason/><keyName>%s</keyName><amiLaunchIndex>0"
            "</amiLaunchIndex><productCodes/><instanceType>%s</instanceType><launchTime>%s</launchTime><placement>"
            "<availabilityZone>%s</availabilityZone><groupName/><tenancy>default</tenancy></placement><monitoring>"
            "<state>disabled</state></monitoring>%s<architecture>x86_64</architecture><rootDeviceType>ebs"
            "</rootDeviceType><virtualizationType>hvm</virtualizationType><clientToken>%s</clientToken><tagSet>%s"
            "</tagSet><hypervisor>xen</hypervisor>%s%s</item>"
            % (inst["id"], escape(inst["image_id"]), state_codes[inst["state"]], inst["state"],
               escape(inst["key_name"]), escape(inst["instance_type"]), inst["launch_time"], inst["zone"], ip,
               escape(inst["client_token"]), tags,
               "<instanceLifecycle>spot</instanceLifecycle>" if inst.get("pricing") == "spot" else "",
               "<stateReason><code>%s</code><message>%s: Spot instance termination</message></stateReason>"
               % (inst["state_reason"], inst["state_reason"]) if inst.get("state_reason") else ""))


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "FakeEC2/1.0"

    def log_message(self, *args):
        pass

    @property
    def state(self):
        return self.server.state

    def send_body(self, status, body, content_type="text/xml;charset=UTF-8"):
        data = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def do_GET(self):
        if self.path == "/_fake/state":
            with self.state.lock:
                doc = {"instances": [{k: v for k, v in i.items() if k not in ("launch_time", "describes",
                                                                                  "params")}
                                     for i in self.state.instances],
                       "calls": list(self.state.calls), "key_pairs": list(self.state.key_pairs),
                       "security_groups": list(self.state.security_groups)}
            self.send_body(200, json.dumps(doc), "application/json")
            return
        body = self.read_body()
        self.api("GET", body)

    def do_POST(self):
        body = self.read_body()
        if self.path == "/_fake/security_groups":
            wanted = json.loads(body or b"{}")
            with self.state.lock:
                group = {"id": "sg-" + uuid.uuid4().hex[:17], "name": wanted.get("name", ""),
                         "region": wanted.get("region", ""), "description": "made by the test", "ssh_from": []}
                self.state.security_groups.append(group)
            self.send_body(200, json.dumps({"ok": True, "id": group["id"]}), "application/json")
            return
        if self.path == "/_fake/reclaim":
            wanted = json.loads(body or b"{}")
            with self.state.lock:
                inst = next((i for i in self.state.instances if i["id"] == wanted.get("instance")), None)
                if inst is not None:
                    inst["state"] = "terminated"
                    inst["terminated_at"] = time.time()
                    inst["state_reason"] = "Server.SpotInstanceTermination"
            self.send_body(200 if inst else 404, json.dumps({"ok": inst is not None}), "application/json")
            return
        if self.path == "/_fake/faults":
            changes = json.loads(body or b"{}")
            with self.state.lock:
                if "running_after" in changes:
                    self.state.running_after = int(changes.pop("running_after"))
                self.state.faults.update(changes)
            self.send_body(200, json.dumps({"ok": True}), "application/json")
            return
        self.api("POST", body)

    def api(self, method, body):
        headers = {k.lower(): v for k, v in self.headers.items()}
        region, auth_error = verify_sigv4(self.state, method, self.path, headers, body)
        query = self.path.partition("?")[2]
        params = dict(urllib.parse.parse_qsl(query, keep_blank_values=True))
        params.update(urllib.parse.parse_qsl(body.decode("utf-8"), keep_blank_values=True))
        action = params.get("Action", "")
        with self.state.lock:
            self.state.calls.append({"action": action, "region": region or "",
                                     "params": {k: v for k, v in params.items() if k not in ("Action", "Version")}})
        if auth_error:
            self.send_body(auth_error.status, error_xml(auth_error.code, auth_error.message))
            return
        try:
            status, xml, after = self.dispatch(action, params, region)
        except ApiError as e:
            self.send_body(e.status, error_xml(e.code, e.message))
            return
        if after == "drop":
            self.close_connection = True
            self.connection.shutdown(2)
            return
        if isinstance(after, (int, float)) and after > 0:
            time.sleep(after)
        self.send_body(status, xml)

    def dispatch(self, action, params, region):
        st = self.state
        with st.lock:
            if st.faults.get("throttle", 0) > 0:
                st.faults["throttle"] -= 1
                raise ApiError(503, "RequestLimitExceeded", "Request limit exceeded.")
            if action in st.faults.get("unauthorized", []):
                raise ApiError(403, "UnauthorizedOperation",
                               "You are not authorized to perform this operation. Encoded authorization failure "
                               "message: fake-encoded-message")
            if action in WRITES and params.get("DryRun") == "true":
                raise ApiError(412, "DryRunOperation", "Request would have succeeded, but DryRun flag is set.")
            handler = getattr(self, "op_" + action, None)
            if handler is None:
                raise ApiError(400, "InvalidAction", "The action %s is not valid for this web service." % action)
            return handler(params, region)

    # ---- Operations (the state lock is held).

    def op_DescribeImages(self, params, region):
        items = "".join(
            "<item><imageId>%s</imageId><imageLocation>amazon/%s</imageLocation><imageState>available</imageState>"
            "<imageOwnerId>898082745236</imageOwnerId><creationDate>%s-%s-%sT00:00:00.000Z</creationDate>"
            "<isPublic>true</isPublic><architecture>x86_64</architecture><imageType>machine</imageType>"
            "<imageOwnerAlias>amazon</imageOwnerAlias><name>%s</name><rootDeviceType>ebs</rootDeviceType>"
            "<virtualizationType>hvm</virtualizationType><hypervisor>xen</hypervisor></item>"
            % (ami, escape(DLAMI_PREFIX + date), date[:4], date[4:6], date[6:], escape(DLAMI_PREFIX + date))
            for ami, date in IMAGES)
        return 200, response_xml("DescribeImages", "<imagesSet>%s</imagesSet>" % items), None

    def op_DescribeKeyPairs(self, params, region):
        names = indexed(params, "KeyName")
        found = [k for k in self.state.key_pairs if k["region"] == region and (not names or k["name"] in names)]
        missing = [n for n in names if n not in [k["name"] for k in found]]
        if missing:
            raise ApiError(400, "InvalidKeyPair.NotFound", "The key pair '%s' does not exist" % missing[0])
        items = "".join("<item><keyPairId>%s</keyPairId><keyName>%s</keyName><keyFingerprint>%s</keyFingerprint>"
                        "</item>" % (k["id"], escape(k["name"]), k["fingerprint"]) for k in found)
        return 200, response_xml("DescribeKeyPairs", "<keySet>%s</keySet>" % items), None

    def op_ImportKeyPair(self, params, region):
        name = params.get("KeyName", "")
        if any(k["name"] == name and k["region"] == region for k in self.state.key_pairs):
            raise ApiError(400, "InvalidKeyPair.Duplicate", "The keypair '%s' already exists." % name)
        material = base64.b64decode(params.get("PublicKeyMaterial", "")).decode("utf-8", "replace")
        digest = hashlib.md5(material.encode()).hexdigest()
        key = {"id": "key-" + uuid.uuid4().hex[:17], "name": name, "region": region, "public_key": material,
               "fingerprint": ":".join(digest[i:i + 2] for i in range(0, 32, 2))}
        self.state.key_pairs.append(key)
        return 200, response_xml("ImportKeyPair", "<keyName>%s</keyName><keyPairId>%s</keyPairId><keyFingerprint>"
                                 "%s</keyFingerprint>" % (escape(name), key["id"], key["fingerprint"])), None

    def op_DescribeSecurityGroups(self, params, region):
        wanted = filters(params).get("group-name")
        found = [g for g in self.state.security_groups if g["region"] == region and
                 (wanted is None or g["name"] in wanted)]
        items = "".join(
            "<item><ownerId>123456789012</ownerId><groupId>%s</groupId><groupName>%s</groupName><groupDescription>"
            "%s</groupDescription><vpcId>vpc-0fakedefault</vpcId><ipPermissions>%s</ipPermissions>"
            "<ipPermissionsEgress/></item>"
            % (g["id"], escape(g["name"]), escape(g["description"]),
               "".join("<item><ipProtocol>tcp</ipProtocol><fromPort>22</fromPort><toPort>22</toPort><groups/>"
                       "<ipRanges><item><cidrIp>%s</cidrIp></item></ipRanges></item>" % escape(c)
                       for c in g["ssh_from"]))
            for g in found)
        return 200, response_xml("DescribeSecurityGroups", "<securityGroupInfo>%s</securityGroupInfo>" % items), None

    def op_CreateSecurityGroup(self, params, region):
        name = params.get("GroupName", "")
        if any(g["name"] == name and g["region"] == region for g in self.state.security_groups):
            raise ApiError(400, "InvalidGroup.Duplicate", "The security group '%s' already exists" % name)
        group = {"id": "sg-" + uuid.uuid4().hex[:17], "name": name, "region": region,
                 "description": params.get("GroupDescription", ""), "ssh_from": []}
        self.state.security_groups.append(group)
        return 200, response_xml("CreateSecurityGroup", "<return>true</return><groupId>%s</groupId>" % group["id"]), None

    def op_AuthorizeSecurityGroupIngress(self, params, region):
        group = next((g for g in self.state.security_groups if g["id"] == params.get("GroupId")), None)
        if group is None:
            raise ApiError(400, "InvalidGroup.NotFound", "The security group '%s' does not exist"
                           % params.get("GroupId"))
        cidr = params.get("IpPermissions.1.IpRanges.1.CidrIp", "")
        if cidr in group["ssh_from"]:
            raise ApiError(400, "InvalidPermission.Duplicate", "the specified rule already exists")
        group["ssh_from"].append(cidr)
        return 200, response_xml("AuthorizeSecurityGroupIngress", "<return>true</return>"), None

    def op_RunInstances(self, params, region):
        st = self.state
        token = params.get("ClientToken", "")
        signature = json.dumps({k: v for k, v in params.items() if k not in ("Action", "Version")}, sort_keys=True)
        if token and token in st.tokens:
            previous_signature, inst = st.tokens[token]
            if previous_signature != signature:
                raise ApiError(400, "IdempotentParameterMismatch",
                               "Specified parameters do not match the parameters of the earlier request that used "
                               "this client token.")
            if st.faults.get("internal_error_after_create", 0) > 0:
                st.faults["internal_error_after_create"] -= 1  # a retry with the token fails the same way
                raise ApiError(500, "InternalError", "An internal error has occurred.")
            return 200, self.reservation(inst), None
        zone = params.get("Placement.AvailabilityZone") or st.zones_for(region)[0]
        if zone in st.faults.get("no_capacity_zones", []):
            raise ApiError(500, "InsufficientInstanceCapacity",
                           "We currently do not have sufficient %s capacity in the Availability Zone you requested "
                           "(%s)." % (params.get("InstanceType"), zone))
        if st.faults.get("quota_exceeded"):
            raise ApiError(400, "VcpuLimitExceeded",
                           "You have requested more vCPU capacity than your current vCPU limit of 0 allows for the "
                           "instance bucket that the specified instance type belongs to.")
        tags = {}
        i = 1
        while "TagSpecification.1.Tag.%d.Key" % i in params:
            tags[params["TagSpecification.1.Tag.%d.Key" % i]] = params.get("TagSpecification.1.Tag.%d.Value" % i, "")
            i += 1
        user_data = params.get("UserData", "")
        inst = {"id": "i-" + uuid.uuid4().hex[:17], "client_token": token, "state": "pending",
                "instance_type": params.get("InstanceType", ""), "region": region, "zone": zone,
                "pricing": "spot" if params.get("InstanceMarketOptions.MarketType") == "spot" else "on_demand",
                "image_id": params.get("ImageId", ""), "key_name": params.get("KeyName", ""),
                "user_data": user_data_text(user_data) if user_data else "",
                "tags": tags, "subscription_months": 0, "auto_renew": False,
                "launch_time": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime()), "describes": 0,
                "created_at": time.time()}
        st.instances.append(inst)
        if token:
            st.tokens[token] = (signature, inst)
        if st.faults.get("internal_error_after_create", 0) > 0:
            st.faults["internal_error_after_create"] -= 1
            raise ApiError(500, "InternalError", "An internal error has occurred.")
        after = None
        if st.faults.get("drop_after_accept", 0) > 0:
            st.faults["drop_after_accept"] -= 1
            after = "drop"
        elif st.faults.get("hold_run_reply_s", 0):
            after = float(st.faults["hold_run_reply_s"])
            st.faults["hold_run_reply_s"] = 0
        return 200, self.reservation(inst), after

    def reservation(self, inst):
        return response_xml("RunInstances", "<reservationId>r-%s</reservationId><ownerId>123456789012</ownerId>"
                            "<groupSet/><instancesSet>%s</instancesSet>" % (inst["id"][2:], instance_xml(inst)))

    def visible(self, inst):
        """Eventual consistency (invisible_s): a new instance is not seen by reads for a while."""
        return time.time() - inst.get("created_at", 0) >= float(self.state.faults.get("invisible_s") or 0)

    def op_DescribeInstances(self, params, region):
        st = self.state
        ids = indexed(params, "InstanceId")
        f = filters(params)
        found = [i for i in st.instances if i["region"] == region and self.visible(i)]
        if ids:
            missing = [x for x in ids if x not in [i["id"] for i in found]]
            if missing:
                raise ApiError(400, "InvalidInstanceID.NotFound", "The instance ID '%s' does not exist" % missing[0])
            found = [i for i in found if i["id"] in ids]
        if "tag-key" in f:
            found = [i for i in found if any(k in i["tags"] for k in f["tag-key"])]
        items = []
        for inst in found:
            items.append(instance_xml(inst))
            inst["describes"] += 1
            if inst["state"] == "pending" and inst["describes"] >= st.running_after:
                inst["state"] = "running"
            elif inst["state"] == "shutting-down" and \
                    time.time() - inst.get("terminated_at", 0) >= float(st.faults.get("terminate_slow_s") or 0):
                inst["state"] = "terminated"
        reservations = "".join("<item><reservationId>r-%s</reservationId><ownerId>123456789012</ownerId><groupSet/>"
                               "<instancesSet>%s</instancesSet></item>" % (uuid.uuid4().hex[:17], x) for x in items)
        return 200, response_xml("DescribeInstances", "<reservationSet>%s</reservationSet>" % reservations), None

    def op_TerminateInstances(self, params, region):
        changes = []
        for instance_id in indexed(params, "InstanceId"):
            inst = next((i for i in self.state.instances if i["id"] == instance_id and i["region"] == region
                         and self.visible(i)), None)
            if inst is None:
                raise ApiError(400, "InvalidInstanceID.NotFound", "The instance ID '%s' does not exist" % instance_id)
            previous = inst["state"]
            if previous not in ("terminated", "shutting-down"):
                inst["state"] = "shutting-down"
                inst["terminated_at"] = time.time()
            codes = {"pending": 0, "running": 16, "shutting-down": 32, "terminated": 48}
            changes.append("<item><instanceId>%s</instanceId><currentState><code>%d</code><name>%s</name>"
                           "</currentState><previousState><code>%d</code><name>%s</name></previousState></item>"
                           % (inst["id"], codes[inst["state"]], inst["state"], codes.get(previous, 0), previous))
        return 200, response_xml("TerminateInstances", "<instancesSet>%s</instancesSet>" % "".join(changes)), None

    def op_DescribeSpotPriceHistory(self, params, region):
        # The documented answer's shape (tests/data/aws/describe-spot-price-history.xml): made-up prices, the
        # second zone cheaper, and a Windows price that must not be taken.
        types = [v for k, v in params.items() if k.startswith("InstanceType.")]
        zones = self.state.zones_for(region)
        if params.get("AvailabilityZone"):
            zones = [z for z in zones if z == params["AvailabilityZone"]]
        items = "".join("<item><instanceType>%s</instanceType><productDescription>%s</productDescription>"
                        "<spotPrice>%.6f</spotPrice><timestamp>2026-12-05T00:00:00.000Z</timestamp>"
                        "<availabilityZone>%s</availabilityZone></item>"
                        % (escape(t), product, (0.40 if i % 2 else 0.45) / (10 if product == "Windows" else 1), z)
                        for t in types for i, z in enumerate(zones) for product in ("Linux/UNIX", "Windows"))
        return 200, response_xml("DescribeSpotPriceHistory",
                                 "<spotPriceHistorySet>%s</spotPriceHistorySet><nextToken/>" % items), None

    def op_DescribeInstanceTypeOfferings(self, params, region):
        types = filters(params).get("instance-type", ["g5.xlarge"])
        items = "".join("<item><instanceType>%s</instanceType><locationType>availability-zone</locationType>"
                        "<location>%s</location></item>" % (escape(t), z)
                        for t in types for z in self.state.zones_for(region))
        return 200, response_xml("DescribeInstanceTypeOfferings",
                                 "<instanceTypeOfferingSet>%s</instanceTypeOfferingSet>" % items), None


def main():
    parser = argparse.ArgumentParser(description="A fake of the EC2 Query API for flow tests.")
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--access-key-id", default="AKIDFAKEEXAMPLE")
    parser.add_argument("--secret-key", default="fake-secret-key-for-tests")
    parser.add_argument("--running-after", type=int, default=2)
    args, rest = parser.parse_known_args()
    zones = {}
    i = 0
    while i < len(rest):
        arg = rest[i]
        if arg.startswith("--zones-"):
            region = arg[len("--zones-"):]
            value = None
            if "=" in region:
                region, value = region.split("=", 1)
            else:
                i += 1
                value = rest[i] if i < len(rest) else ""
            zones[region] = [z for z in value.split(",") if z]
        else:
            parser.error("unknown argument " + arg)
        i += 1
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.state = State(args, zones)
    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(tmp, args.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
