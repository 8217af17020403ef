#!/usr/bin/env python3
"""A FAKE of Google Compute Engine (with the OAuth 2.0 token endpoint of a service account) for GPU Planner's flow
tests.

It is not Google Cloud: it answers the REST calls the GCE provider makes, on one loopback port, in the documented JSON
shapes, and it produces on demand the faults a real cloud will not (throttling, exhausted zones, dropped connections,
slow replies, quota, disabled API and permission errors).

    python3 fake_gce.py --port-file FILE [--client-email EMAIL --public-key-file PEM] [--project P]
                        [--running-after N] [--zones-REGION Z1,Z2,...]

Binds 127.0.0.1 on a free port, writes the port to FILE (FILE.tmp, then renamed), serves until killed
(ThreadingHTTPServer, HTTP/1.1). --access-key-id and --secret-key are accepted and ignored (FakeCloud.h passes them to
every fake). Defaults: client email gpuplan-test@gpuplan-test.iam.gserviceaccount.com, public key
tests/data/test-service-account-key.pub.pem (its private half is tests/data/test-service-account-key.pem), project
gpuplan-test (only named in the disabled-API message: every project in a path is accepted, each one a world of its own).

Where the shapes come from
- Paths, methods, query and JSON names: the official SDK, tests/integration/sdk/node_modules/@google-cloud/compute
  6.15.0 (build/protos/protos.json: the http rules and json names of InstancesClient, FirewallsClient, ImagesClient,
  ZoneOperationsClient, GlobalOperationsClient, MachineTypesClient, AcceleratorTypesClient; captured with the REST
  fallback, it sends a GET with "Content-Type: application/json" and zoneOperations.wait with the JSON body ""), and the
  REST reference https://cloud.google.com/compute/docs/reference/rest/v1 (instances insert/get/delete/aggregatedList,
  firewalls, images/getFromFamily, zoneOperations/wait, globalOperations/wait and get, machineTypes and acceleratorTypes
  aggregatedList, Operation). Resource URLs in answers use https://www.googleapis.com/compute/v1, as GCE's selfLinks do.
  int64 fields (id, targetId, diskSizeGb) are JSON strings, as the proto3 JSON mapping writes them.
- Token: https://developers.google.com/identity/protocols/oauth2/service-account#httprest (JWT bearer grant, RS256,
  iss = client_email, aud = the token URL, exp <= iat + 3600) and its error answers ({"error": "invalid_grant",
  "error_description": "Invalid JWT Signature."} and the others below).
- Errors: {"error": {"code", "message", "errors": [{"message", "domain", "reason"}], "status"}} (the REST reference's
  error shape; reasons notFound, alreadyExists, invalid, forbidden, rateLimitExceeded, accessNotConfigured,
  backendError, authError). Capacity and quota: the Operation's error.errors[].code ZONE_RESOURCE_POOL_EXHAUSTED
  (message from https://cloud.google.com/compute/docs/troubleshooting/troubleshooting-resource-availability) and
  QUOTA_EXCEEDED ("Quota 'NVIDIA_T4_GPUS' exceeded. Limit: 0.0 in region us-central1."), with httpErrorStatusCode 503 /
  403 (plausible: GCE sets them, their values for these codes are not documented).

Behaviour
- Auth. POST /token (form grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer, assertion=<JWT>): the RS256 signature
  is verified with the public key, iss must be the client email, aud http://127.0.0.1:PORT/token (as the client was
  pointed) or https://oauth2.googleapis.com/token, scope must hold .../auth/cloud-platform or .../auth/compute, exp -
  iat <= 3600 and now within [iat - 300, exp]. Answers {"access_token", "expires_in": 3599, "token_type": "Bearer"}.
  Errors (400): unsupported_grant_type "Invalid grant_type: X"; invalid_grant "Invalid JWT Signature."; invalid_grant
  "Invalid grant: account not found" (another iss); invalid_grant "Invalid JWT: Token must be a short-lived token (60
  minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim."; invalid_grant "Invalid JWT:
  Failed audience check." (another aud; text plausible); invalid_scope "Invalid OAuth scope or ID token audience
  provided." Every /compute/v1 call needs "Authorization: Bearer <a token the fake issued, not expired>", else 401
  UNAUTHENTICATED (authError, "Invalid Credentials").
- Regions and zones: us-central1, us-east1, us-east4, us-west1, europe-west4, asia-east1, asia-northeast1 and every
  --zones-REGION region; the zones of R are R-a, R-b, R-c unless --zones-REGION gives them.
- Catalog: machine types g2-standard-4/8/12/16/24/32/48/96 (L4), a2-highgpu-1g/2g/4g/8g, a2-megagpu-16g (A100 40GB),
  a2-ultragpu-1g/2g/4g/8g (A100 80GB), a3-highgpu-8g (H100), n1-standard-4/8/16/32/64/96 and n1-highmem-8/16/32 (no
  GPU), e2-standard-4; accelerator types nvidia-tesla-t4, nvidia-tesla-v100, nvidia-tesla-p100, nvidia-tesla-p4,
  nvidia-l4, nvidia-tesla-a100, nvidia-a100-80gb, nvidia-h100-80gb. Every zone offers every one of them, except where
  the fault unoffered {type: [zones]} says otherwise. aggregatedList answers items {"zones/<zone>": {"machineTypes" |
  "acceleratorTypes": [...]}} for every zone, an empty one carrying the warning NO_RESULTS_ON_PAGE, as GCE does.
- Filters (list calls): expressions "field op value" joined by spaces or AND, each optionally in parentheses; op "=" or
  "!=" (the value quoted or not, a whole-string match; GCE documents RE2 for eq/ne only), ":" with "*" (has the field)
  or a value; field a dotted path (labels.gpuplanner-token, name, status, zone). Anything else: 400 invalid
  "Invalid value for field 'filter': '<filter>'. Invalid list filter expression.".
- Paging: maxResults 0..500 (default 500; more answers 400 invalid), pageToken opaque (the fake's offset); the next
  page's token in nextPageToken. aggregated/instances lists every zone (empty ones with the warning).
- Images: GET /projects/deeplearning-platform-release/global/images/family/{family} answers, for the families of
  DLVM_FAMILIES, the newest image of the family ({kind "compute#image", id, name "<family>-v20261120", family, status
  READY, selfLink, diskSizeGb, architecture X86_64, ...}); another family answers 404 notFound. The faults
  missing_image_families [names] (404) and deprecated_image_families [names] (deprecated.state DEPRECATED) steer it.
  GET /projects/{p}/global/images/{name} answers the images of those families by name. Other image projects (e.g.
  ubuntu-os-cloud) are accepted as an insert's sourceImage without a check.
- Network: every project has the VPC network "default" (GET /projects/{p}/global/networks/default) unless the fault
  no_default_network is set; then the network answers 404, and an insert or firewall naming it answers 404 notFound
  "The resource 'projects/<p>/global/networks/default' was not found".
- Firewalls: a fresh project has no gpuplanner firewall. GET .../global/firewalls/{name} (404 notFound when absent),
  POST .../global/firewalls (name [a-z]([-a-z0-9]{0,61}[a-z0-9])?, network, direction INGRESS|EGRESS, priority
  0..65535, allowed [{IPProtocol, ports}], sourceRanges CIDRs; a taken name answers 409 alreadyExists), PATCH
  .../global/firewalls/{name} (the members given replace the rule's): each answers a global Operation (status RUNNING;
  POST .../global/operations/{op}/wait and GET .../global/operations/{op} answer it DONE).
- Insert (POST /projects/{p}/zones/{z}/instances?requestId=UUID): validates the name, the zone, machineType
  ("zones/<z>/machineTypes/<t>", "projects/<p>/zones/..." or the full URL; the zone must be the path's; an unknown type
  answers 400 invalid), one boot disk with initializeParams.sourceImage (a DLVM image must exist; diskSizeGb as string
  or number; diskType of the zone), networkInterfaces[0].network (the default network of the project) with accessConfigs
  [{type ONE_TO_ONE_NAT}], guestAccelerators (only N1 types; the zone's accelerator types; count 1..8), scheduling
  (provisioningModel SPOT|STANDARD; SPOT needs automaticRestart false; a GPU needs onHostMaintenance TERMINATE:
  "Instances with guest accelerators do not support live migration."; instanceTerminationAction STOP|DELETE;
  terminationTime RFC 3339 in the future, not with maxRunDuration), labels (keys [a-z][a-z0-9_-]{0,62}, values
  [a-z0-9_-]{0,63}, at most 64), tags.items, metadata.items (unique keys, a value <= 256 KB, all <= 512 KB). It creates
  the instance at once and answers the Operation {kind "compute#operation", id, name "operation-<ms>-<hex>-<hex>-<hex>",
  zone URL, operationType "insert", targetLink, targetId, status RUNNING, progress 0, insertTime, startTime, user,
  selfLink}. POST .../zones/{z}/operations/{op}/wait and GET .../operations/{op} answer it DONE (progress 100, endTime;
  error.errors when the insert failed), after `operation_running_polls` RUNNING answers (a fault, default 0). requestId
  must be a UUID other than the zero UUID (400 invalid). The same requestId in the same project and zone answers the
  Operation it answered first and creates nothing, whatever the body: the REST reference says the server "will ignore
  the second request" (60 minutes; the fake keeps them for its life). Whether GCE scopes a request id to the zone or the
  project is not documented: the fake scopes it to the zone, for every zonal call (a delete sent with an insert's
  request id answers the insert's Operation and deletes nothing). Another insert of an existing name (without the first
  one's requestId) answers 409 alreadyExists "The resource 'projects/<p>/zones/<z>/instances/<name>' already exists".
- Instances: status PROVISIONING in the answer that first shows it, then STAGING, then RUNNING (natIP 127.0.0.1 in
  networkInterfaces[0].accessConfigs[0], lastStartTimestamp) from the answer after `running_after` get/list answers
  showed it (default 2). The instance carries what the insert gave (labels, tags, metadata, scheduling with
  preemptible true for SPOT, guestAccelerators and machineType as full URLs, disks[0] with the source as disks/<name>).
  When its terminationTime has passed, instanceTerminationAction DELETE deletes it (as a delete below) and STOP makes it
  TERMINATED (GCE's word for stopped).
- Delete (DELETE .../instances/{name}?requestId=): answers an Operation (operationType "delete"); the instance then
  shows STOPPING in the answers of the next `terminate_slow_s` seconds and at least once, and then answers 404 notFound
  "The resource 'projects/<p>/zones/<z>/instances/<name>' was not found" (a delete of it too).
- Error bodies: {"error": {"code", "message", "errors": [{"message", "domain": "global", "reason"}], "status"}}.
  Unknown paths: 404 notFound "The requested URL was not found on this server." (GCE answers an HTML page there).

Control (not part of the API)
- GET /_fake/state: {"instances": [{"id" ("<zone>/<name>": the ledger's id of a GCE instance), "name", "zone",
  "project", "client_token" (the gpuplanner-token label), "state" (PROVISIONING, STAGING, RUNNING, TERMINATED, then
  "Terminating" from the delete until the answer that last shows it, then "Terminated"), "instance_type" (the catalog's
  name: "n1-standard-8+1xT4" for N1 with accelerators, else the machine type), "region", "pricing" (on_demand|spot),
  "image", "ssh_keys", "user_data" (the startup-script, or user-data), "labels", "terminate_at" (Unix s, from
  terminationTime; absent without), "request_id", "termination_action", "tags", "metadata"}],
  "calls": [{"action" (instances.insert, instances.get, instances.list, instances.aggregatedList, instances.delete,
  firewalls.get, firewalls.insert, firewalls.patch, zoneOperations.wait, zoneOperations.get, globalOperations.get,
  images.getFromFamily, images.get, networks.get, machineTypes.aggregatedList, acceleratorTypes.aggregatedList, token),
  "project", "region", "zone", "method", "path", "params" (query, decoded), "body"}], "firewalls": [{"project", "name",
  "network", "direction", "priority", "allowed", "sourceRanges", "targetTags", "description"}], "operations": [...]}.
- POST /_fake/faults (JSON merged into the faults):
  throttle N         the next N API calls answer 403 rateLimitExceeded "Rate Limit Exceeded" (domain usageLimits);
  no_capacity_zones [zones]   an insert there is accepted and its Operation ends DONE with error
                     ZONE_RESOURCE_POOL_EXHAUSTED; nothing is created;
  stale_zone_listing ignored: GCE's listings have no notion of stock (a zone that lists a type may still be exhausted);
  drop_after_accept N   the next N inserts create, then close the connection without an answer;
  hold_run_reply_s S    the next insert creates, then waits S s before answering (once);
  quota_exceeded     true: an insert's Operation ends with QUOTA_EXCEEDED "Quota '<METRIC>' exceeded. Limit: 0.0 in
                     region <r>." (the metric of its GPU: NVIDIA_T4_GPUS, NVIDIA_L4_GPUS, NVIDIA_A100_GPUS,
                     NVIDIA_A100_80GB_GPUS, NVIDIA_H100_GPUS, NVIDIA_V100_GPUS..., PREEMPTIBLE_ first for Spot); or a
                     string, the metric: "GPUS_ALL_REGIONS" gives "... Limit: 0.0 globally."; nothing is created;
  unauthorized [actions]  those calls answer 403 forbidden "Required '<permission>' permission for '<resource>'";
  api_disabled       every API call answers 403 accessNotConfigured "Compute Engine API has not been used in project
                     <number> before or it is disabled. Enable it by visiting https://console.developers.google.com/
                     apis/api/compute.googleapis.com/overview?project=<number> then retry. ...";
  running_after N;
  invisible_s S      for S s after an insert, get answers 404, lists leave the instance out and delete answers 404;
  internal_error_after_create N   the next N inserts create (or find by their requestId), then answer 500 backendError
                     "Internal error. Please try again or contact Google Support. (Code: '<number>')";
  terminate_slow_s S (see Delete);
  no_default_network, unoffered {type: [zones]}, missing_image_families, deprecated_image_families,
  operation_running_polls N (see above).
- POST /_fake/firewalls {"project", "name"}: a firewall of that name on the default network without any allowed rule
  or source range (as one whose rule was removed); answers {"ok": true}.
"""

import argparse
import base64
import calendar
import datetime
import hashlib
import json
import os
import random
import re
import socket
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, unquote

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_KEY = os.path.normpath(os.path.join(HERE, "..", "..", "data", "test-service-account-key.pub.pem"))
DEFAULT_EMAIL = "gpuplan-test@gpuplan-test.iam.gserviceaccount.com"
GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token"
GRANT_TYPE = "urn:ietf:params:oauth:grant-type:jwt-bearer"
SCOPES = ("https://www.googleapis.com/auth/cloud-platform", "https://www.googleapis.com/auth/compute")
LINK = "https://www.googleapis.com/compute/v1/"
DLVM_PROJECT = "deeplearning-platform-release"
# Deep Learning VM image families with the NVIDIA driver: the ones the provider tries, in its order
# (core/include/gpuplan/cloud/providers/gcp/ComputeApi.h kImageFamilies).
DLVM_FAMILIES = ["common-cu129-ubuntu-2204-nvidia-580", "common-cu128-ubuntu-2204-nvidia-570",
                 "common-cu121-debian-11-py310"]
REGIONS = ["us-central1", "us-east1", "us-east4", "us-west1", "europe-west4", "asia-east1", "asia-northeast1"]
NAME_RE = re.compile(r"^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$")
LABEL_KEY_RE = re.compile(r"^[a-z][a-z0-9_-]{0,62}$")
LABEL_VALUE_RE = re.compile(r"^[a-z0-9_-]{0,63}$")
UUID_RE = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
METADATA_VALUE_MAX = 256 * 1024
METADATA_TOTAL_MAX = 512 * 1024

# Accelerators: name -> (description, quota metric, catalog short name, max per VM).
ACCELERATORS = {
    "nvidia-tesla-t4": ("NVIDIA T4", "NVIDIA_T4_GPUS", "T4", 4),
    "nvidia-tesla-v100": ("NVIDIA V100", "NVIDIA_V100_GPUS", "V100", 8),
    "nvidia-tesla-p100": ("NVIDIA Tesla P100", "NVIDIA_P100_GPUS", "P100", 4),
    "nvidia-tesla-p4": ("NVIDIA Tesla P4", "NVIDIA_P4_GPUS", "P4", 4),
    "nvidia-l4": ("NVIDIA L4", "NVIDIA_L4_GPUS", "L4", 8),
    "nvidia-tesla-a100": ("NVIDIA A100 40GB", "NVIDIA_A100_GPUS", "A100", 16),
    "nvidia-a100-80gb": ("NVIDIA A100 80GB", "NVIDIA_A100_80GB_GPUS", "A100-80GB", 8),
    "nvidia-h100-80gb": ("NVIDIA H100 80GB", "NVIDIA_H100_GPUS", "H100", 8),
}


def machine_catalog():
    """name -> (vCPUs, memory MB, accelerator type or None, GPU count)."""
    out = {}
    for n, gpus in ((4, 1), (8, 1), (12, 1), (16, 1), (24, 2), (32, 1), (48, 4), (96, 8)):
        out["g2-standard-%d" % n] = (n, n * 4096, "nvidia-l4", gpus)
    for g in (1, 2, 4, 8):
        out["a2-highgpu-%dg" % g] = (12 * g, 87040 * g, "nvidia-tesla-a100", g)
        out["a2-ultragpu-%dg" % g] = (12 * g, 174080 * g, "nvidia-a100-80gb", g)
    out["a2-megagpu-16g"] = (96, 1392640, "nvidia-tesla-a100", 16)
    out["a3-highgpu-8g"] = (208, 1916928, "nvidia-h100-80gb", 8)
    for n in (4, 8, 16, 32, 64, 96):
        out["n1-standard-%d" % n] = (n, n * 3840, None, 0)
    for n in (8, 16, 32):
        out["n1-highmem-%d" % n] = (n, n * 6656, None, 0)
    out["e2-standard-4"] = (4, 16384, None, 0)
    return out


MACHINES = machine_catalog()

# The IAM permission each action needs (the unauthorized fault's message).
PERMISSIONS = {
    "instances.insert": "compute.instances.create", "instances.get": "compute.instances.get",
    "instances.list": "compute.instances.list", "instances.aggregatedList": "compute.instances.list",
    "instances.delete": "compute.instances.delete", "firewalls.get": "compute.firewalls.get",
    "firewalls.insert": "compute.firewalls.create", "firewalls.patch": "compute.firewalls.update",
    "zoneOperations.wait": "compute.zoneOperations.get", "zoneOperations.get": "compute.zoneOperations.get",
    "globalOperations.get": "compute.globalOperations.get", "globalOperations.wait": "compute.globalOperations.get",
    "images.getFromFamily": "compute.images.getFromFamily",
    "images.get": "compute.images.get", "networks.get": "compute.networks.get",
    "machineTypes.aggregatedList": "compute.machineTypes.list",
    "acceleratorTypes.aggregatedList": "compute.acceleratorTypes.list"}

P = r"/compute/v1/projects/(?P<project>[^/]+)"
Z = P + r"/zones/(?P<zone>[^/]+)"
ROUTES = [  # (method, path pattern, action)
    ("GET", P + r"/aggregated/instances", "instances.aggregatedList"),
    ("GET", P + r"/aggregated/machineTypes", "machineTypes.aggregatedList"),
    ("GET", P + r"/aggregated/acceleratorTypes", "acceleratorTypes.aggregatedList"),
    ("GET", P + r"/global/images/family/(?P<family>[^/]+)", "images.getFromFamily"),
    ("GET", P + r"/global/images/(?P<image>[^/]+)", "images.get"),
    ("GET", P + r"/global/networks/(?P<network>[^/]+)", "networks.get"),
    ("GET", P + r"/global/firewalls/(?P<firewall>[^/]+)", "firewalls.get"),
    ("PATCH", P + r"/global/firewalls/(?P<firewall>[^/]+)", "firewalls.patch"),
    ("POST", P + r"/global/firewalls", "firewalls.insert"),
    ("POST", P + r"/global/operations/(?P<operation>[^/]+)/wait", "globalOperations.wait"),
    ("GET", P + r"/global/operations/(?P<operation>[^/]+)", "globalOperations.get"),
    ("POST", Z + r"/operations/(?P<operation>[^/]+)/wait", "zoneOperations.wait"),
    ("GET", Z + r"/operations/(?P<operation>[^/]+)", "zoneOperations.get"),
    ("POST", Z + r"/instances", "instances.insert"),
    ("GET", Z + r"/instances", "instances.list"),
    ("GET", Z + r"/instances/(?P<instance>[^/]+)", "instances.get"),
    ("DELETE", Z + r"/instances/(?P<instance>[^/]+)", "instances.delete"),
]
ROUTES = [(m, re.compile("^" + p + r"/?$"), a) for m, p, a in ROUTES]


# ---- RS256 (RSASSA-PKCS1-v1_5 with SHA-256), without a crypto package: the public key's modulus and exponent are read
# from the PEM's DER, and the signature is checked by recomputing the EMSA-PKCS1-v1_5 encoding (RFC 8017 8.2.2).

def der_read(data, at):
    """(tag, value, next offset) of the DER element at `at`."""
    tag = data[at]
    length = data[at + 1]
    at += 2
    if length & 0x80:
        count = length & 0x7F
        length = int.from_bytes(data[at:at + count], "big")
        at += count
    return tag, data[at:at + length], at + length


def der_children(value):
    out, at = [], 0
    while at < len(value):
        tag, inner, at = der_read(value, at)
        out.append((tag, inner))
    return out


def pem_der(text, label):
    lines = [line.strip() for line in text.splitlines()]
    begin, end = "-----BEGIN %s-----" % label, "-----END %s-----" % label
    if begin not in lines or end not in lines:
        raise ValueError("no %s in the PEM" % label)
    return base64.b64decode("".join(lines[lines.index(begin) + 1:lines.index(end)]))


def rsa_public_key(pem_text):
    """(n, e) of a "PUBLIC KEY" (SubjectPublicKeyInfo) or "RSA PUBLIC KEY" (PKCS #1) PEM."""
    if "BEGIN RSA PUBLIC KEY" in pem_text:
        key = pem_der(pem_text, "RSA PUBLIC KEY")
    else:
        _, spki, _ = der_read(pem_der(pem_text, "PUBLIC KEY"), 0)
        parts = der_children(spki)
        key = parts[1][1][1:]  # the BIT STRING without its unused-bits byte
    _, seq, _ = der_read(key, 0)
    n, e = [int.from_bytes(v, "big") for _, v in der_children(seq)[:2]]
    return n, e


SHA256_DIGEST_INFO = bytes.fromhex("3031300d060960864801650304020105000420")


def rs256_verify(key, message, signature):
    n, e = key
    size = (n.bit_length() + 7) // 8
    if len(signature) != size:
        return False
    em = pow(int.from_bytes(signature, "big"), e, n).to_bytes(size, "big")
    t = SHA256_DIGEST_INFO + hashlib.sha256(message).digest()
    return em == b"\x00\x01" + b"\xff" * (size - len(t) - 3) + b"\x00" + t


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


# ---- helpers

def now_rfc3339(offset_s=0.0):
    """GCE's timestamps: RFC 3339 with milliseconds in Pacific time, e.g. 2026-12-02T10:00:00.000-08:00."""
    t = datetime.datetime.fromtimestamp(time.time() + offset_s, datetime.timezone(datetime.timedelta(hours=-8)))
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03d-08:00" % (t.microsecond // 1000)


def parse_rfc3339(text):
    """Unix seconds of an RFC 3339 date-time; None when it is not one."""
    m = re.match(r"^(\d{4})-(\d\d)-(\d\d)[Tt](\d\d):(\d\d):(\d\d)(\.\d+)?([Zz]|[+-]\d\d:\d\d)$", text or "")
    if not m:
        return None
    seconds = calendar.timegm(tuple(int(m.group(i)) for i in range(1, 7)))
    zone = m.group(8)
    if zone not in ("Z", "z"):
        sign = 1 if zone[0] == "+" else -1
        seconds -= sign * (int(zone[1:3]) * 3600 + int(zone[4:6]) * 60)
    return seconds + (float(m.group(7)) if m.group(7) else 0)


def new_id():
    return str(random.randint(10 ** 18, 2 ** 63 - 1))


def operation_name():
    return "operation-%d-%013x-%08x-%08x" % (int(time.time() * 1000), random.getrandbits(52), random.getrandbits(32),
                                             random.getrandbits(32))


def region_of(zone):
    return zone.rsplit("-", 1)[0] if zone and "-" in zone else ""


def last_segment(value):
    return (value or "").rstrip("/").rsplit("/", 1)[-1]


class ApiError(Exception):
    def __init__(self, status, body):
        super().__init__(json.dumps(body))
        self.status = status
        self.body = body


STATUS_NAMES = {400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND",
                409: "ALREADY_EXISTS", 412: "FAILED_PRECONDITION", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL",
                503: "UNAVAILABLE"}


def gce_error(code, reason, message, domain="global", extra=None):
    item = {"message": message, "domain": domain, "reason": reason}
    item.update(extra or {})
    return ApiError(code, {"error": {"code": code, "message": message, "errors": [item],
                                     "status": STATUS_NAMES.get(code, "UNKNOWN")}})


def invalid(field, value, why):
    return gce_error(400, "invalid", "Invalid value for field '%s': '%s'. %s" % (field, value, why))


def not_found(resource):
    return gce_error(404, "notFound", "The resource '%s' was not found" % resource)


def token_error(error, description):
    return ApiError(400, {"error": error, "error_description": description})


# ---- filters (the subset of GCE's list filter syntax described at the top)

FILTER_TERM = re.compile(r'\s*\(?\s*([A-Za-z_][A-Za-z0-9_.\-]*)\s*(!=|=|:)\s*("(?:[^"\\]|\\.)*"|[^\s()]+)\s*\)?\s*')


def parse_filter(text):
    terms, at = [], 0
    text = text or ""
    while at < len(text):
        if text[at:].strip() == "":
            break
        m = FILTER_TERM.match(text, at)
        if not m:
            return None
        value = m.group(3)
        if value.startswith('"'):
            value = json.loads(value)
        terms.append((m.group(1), m.group(2), value))
        at = m.end()
        rest = re.match(r"\s*AND\s+", text[at:])
        if rest:
            at += rest.end()
    return terms


def field_value(obj, path):
    for part in path.split("."):
        if not isinstance(obj, dict) or part not in obj:
            return None
        obj = obj[part]
    return obj


def matches(obj, terms):
    for name, op, value in terms:
        got = field_value(obj, name)
        text = None if got is None else (got if isinstance(got, str) else json.dumps(got))
        if op == ":":
            if value == "*":
                if got is None:
                    return False
            elif text is None or value not in text:
                return False
        elif op == "=":
            if text != value and last_segment(text or "") != value:
                return False
        elif op == "!=":
            if text == value:
                return False
    return True


class World:
    """One project's resources."""

    def __init__(self, project):
        self.project = project
        self.instances = []
        self.firewalls = {}
        self.operations = {}
        self.request_ids = {}  # (zone, requestId) -> operation name


class State:
    def __init__(self, args, zones):
        self.lock = threading.Lock()
        self.client_email = args.client_email
        with open(args.public_key_file) as f:
            self.public_key = rsa_public_key(f.read())
        self.project = args.project
        self.running_after = args.running_after
        self.zones = zones
        self.regions = list(REGIONS) + [r for r in zones if r not in REGIONS]
        self.faults = {"throttle": 0, "no_capacity_zones": [], "stale_zone_listing": False, "drop_after_accept": 0,
                       "hold_run_reply_s": 0, "quota_exceeded": False, "unauthorized": [], "api_disabled": False,
                       "invisible_s": 0, "internal_error_after_create": 0, "terminate_slow_s": 0,
                       "no_default_network": False, "unoffered": {}, "missing_image_families": [],
                       "deprecated_image_families": [], "operation_running_polls": 0}
        self.tokens = {}  # access token -> expiry (Unix s)
        self.worlds = {}
        self.calls = []

    def world(self, project):
        if project not in self.worlds:
            self.worlds[project] = World(project)
        return self.worlds[project]

    def zones_for(self, region):
        return self.zones.get(region, [region + "-a", region + "-b", region + "-c"])

    def all_zones(self):
        return [z for r in self.regions for z in self.zones_for(r)]

    def offered(self, type_name, zone):
        return zone not in (self.faults.get("unoffered") or {}).get(type_name, [])

    def project_number(self, project):
        return str(int(hashlib.sha256(project.encode()).hexdigest(), 16) % 10 ** 12)


class GoogleHandlerBase(BaseHTTPRequestHandler):
    """The plumbing of a Google API fake's handler (fake_vertex.py's too): /_fake/ paths go to control(), /token to
    token(), the rest to api(); an ApiError is answered as its status and body."""
    protocol_version = "HTTP/1.1"
    state = None  # set in main

    def log_message(self, fmt, *args):
        pass

    def reply(self, status, obj):
        data = b"" if obj is None else json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=UTF-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Vary", "Origin, X-Origin, Referer")
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

    def do_PATCH(self):
        self.handle_any("PATCH")

    def do_PUT(self):
        self.handle_any("PUT")

    def note_request(self, method, path):
        """Called with each request but the control ones, before it is answered."""

    def handle_any(self, method):
        body = self.read_body()
        path = self.path.partition("?")[0]
        if path.startswith("/_fake/"):
            self.control(method, path, body)
            return
        self.note_request(method, path)
        try:
            if path == "/token":
                self.token(method, body)
            else:
                self.api(method, body)
        except ApiError as e:
            self.reply(e.status, e.body)


def serve(handler, port_file):
    """Binds 127.0.0.1 on a free port, writes it to port_file (.tmp, then renamed) and serves until killed."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    tmp = port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(tmp, port_file)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


class Handler(GoogleHandlerBase):
    # ---- control

    def control(self, method, path, body):
        st = self.state
        if method == "GET" and path == "/_fake/state":
            with st.lock:
                instances = [self.public(w, s) for w in st.worlds.values() for s in w.instances]
                firewalls = [dict(f, project=w.project) for w in st.worlds.values() for f in w.firewalls.values()]
                operations = [dict(o["answer"], project=w.project) for w in st.worlds.values()
                              for o in w.operations.values()]
                self.reply(200, {"instances": instances, "calls": list(st.calls), "firewalls": firewalls,
                                 "operations": operations})
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
        if method == "POST" and path == "/_fake/firewalls":
            project = wanted.get("project") or st.project
            name = wanted.get("name", "")
            with st.lock:
                st.world(project).firewalls[name] = self.new_firewall(project, {
                    "name": name, "network": "global/networks/default", "direction": "INGRESS", "priority": 1000,
                    "description": "made by the test (its rule was removed)"})
            self.reply(200, {"ok": True})
            return
        self.reply(404, {"error": "unknown path"})

    @staticmethod
    def public(world, s):
        out = {k: s[k] for k in ("id", "name", "zone", "client_token", "state", "instance_type", "region", "pricing",
                                 "image", "ssh_keys", "user_data", "labels", "request_id", "termination_action",
                                 "tags", "metadata")}
        out["project"] = world.project
        if s.get("terminate_at") is not None:
            out["terminate_at"] = s["terminate_at"]
        return out

    # ---- the token endpoint

    def token(self, method, body):
        st = self.state
        form = dict(parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True))
        with st.lock:
            st.calls.append({"action": "token", "project": "", "region": "", "zone": "", "method": method,
                             "path": "/token", "params": {}, "body": {k: v for k, v in form.items()}})
        if method != "POST":
            raise ApiError(405, {"error": "invalid_request", "error_description": "Method not allowed"})
        grant = form.get("grant_type", "")
        if grant != GRANT_TYPE:
            raise token_error("unsupported_grant_type", "Invalid grant_type: " + grant)
        parts = form.get("assertion", "").split(".")
        if len(parts) != 3:
            raise token_error("invalid_grant", "Invalid JWT: the assertion is not a JWT.")
        try:
            header = json.loads(b64url_decode(parts[0]))
            claims = json.loads(b64url_decode(parts[1]))
            signature = b64url_decode(parts[2])
        except ValueError:
            raise token_error("invalid_grant", "Invalid JWT: the assertion is not a JWT.")
        if header.get("alg") != "RS256":
            raise token_error("invalid_grant", "Invalid JWT Signature.")
        if not rs256_verify(st.public_key, (parts[0] + "." + parts[1]).encode(), signature):
            raise token_error("invalid_grant", "Invalid JWT Signature.")
        if claims.get("iss") != st.client_email:
            raise token_error("invalid_grant", "Invalid grant: account not found")
        here = "http://127.0.0.1:%d/token" % self.server.server_address[1]
        if claims.get("aud") not in (GOOGLE_TOKEN_URL, here):
            raise token_error("invalid_grant", "Invalid JWT: Failed audience check.")
        iat, exp = claims.get("iat"), claims.get("exp")
        now = time.time()
        if (not isinstance(iat, (int, float)) or not isinstance(exp, (int, float)) or exp - iat > 3600
                or exp <= iat or now < iat - 300 or now > exp):
            raise token_error("invalid_grant", "Invalid JWT: Token must be a short-lived token (60 minutes) and in a "
                                               "reasonable timeframe. Check your iat and exp values in the JWT claim.")
        scopes = str(claims.get("scope", "")).split()
        if not any(s in SCOPES for s in scopes):
            raise token_error("invalid_scope", "Invalid OAuth scope or ID token audience provided.")
        access = "ya29.fake-" + uuid.uuid4().hex + uuid.uuid4().hex
        with st.lock:
            st.tokens[access] = now + 3599
        self.reply(200, {"access_token": access, "expires_in": 3599, "token_type": "Bearer"})

    # ---- API

    def api(self, method, body):
        st = self.state
        auth = self.headers.get("Authorization", "")
        with st.lock:
            token = auth[len("Bearer "):] if auth.startswith("Bearer ") else ""
            good = token in st.tokens and st.tokens[token] > time.time()
        if not good:
            message = ("Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or "
                       "other valid authentication credential. See "
                       "https://developers.google.com/identity/sign-in/web/devconsole-project.")
            raise ApiError(401, {"error": {"code": 401, "message": message, "errors": [
                {"message": "Invalid Credentials", "domain": "global", "reason": "authError",
                 "location": "Authorization", "locationType": "header"}], "status": "UNAUTHENTICATED"}})
        raw_path, _, raw_query = self.path.partition("?")
        params = {}
        for key, value in parse_qsl(raw_query, keep_blank_values=True):
            params.setdefault(key, value)
        route = None
        for m, pattern, action in ROUTES:
            match = pattern.match(raw_path)
            if match and m == method:
                route = (action, {k: unquote(v) for k, v in match.groupdict().items()})
                break
        if route is None:
            raise gce_error(404, "notFound", "The requested URL was not found on this server.")
        action, groups = route
        try:
            payload = json.loads(body) if body else None
        except ValueError:
            payload = ValueError
        zone = groups.get("zone", "")
        project = groups["project"]
        with st.lock:
            st.calls.append({"action": action, "project": project, "region": region_of(zone), "zone": zone,
                             "method": method, "path": raw_path, "params": params,
                             "body": None if payload is ValueError else payload})
            if st.faults.get("api_disabled"):
                number = st.project_number(project)
                url = "https://console.developers.google.com/apis/api/compute.googleapis.com/overview?project=" + number
                raise gce_error(403, "accessNotConfigured",
                                "Compute Engine API has not been used in project %s before or it is disabled. "
                                "Enable it by visiting %s then retry. If you enabled this API recently, wait a few "
                                "minutes for the action to propagate to our systems and retry." % (number, url),
                                domain="usageLimits", extra={"extendedHelp": "https://console.developers.google.com"})
            if st.faults.get("throttle", 0) > 0:
                st.faults["throttle"] -= 1
                raise gce_error(403, "rateLimitExceeded", "Rate Limit Exceeded", domain="usageLimits")
            if action in (st.faults.get("unauthorized") or []):
                raise gce_error(403, "forbidden", "Required '%s' permission for '%s'" % (
                    PERMISSIONS.get(action, "compute." + action), self.resource_of(action, groups, payload)))
        if payload is ValueError:
            raise gce_error(400, "parseError", "Invalid JSON payload received.")
        if zone and zone not in st.all_zones():
            raise invalid("zone", zone, "Unknown zone.")
        getattr(self, "act_" + action.replace(".", "_"))(st.world(project), params, payload, groups)

    @staticmethod
    def resource_of(action, groups, payload):
        p = "projects/" + groups["project"]
        if "instance" in groups:
            return "%s/zones/%s/instances/%s" % (p, groups["zone"], groups["instance"])
        if action == "instances.insert":
            name = payload.get("name", "") if isinstance(payload, dict) else ""
            return "%s/zones/%s/instances/%s" % (p, groups["zone"], name)
        if "firewall" in groups:
            return "%s/global/firewalls/%s" % (p, groups["firewall"])
        if action == "firewalls.insert":
            name = payload.get("name", "") if isinstance(payload, dict) else ""
            return "%s/global/firewalls/%s" % (p, name)
        if "operation" in groups:
            where = ("zones/" + groups["zone"]) if "zone" in groups else "global"
            return "%s/%s/operations/%s" % (p, where, groups["operation"])
        if "zone" in groups:
            return "%s/zones/%s" % (p, groups["zone"])
        return p

    # ---- paging

    def page(self, items, params):
        try:
            limit = int(params.get("maxResults") or 500)
        except ValueError:
            raise invalid("maxResults", params.get("maxResults"), "Must be an integer.")
        if not 0 <= limit <= 500:
            raise invalid("maxResults", limit, "Must be less than or equal to 500")
        limit = limit or 500
        token = params.get("pageToken") or ""
        try:
            offset = int(b64url_decode(token).decode()[len("offset:"):]) if token else 0
        except ValueError:
            raise invalid("pageToken", token, "Invalid page token.")
        chunk = items[offset:offset + limit]
        following = offset + limit if offset + limit < len(items) else None
        return chunk, (base64.urlsafe_b64encode(("offset:%d" % following).encode()).decode().rstrip("=")
                       if following is not None else None)

    def filter_terms(self, params):
        terms = parse_filter(params.get("filter", ""))
        if terms is None:
            raise invalid("filter", params.get("filter"), "Invalid list filter expression.")
        return terms

    @staticmethod
    def aggregated(scopes, key, items_by_zone, kind, project, extra=None):
        items = {}
        for zone in scopes:
            found = items_by_zone.get(zone, [])
            if found:
                items["zones/" + zone] = {key: found}
            else:
                items["zones/" + zone] = {"warning": {
                    "code": "NO_RESULTS_ON_PAGE",
                    "message": "There are no results for scope 'zones/%s' on this page." % zone,
                    "data": [{"key": "scope", "value": "zones/" + zone}]}}
        out = {"kind": kind, "id": "projects/%s/aggregated/%s" % (project, key), "items": items,
               "selfLink": LINK + "projects/%s/aggregated/%s" % (project, key)}
        out.update(extra or {})
        return out

    # ---- machine types and accelerator types

    def machine_type(self, project, zone, name):
        cpus, memory, accelerator, gpus = MACHINES[name]
        out = {"kind": "compute#machineType", "id": str(int(hashlib.md5(name.encode()).hexdigest()[:12], 16)),
               "creationTimestamp": "1969-12-31T16:00:00.000-08:00", "name": name,
               "description": "%d vCPUs, %d GB RAM" % (cpus, memory // 1024), "guestCpus": cpus, "memoryMb": memory,
               "imageSpaceGb": 0, "maximumPersistentDisks": 128, "maximumPersistentDisksSizeGb": "263168",
               "zone": zone, "isSharedCpu": False, "architecture": "X86_64",
               "selfLink": LINK + "projects/%s/zones/%s/machineTypes/%s" % (project, zone, name)}
        if accelerator:
            out["accelerators"] = [{"guestAcceleratorType": accelerator, "guestAcceleratorCount": gpus}]
        return out

    def accelerator_type(self, project, zone, name):
        description, _, _, most = ACCELERATORS[name]
        return {"kind": "compute#acceleratorType", "id": str(int(hashlib.md5(name.encode()).hexdigest()[:12], 16)),
                "creationTimestamp": "1969-12-31T16:00:00.000-08:00", "name": name, "description": description,
                "zone": LINK + "projects/%s/zones/%s" % (project, zone), "maximumCardsPerInstance": most,
                "selfLink": LINK + "projects/%s/zones/%s/acceleratorTypes/%s" % (project, zone, name)}

    def catalog_list(self, world, params, names, make, key, kind):
        st = self.state
        terms = self.filter_terms(params)
        by_zone = {}
        with st.lock:
            zones = st.all_zones()
            for zone in zones:
                found = [make(world.project, zone, n) for n in names if st.offered(n, zone)]
                by_zone[zone] = [x for x in found if matches(x, terms)]
        flat = [(z, x) for z in zones for x in by_zone[z]]
        chunk, following = self.page(flat, params)
        page_by_zone = {}
        for zone, x in chunk:
            page_by_zone.setdefault(zone, []).append(x)
        extra = {"nextPageToken": following} if following else {}
        self.reply(200, self.aggregated(zones, key, page_by_zone, kind, world.project, extra))

    def act_machineTypes_aggregatedList(self, world, params, body, groups):
        self.catalog_list(world, params, list(MACHINES), self.machine_type, "machineTypes",
                          "compute#machineTypeAggregatedList")

    def act_acceleratorTypes_aggregatedList(self, world, params, body, groups):
        self.catalog_list(world, params, list(ACCELERATORS), self.accelerator_type, "acceleratorTypes",
                          "compute#acceleratorTypeAggregatedList")

    # ---- images and networks

    def image(self, family):
        name = family + "-v20261120"
        out = {"kind": "compute#image", "id": str(int(hashlib.md5(name.encode()).hexdigest()[:16], 16) >> 1),
               "creationTimestamp": "2026-11-20T12:00:00.000-08:00", "name": name,
               "description": "Google, Deep Learning VM with CUDA and the NVIDIA driver, (fake) " + family,
               "sourceType": "RAW", "status": "READY", "archiveSizeBytes": "41943040000", "diskSizeGb": "50",
               "licenses": [LINK + "projects/click-to-deploy-images/global/licenses/c2d-dl-platform-common"],
               "family": family, "selfLink": LINK + "projects/%s/global/images/%s" % (DLVM_PROJECT, name),
               "labelFingerprint": "42WmSpB8rSM=", "guestOsFeatures": [{"type": "UEFI_COMPATIBLE"},
                                                                       {"type": "VIRTIO_SCSI_MULTIQUEUE"},
                                                                       {"type": "GVNIC"}],
               "storageLocations": ["eu", "us", "asia"], "architecture": "X86_64"}
        if family in (self.state.faults.get("deprecated_image_families") or []):
            newer = LINK + "projects/%s/global/images/%s-v20261201" % (DLVM_PROJECT, family)
            out["deprecated"] = {"state": "DEPRECATED", "replacement": newer}
        return out

    def families(self):
        missing = self.state.faults.get("missing_image_families") or []
        return [f for f in DLVM_FAMILIES if f not in missing]

    def act_images_getFromFamily(self, world, params, body, groups):
        family = groups["family"]
        if world.project != DLVM_PROJECT or family not in self.families():
            raise not_found("projects/%s/global/images/family/%s" % (world.project, family))
        self.reply(200, self.image(family))

    def act_images_get(self, world, params, body, groups):
        found = self.find_image(world.project, groups["image"])
        if found is None:
            raise not_found("projects/%s/global/images/%s" % (world.project, groups["image"]))
        self.reply(200, found)

    def find_image(self, project, name):
        if project != DLVM_PROJECT:
            return None
        for family in self.families():
            if self.image(family)["name"] == name:
                return self.image(family)
        return None

    def has_network(self, world, network):
        """Whether `network` (a name, a relative or full URL) is the project's default network."""
        name = last_segment(network)
        m = re.match(r"^(?:%s)?(?:projects/([^/]+)/)?global/networks/([^/]+)$" % re.escape(LINK), network or "")
        if not m or (m.group(1) and m.group(1) != world.project):
            return False
        return name == "default" and not self.state.faults.get("no_default_network")

    def act_networks_get(self, world, params, body, groups):
        if groups["network"] != "default" or self.state.faults.get("no_default_network"):
            raise not_found("projects/%s/global/networks/%s" % (world.project, groups["network"]))
        self.reply(200, {"kind": "compute#network", "id": str(int(hashlib.md5(world.project.encode()).hexdigest()[:15],
                                                                      16)),
                         "creationTimestamp": "2026-01-01T00:00:00.000-08:00", "name": "default",
                         "description": "Default network for the project", "autoCreateSubnetworks": True,
                         "routingConfig": {"routingMode": "REGIONAL"}, "networkFirewallPolicyEnforcementOrder":
                         "AFTER_CLASSIC_FIREWALL",
                         "selfLink": LINK + "projects/%s/global/networks/default" % world.project})

    # ---- operations

    def new_operation(self, world, op_type, target_link, target_id, zone=None, error=None):
        name = operation_name()
        where = ("zones/" + zone) if zone else "global"
        answer = {"kind": "compute#operation", "id": new_id(), "name": name, "operationType": op_type,
                  "targetLink": target_link, "targetId": target_id, "status": "RUNNING",
                  "user": self.state.client_email, "progress": 0, "insertTime": now_rfc3339(),
                  "startTime": now_rfc3339(),
                  "selfLink": LINK + "projects/%s/%s/operations/%s" % (world.project, where, name)}
        if zone:
            answer["zone"] = LINK + "projects/%s/zones/%s" % (world.project, zone)
        op = {"answer": answer, "error": error, "polls": 0, "zone": zone}
        world.operations[name] = op
        return op

    def polled(self, op):
        """The operation's answer to a get or wait: DONE after operation_running_polls RUNNING answers."""
        op["polls"] += 1
        out = dict(op["answer"])
        if op["polls"] <= int(self.state.faults.get("operation_running_polls") or 0):
            out["progress"] = 50
            return out
        out.update({"status": "DONE", "progress": 100, "endTime": now_rfc3339()})
        if op["error"]:
            code, message, http_status, http_message = op["error"]
            out["error"] = {"errors": [{"code": code, "message": message}]}
            out["httpErrorStatusCode"] = http_status
            out["httpErrorMessage"] = http_message
        op["answer"].update(out)  # a resend of its request id answers it as it is now
        return out

    def zone_operation(self, world, groups):
        with self.state.lock:
            op = world.operations.get(groups["operation"])
            if op is None or op["zone"] != groups["zone"]:
                raise not_found("projects/%s/zones/%s/operations/%s" % (world.project, groups["zone"],
                                                                      groups["operation"]))
            out = self.polled(op)
        self.reply(200, out)

    def act_zoneOperations_wait(self, world, params, body, groups):
        self.zone_operation(world, groups)

    def act_zoneOperations_get(self, world, params, body, groups):
        self.zone_operation(world, groups)

    def act_globalOperations_wait(self, world, params, body, groups):
        self.act_globalOperations_get(world, params, body, groups)

    def act_globalOperations_get(self, world, params, body, groups):
        with self.state.lock:
            op = world.operations.get(groups["operation"])
            if op is None or op["zone"] is not None:
                raise not_found("projects/%s/global/operations/%s" % (world.project, groups["operation"]))
            out = self.polled(op)
        self.reply(200, out)

    # ---- firewalls

    def new_firewall(self, project, spec):
        name = spec.get("name", "")
        return {"kind": "compute#firewall", "id": new_id(), "creationTimestamp": now_rfc3339(), "name": name,
                "description": spec.get("description", ""),
                "network": LINK + "projects/%s/global/networks/%s" % (project, last_segment(spec.get("network"))),
                "priority": int(spec.get("priority", 1000)), "sourceRanges": list(spec.get("sourceRanges") or []),
                "targetTags": list(spec.get("targetTags") or []), "allowed": list(spec.get("allowed") or []),
                "direction": spec.get("direction", "INGRESS"), "logConfig": {"enable": False}, "disabled": False,
                "selfLink": LINK + "projects/%s/global/firewalls/%s" % (project, name)}

    def check_firewall(self, world, body, partial):
        if not isinstance(body, dict):
            raise gce_error(400, "required", "Required field 'resource' not specified")
        if not partial or "name" in body:
            if not NAME_RE.match(body.get("name") or ""):
                raise invalid("resource.name", body.get("name", ""),
                              "Must be a match of regex '(?:[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?)'")
        if not partial or "network" in body:
            if not self.has_network(world, body.get("network", "global/networks/default")):
                raise not_found("projects/%s/global/networks/%s" % (world.project, last_segment(body.get("network"))))
        if body.get("direction", "INGRESS") not in ("INGRESS", "EGRESS"):
            raise invalid("resource.direction", body.get("direction"), "Must be INGRESS or EGRESS.")
        priority = body.get("priority", 1000)
        if not isinstance(priority, int) or not 0 <= priority <= 65535:
            raise invalid("resource.priority", priority, "Must be between 0 and 65535.")
        for i, rule in enumerate(body.get("allowed") or []):
            if not isinstance(rule, dict) or not rule.get("IPProtocol"):
                raise gce_error(400, "required", "Required field 'resource.allowed[%d].IPProtocol' not specified" % i)
            for port in rule.get("ports") or []:
                if not isinstance(port, str) or not re.match(r"^\d+(-\d+)?$", port):
                    raise invalid("resource.allowed[%d].ports[]" % i, port, "Must be a port or a port range.")
        if not partial and not (body.get("allowed") or body.get("denied")):
            raise gce_error(400, "required", "Required field 'resource.allowed' not specified")
        for cidr in body.get("sourceRanges") or []:
            if not re.match(r"^\d{1,3}(\.\d{1,3}){3}(/\d{1,2})?$", str(cidr)):
                raise invalid("resource.sourceRanges[]", cidr, "Must be an IPv4 CIDR.")

    def act_firewalls_get(self, world, params, body, groups):
        with self.state.lock:
            found = world.firewalls.get(groups["firewall"])
        if found is None:
            raise not_found("projects/%s/global/firewalls/%s" % (world.project, groups["firewall"]))
        self.reply(200, found)

    def act_firewalls_insert(self, world, params, body, groups):
        self.check_firewall(world, body, partial=False)
        with self.state.lock:
            name = body["name"]
            if name in world.firewalls:
                raise gce_error(409, "alreadyExists", "The resource 'projects/%s/global/firewalls/%s' already exists"
                                % (world.project, name))
            world.firewalls[name] = self.new_firewall(world.project, body)
            op = self.new_operation(world, "insert", world.firewalls[name]["selfLink"], world.firewalls[name]["id"])
        self.reply(200, op["answer"])

    def act_firewalls_patch(self, world, params, body, groups):
        self.check_firewall(world, body, partial=True)
        with self.state.lock:
            rule = world.firewalls.get(groups["firewall"])
            if rule is None:
                raise not_found("projects/%s/global/firewalls/%s" % (world.project, groups["firewall"]))
            if body.get("name", rule["name"]) != rule["name"]:
                raise invalid("resource.name", body["name"], "The name cannot be changed.")
            for key in ("description", "priority", "sourceRanges", "targetTags", "allowed", "direction", "disabled"):
                if key in body:
                    rule[key] = body[key]
            op = self.new_operation(world, "patch", rule["selfLink"], rule["id"])
        self.reply(200, op["answer"])

    # ---- instances

    def visible(self, s):
        invisible = float(self.state.faults.get("invisible_s") or 0)
        return not s["gone"] and time.time() - s["created_at"] >= invisible

    def find(self, world, zone, name):
        return next((s for s in world.instances if s["zone"] == zone and s["name"] == name and not s["gone"]), None)

    def launch_spec(self, world, zone, body):
        """Validates an insert's body as GCE does; what the fake keeps of it."""
        if not isinstance(body, dict):
            raise gce_error(400, "required", "Required field 'resource' not specified")
        name = body.get("name") or ""
        if not NAME_RE.match(name):
            raise invalid("resource.name", name, "Must be a match of regex '(?:[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?)'")
        machine = body.get("machineType") or ""
        m = re.match(r"^(?:%s)?(?:projects/([^/]+)/)?zones/([^/]+)/machineTypes/([^/]+)$" % re.escape(LINK), machine)
        if not m:
            raise invalid("resource.machineType", machine, "Must be a URL to a machine type resource.")
        if (m.group(1) and m.group(1) != world.project) or m.group(2) != zone:
            raise invalid("resource.machineType", machine, "Machine type must be in the zone of the instance.")
        mtype = m.group(3)
        if mtype not in MACHINES or not self.state.offered(mtype, zone):
            raise invalid("resource.machineType", machine,
                          "Machine type with name '%s' does not exist in zone '%s'." % (mtype, zone))
        disks = body.get("disks") or []
        boots = [d for d in disks if isinstance(d, dict) and d.get("boot")]
        if len(boots) != 1:
            raise gce_error(400, "invalid", "Invalid value for field 'resource.disks': ''. Boot disk must be "
                                            "specified.")
        params = boots[0].get("initializeParams") or {}
        image = params.get("sourceImage") or ""
        im = re.match(r"^(?:%s)?(?:projects/([^/]+)/)?global/images/(family/)?([^/]+)$" % re.escape(LINK), image)
        if not im:
            raise invalid("resource.disks[0].initializeParams.sourceImage", image, "Must be a URL to an image.")
        image_project = im.group(1) or world.project
        if image_project == DLVM_PROJECT:
            exists = (im.group(3) in self.families()) if im.group(2) else \
                self.find_image(DLVM_PROJECT, im.group(3)) is not None
            if not exists:
                raise not_found("projects/%s/global/images/%s%s" % (image_project, im.group(2) or "", im.group(3)))
        size = params.get("diskSizeGb")
        if size is not None:
            try:
                size = int(size)
            except (TypeError, ValueError):
                raise invalid("resource.disks[0].initializeParams.diskSizeGb", size, "Must be an integer.")
            if not 10 <= size <= 65536:
                raise invalid("resource.disks[0].initializeParams.diskSizeGb", size,
                              "Requested disk size cannot be smaller than the image size (10 GB).")
        disk_type = params.get("diskType")
        if disk_type is not None:
            dm = re.match(r"^(?:%s)?(?:projects/[^/]+/)?zones/([^/]+)/diskTypes/(pd-standard|pd-balanced|pd-ssd|"
                          r"pd-extreme|hyperdisk-balanced)$" % re.escape(LINK), disk_type)
            if not dm or dm.group(1) != zone:
                raise invalid("resource.disks[0].initializeParams.diskType", disk_type,
                              "Disk type must be a disk type of the instance's zone.")
        nics = body.get("networkInterfaces") or []
        if not nics:
            raise gce_error(400, "required", "Required field 'resource.networkInterfaces' not specified")
        network = nics[0].get("network") or "global/networks/default"
        if not self.has_network(world, network):
            raise not_found("projects/%s/global/networks/%s" % (world.project, last_segment(network)))
        for access in nics[0].get("accessConfigs") or []:
            if access.get("type", "ONE_TO_ONE_NAT") != "ONE_TO_ONE_NAT":
                raise invalid("resource.networkInterfaces[0].accessConfigs[0].type", access.get("type"),
                              "Must be ONE_TO_ONE_NAT.")
        accelerators = body.get("guestAccelerators") or []
        gpu_name, gpu_count = MACHINES[mtype][2], MACHINES[mtype][3]
        if accelerators:
            if not mtype.startswith("n1-"):
                raise invalid("resource.guestAccelerators", "", "Machine type %s does not support guest "
                                                                "accelerators that are not attached to it." % mtype)
            if len(accelerators) != 1:
                raise invalid("resource.guestAccelerators", "", "Only one accelerator type is supported.")
            a = accelerators[0]
            am = re.match(r"^(?:%s)?(?:projects/[^/]+/)?zones/([^/]+)/acceleratorTypes/([^/]+)$" % re.escape(LINK),
                          a.get("acceleratorType") or "")
            if not am or am.group(1) != zone or am.group(2) not in ACCELERATORS or \
                    not self.state.offered(am.group(2), zone):
                raise invalid("resource.guestAccelerators[0].acceleratorType", a.get("acceleratorType", ""),
                              "Accelerator type is not available in zone '%s'." % zone)
            count = a.get("acceleratorCount")
            if not isinstance(count, int) or not 1 <= count <= ACCELERATORS[am.group(2)][3]:
                raise invalid("resource.guestAccelerators[0].acceleratorCount", count,
                              "Must be between 1 and %d." % ACCELERATORS[am.group(2)][3])
            gpu_name, gpu_count = am.group(2), count
        scheduling = body.get("scheduling") or {}
        model = scheduling.get("provisioningModel", "STANDARD")
        if model not in ("SPOT", "STANDARD"):
            raise invalid("resource.scheduling.provisioningModel", model, "Must be SPOT or STANDARD.")
        if model == "SPOT" and scheduling.get("automaticRestart", True) is not False:
            raise invalid("resource.scheduling.automaticRestart", "true",
                          "Spot VMs must have automaticRestart set to false.")
        if gpu_name and scheduling.get("onHostMaintenance", "MIGRATE") != "TERMINATE":
            raise gce_error(400, "invalid", "Invalid value for field 'resource.scheduling.onHostMaintenance': "
                                            "'MIGRATE'. Instances with guest accelerators do not support live "
                                            "migration.")
        action = scheduling.get("instanceTerminationAction")
        if action is not None and action not in ("STOP", "DELETE"):
            raise invalid("resource.scheduling.instanceTerminationAction", action, "Must be STOP or DELETE.")
        terminate_at = None
        if scheduling.get("terminationTime") is not None:
            terminate_at = parse_rfc3339(scheduling["terminationTime"])
            if terminate_at is None or terminate_at <= time.time():
                raise invalid("resource.scheduling.terminationTime", scheduling["terminationTime"],
                              "Must be an RFC 3339 time in the future.")
            if scheduling.get("maxRunDuration"):
                raise invalid("resource.scheduling.terminationTime", scheduling["terminationTime"],
                              "terminationTime and maxRunDuration cannot both be set.")
        labels = body.get("labels") or {}
        if len(labels) > 64:
            raise invalid("resource.labels", "", "At most 64 labels.")
        for key, value in labels.items():
            if not LABEL_KEY_RE.match(key) or not isinstance(value, str) or not LABEL_VALUE_RE.match(value):
                raise invalid("resource.labels", "%s=%s" % (key, value), "Label keys and values must match "
                                                                          "[a-z][a-z0-9_-]{0,62} and [a-z0-9_-]{0,63}.")
        items = (body.get("metadata") or {}).get("items") or []
        metadata, total = {}, 0
        for item in items:
            key, value = item.get("key", ""), item.get("value", "")
            if key in metadata:
                raise invalid("resource.metadata", key, "Duplicate metadata key.")
            if len(value.encode()) > METADATA_VALUE_MAX:
                raise invalid("resource.metadata", key, "Metadata value exceeds 256 KB.")
            total += len(key.encode()) + len(value.encode())
            metadata[key] = value
        if total > METADATA_TOTAL_MAX:
            raise invalid("resource.metadata", "", "Metadata exceeds 512 KB in total.")
        tags = (body.get("tags") or {}).get("items") or []
        for tag in tags:
            if not NAME_RE.match(tag):
                raise invalid("resource.tags.items[]", tag, "Must be a match of regex "
                                                            "'(?:[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?)'")
        return {"name": name, "machine_type": mtype, "gpu": gpu_name, "gpu_count": gpu_count,
                "accelerators": bool(accelerators), "image": image, "model": model, "terminate_at": terminate_at,
                "action": action or "STOP", "labels": labels, "metadata": metadata, "tags": tags,
                "disk_size": str(size if size is not None else 50), "scheduling": scheduling}

    def act_instances_insert(self, world, params, body, groups):
        st = self.state
        zone = groups["zone"]
        request_id = params.get("requestId")
        if request_id is not None and (not UUID_RE.match(request_id) or request_id.strip("0-") == ""):
            raise invalid("requestId", request_id, "The request id must be a valid UUID with the exception that zero "
                                                   "UUID is not supported.")
        with st.lock:
            bound = world.request_ids.get((zone, request_id)) if request_id else None
            if bound is not None:
                op = world.operations[bound]
                if st.faults.get("internal_error_after_create", 0) > 0:
                    st.faults["internal_error_after_create"] -= 1
                    raise self.internal_error()
                answer = op["answer"]
                self.reply(200, answer)
                return
        spec = self.launch_spec(world, zone, body)
        link = LINK + "projects/%s/zones/%s/instances/%s" % (world.project, zone, spec["name"])
        with st.lock:
            if self.find(world, zone, spec["name"]) is not None:
                raise gce_error(409, "alreadyExists", "The resource 'projects/%s/zones/%s/instances/%s' already exists"
                                % (world.project, zone, spec["name"]))
            target_id = new_id()
            error = None
            region = region_of(zone)
            if zone in (st.faults.get("no_capacity_zones") or []):
                error = ("ZONE_RESOURCE_POOL_EXHAUSTED", "The zone 'projects/%s/zones/%s' does not have enough "
                         "resources available to fulfill the request.  Try a different zone, or try again later."
                         % (world.project, zone), 503, "SERVICE UNAVAILABLE")
            elif st.faults.get("quota_exceeded") and spec["gpu"]:
                wanted = st.faults["quota_exceeded"]
                if isinstance(wanted, str) and wanted == "GPUS_ALL_REGIONS":
                    message = "Quota 'GPUS_ALL_REGIONS' exceeded. Limit: 0.0 globally."
                else:
                    metric = wanted if isinstance(wanted, str) else ACCELERATORS[spec["gpu"]][1]
                    if spec["model"] == "SPOT" and not isinstance(wanted, str):
                        metric = "PREEMPTIBLE_" + metric
                    message = "Quota '%s' exceeded. Limit: 0.0 in region %s." % (metric, region)
                error = ("QUOTA_EXCEEDED", message, 403, "FORBIDDEN")
            op = self.new_operation(world, "insert", link, target_id, zone=zone, error=error)
            if request_id:
                world.request_ids[(zone, request_id)] = op["answer"]["name"]
            if error is None:
                instance_type = spec["machine_type"]
                if spec["accelerators"]:
                    instance_type += "+%dx%s" % (spec["gpu_count"], ACCELERATORS[spec["gpu"]][2])
                ssh = spec["metadata"].get("ssh-keys", "")
                world.instances.append({
                    "id": "%s/%s" % (zone, spec["name"]), "name": spec["name"], "zone": zone, "region": region,
                    "client_token": spec["labels"].get("gpuplanner-token"), "state": "PROVISIONING",
                    "instance_type": instance_type, "pricing": "spot" if spec["model"] == "SPOT" else "on_demand",
                    "image": spec["image"], "ssh_keys": ssh, "user_data": spec["metadata"].get(
                        "startup-script", spec["metadata"].get("user-data")),
                    "labels": spec["labels"], "terminate_at": spec["terminate_at"], "request_id": request_id,
                    "termination_action": spec["action"], "tags": spec["tags"], "metadata": spec["metadata"],
                    "spec": spec, "body": body, "numeric_id": target_id, "status": "PROVISIONING", "describes": 0,
                    "created": now_rfc3339(), "created_at": time.time(), "started": None, "deleting_since": None,
                    "gone": False, "internal_ip": "10.128.0.%d" % random.randint(2, 254)})
                if st.faults.get("internal_error_after_create", 0) > 0:
                    st.faults["internal_error_after_create"] -= 1
                    raise self.internal_error()
            drop = error is None and st.faults.get("drop_after_accept", 0) > 0
            if drop:
                st.faults["drop_after_accept"] -= 1
            hold = float(st.faults.get("hold_run_reply_s") or 0) if error is None else 0
            if hold:
                st.faults["hold_run_reply_s"] = 0
            answer = dict(op["answer"])
        if drop:
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            return
        if hold:
            time.sleep(hold)
        self.reply(200, answer)

    @staticmethod
    def internal_error():
        code = "-%d" % random.randint(10 ** 18, 9 * 10 ** 18)
        return gce_error(500, "backendError", "Internal error. Please try again or contact Google Support. "
                                              "(Code: '%s')" % code)

    def before_shown(self, world, s):
        """The instance is about to be shown: its termination time and a delete that is no longer slow."""
        if s["terminate_at"] is not None and time.time() >= s["terminate_at"] and not s["deleting_since"] \
                and s["status"] != "TERMINATED":
            if s["termination_action"] == "DELETE":
                s["deleting_since"] = time.time()
                s["state"] = "Terminating"
            else:
                s["status"] = s["state"] = "TERMINATED"
        if s["deleting_since"]:
            s["status"] = "STOPPING"

    def shown(self, s):
        """The instance was just shown in an answer: PROVISIONING, STAGING, then RUNNING after running_after answers;
        a deleted one is shown STOPPING for terminate_slow_s seconds, at least once."""
        if s["deleting_since"]:
            if time.time() - s["deleting_since"] >= float(self.state.faults.get("terminate_slow_s") or 0):
                s["gone"] = True
                s["state"] = "Terminated"
            return
        if s["status"] in ("PROVISIONING", "STAGING"):
            s["describes"] += 1
            if s["describes"] >= self.state.running_after:
                s["status"] = s["state"] = "RUNNING"
                s["started"] = now_rfc3339()
            else:
                s["status"] = s["state"] = "STAGING"

    def describe_one(self, world, s):
        p, zone, spec = world.project, s["zone"], s["spec"]
        access = {"kind": "compute#accessConfig", "type": "ONE_TO_ONE_NAT", "name": "External NAT",
                  "networkTier": "PREMIUM"}
        if s["status"] == "RUNNING":
            access["natIP"] = "127.0.0.1"
        scheduling = {"onHostMaintenance": spec["scheduling"].get("onHostMaintenance", "MIGRATE"),
                      "automaticRestart": spec["scheduling"].get("automaticRestart", True),
                      "preemptible": spec["model"] == "SPOT", "provisioningModel": spec["model"]}
        for key in ("instanceTerminationAction", "terminationTime", "maxRunDuration"):
            if key in spec["scheduling"]:
                scheduling[key] = spec["scheduling"][key]
        out = {"kind": "compute#instance", "id": s["numeric_id"], "creationTimestamp": s["created"],
               "name": s["name"], "tags": {"items": spec["tags"], "fingerprint": "42WmSpB8rSM="},
               "machineType": LINK + "projects/%s/zones/%s/machineTypes/%s" % (p, zone, spec["machine_type"]),
               "status": s["status"], "zone": LINK + "projects/%s/zones/%s" % (p, zone), "canIpForward": False,
               "networkInterfaces": [{"kind": "compute#networkInterface",
                                      "network": LINK + "projects/%s/global/networks/default" % p,
                                      "subnetwork": LINK + "projects/%s/regions/%s/subnetworks/default"
                                      % (p, s["region"]),
                                      "networkIP": s["internal_ip"], "name": "nic0", "accessConfigs": [access],
                                      "fingerprint": "kT0bcD8nX4o=", "stackType": "IPV4_ONLY"}],
               "disks": [{"kind": "compute#attachedDisk", "type": "PERSISTENT", "mode": "READ_WRITE",
                          "source": LINK + "projects/%s/zones/%s/disks/%s" % (p, zone, s["name"]),
                          "deviceName": "persistent-disk-0", "index": 0, "boot": True, "autoDelete": True,
                          "interface": "SCSI", "diskSizeGb": spec["disk_size"], "architecture": "X86_64",
                          "guestOsFeatures": [{"type": "UEFI_COMPATIBLE"}, {"type": "GVNIC"}]}],
               "metadata": {"kind": "compute#metadata", "fingerprint": "zPMEqYVcKdo=",
                            "items": [{"key": k, "value": v} for k, v in spec["metadata"].items()]},
               "selfLink": LINK + "projects/%s/zones/%s/instances/%s" % (p, zone, s["name"]),
               "scheduling": scheduling, "cpuPlatform": "Intel Cascade Lake", "labels": spec["labels"],
               "labelFingerprint": "c2hR0P4C2aA=", "startRestricted": False, "deletionProtection": False,
               "fingerprint": "r1JbYdWw5kE=", "lastStartTimestamp": s["started"] or ""}
        if not s["started"]:
            del out["lastStartTimestamp"]
        if spec["accelerators"]:
            out["guestAccelerators"] = [{"acceleratorType": LINK + "projects/%s/zones/%s/acceleratorTypes/%s"
                                         % (p, zone, spec["gpu"]), "acceleratorCount": spec["gpu_count"]}]
        return out

    def act_instances_get(self, world, params, body, groups):
        zone, name = groups["zone"], groups["instance"]
        with self.state.lock:
            s = self.find(world, zone, name)
            if s is None or not self.visible(s):
                raise not_found("projects/%s/zones/%s/instances/%s" % (world.project, zone, name))
            self.before_shown(world, s)
            out = self.describe_one(world, s)
            self.shown(s)
        self.reply(200, out)

    def listed(self, world, params, zones):
        terms = self.filter_terms(params)
        with self.state.lock:
            candidates = [s for z in zones for s in sorted(world.instances, key=lambda x: x["name"])
                          if s["zone"] == z and self.visible(s)]
            for s in candidates:
                self.before_shown(world, s)
            described = [(s, self.describe_one(world, s)) for s in candidates]
            described = [(s, d) for s, d in described if matches(d, terms)]
            chunk, following = self.page(described, params)
            for s, _ in chunk:
                self.shown(s)
        return chunk, following

    def act_instances_aggregatedList(self, world, params, body, groups):
        zones = self.state.all_zones()
        chunk, following = self.listed(world, params, zones)
        by_zone = {}
        for s, d in chunk:
            by_zone.setdefault(s["zone"], []).append(d)
        extra = {"nextPageToken": following} if following else {}
        self.reply(200, self.aggregated(zones, "instances", by_zone, "compute#instanceAggregatedList", world.project,
                                        extra))

    def act_instances_list(self, world, params, body, groups):
        zone = groups["zone"]
        chunk, following = self.listed(world, params, [zone])
        out = {"kind": "compute#instanceList", "id": "projects/%s/zones/%s/instances" % (world.project, zone),
               "items": [d for _, d in chunk],
               "selfLink": LINK + "projects/%s/zones/%s/instances" % (world.project, zone)}
        if following:
            out["nextPageToken"] = following
        self.reply(200, out)

    def act_instances_delete(self, world, params, body, groups):
        zone, name = groups["zone"], groups["instance"]
        request_id = params.get("requestId")
        if request_id is not None and (not UUID_RE.match(request_id) or request_id.strip("0-") == ""):
            raise invalid("requestId", request_id, "The request id must be a valid UUID with the exception that zero "
                                                   "UUID is not supported.")
        with self.state.lock:
            bound = world.request_ids.get((zone, request_id)) if request_id else None
            if bound is not None:
                self.reply(200, world.operations[bound]["answer"])
                return
            s = self.find(world, zone, name)
            if s is None or not self.visible(s):
                raise not_found("projects/%s/zones/%s/instances/%s" % (world.project, zone, name))
            if not s["deleting_since"]:
                s["deleting_since"] = time.time()
                s["state"] = "Terminating"
            op = self.new_operation(world, "delete", LINK + "projects/%s/zones/%s/instances/%s"
                                    % (world.project, zone, name), s["numeric_id"], zone=zone)
            if request_id:
                world.request_ids[(zone, request_id)] = op["answer"]["name"]
            answer = dict(op["answer"])
        self.reply(200, answer)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--client-email", default=DEFAULT_EMAIL)
    parser.add_argument("--public-key-file", default=DEFAULT_KEY)
    parser.add_argument("--project", default=None)
    parser.add_argument("--running-after", type=int, default=2)
    parser.add_argument("--access-key-id", default=None)  # FakeCloud.h passes these to every fake: ignored
    parser.add_argument("--secret-key", default=None)
    args, rest = parser.parse_known_args()
    if args.project is None:
        args.project = args.client_email.partition("@")[2].partition(".iam.gserviceaccount.com")[0] or "gpuplan-test"
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
    return serve(Handler, args.port_file)


if __name__ == "__main__":
    sys.exit(main())
