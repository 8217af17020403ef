#!/usr/bin/env python3
"""A FAKE of the Lambda Cloud API (v1) for GPU Planner's flow tests.

It is not Lambda: it answers the REST calls LambdaProvider makes, on one loopback port, in the documented JSON shapes,
and it produces on demand the faults a real cloud will not (throttling, no capacity, dropped connections, slow
replies, quota, permission errors, an instance that is not listed yet).

    python3 fake_lambda.py --port-file FILE [--secret-key API_KEY] [--running-after N]

Binds 127.0.0.1 on a free port, writes the port to FILE (FILE.tmp, then renamed), serves until killed
(ThreadingHTTPServer, HTTP/1.1). --access-key-id is accepted and ignored (the access-key clouds' fakes take it).

Where the shapes come from
- The API reference https://docs-api.lambda.ai/api/cloud, i.e. Lambda's OpenAPI document "Lambda Cloud API" 1.10.0
  (https://cloud.lambda.ai/api/v1/openapi.json; the copy read is the third-party mirror github.com/api-evangelist/
  lambda-labs, openapi/_original/lambda-labs-openapi.json): paths under /api/v1, {"data": ...} answers,
  {"error": {"code", "message", "suggestion"?}} errors with the codes and default messages of its ApiError* schemas,
  the Instance, InstanceTypes, SSHKey and InstanceLaunchResponse schemas. tests/data/cloud/lambda holds the examples.
- Auth: "Authorization: Bearer <API key>", or HTTP Basic with the key as user and an empty password (the
  reference's "Authenticating with curl"). Anything else answers 401 ApiErrorUnauthorized (global/invalid-api-key).

Behaviour
- Regions: us-east-1, us-west-1, us-west-2, us-south-1, europe-central-1 (fake data, names as Lambda's). Instance
  types: a fixed catalog of four (gpu_1x_a10, gpu_1x_a100_sxm4, gpu_1x_h100_pcie, gpu_8x_h100_sxm5) with made-up
  prices; GET /instance-types lists every region under regions_with_capacity_available except those in the fault
  no_capacity_zones (a region is Lambda's only "zone").
- SSH keys: GET /ssh-keys, POST /ssh-keys {name, public_key} (a name of 1-64 characters; a taken name answers 400
  {"error": {"code": "global/duplicate", ...}}: the schema ApiErrorDuplicate exists, its status for addSSHKey is not
  documented, so plausible), DELETE /ssh-keys/{id}. Omitting public_key is refused (400 global/invalid-parameters):
  the fake does not generate key pairs.
- POST /instance-operations/launch checks region_name, instance_type_name (known), ssh_key_names (exactly one,
  existing: else 404 global/object-does-not-exist, ApiErrorLaunchResourceNotFound), name (at most 64 characters),
  quantity (1 when given), file_system_names (empty when given), user_data (a string of at most 1,000,000 bytes),
  image ({"id"} or {"family"}), and answers {"data": {"instance_ids": [id]}}. A new instance is "booting", then
  "active" with ip 127.0.0.1 after `running_after` answers that showed it (GET /instances/{id} or GET /instances).
  There is NO idempotency: the same name launched twice gives two instances (as on Lambda).
- GET /instances lists the instances that are not terminated; GET /instances/{id} answers one, 404
  ApiErrorInstanceNotFound ("Specified instance does not exist.") when unknown.
- POST /instance-operations/terminate {"instance_ids": [...]}: every id must be known and not yet terminated (else
  404 ApiErrorInstanceNotFound and nothing happens); answers {"data": {"terminated_instances": [Instance]}} with
  status "terminating". The instance reads "terminating" for terminate_slow_s seconds (0: until the next answer that
  shows it), then "terminated": GET /instances leaves it out, GET /instances/{id} shows it so once, then answers 404.
- Rate limits: not enforced unless the fault rate_limit_launch is true, then a launch within 12 s of the last
  accepted one answers 429 ("limited to one request per 12 seconds", the reference's introduction).
  The body of a 429 is not documented: the fake answers the documented envelope with the code "global/rate-limited"
  (assumption), and GPU Planner reads the status only.

Control (not part of the API)
- GET /_fake/state: {"instances": [{"id", "name", "client_token" (= the name), "state" (booting, active, terminating,
  terminated), "instance_type", "region", "zone" (= region), "pricing" ("on_demand"), "ssh_key_name", "user_data",
  "image" (the launch's image object or null)}], "calls": [{"action" (launch, list_instances, get_instance,
  terminate, list_ssh_keys, add_ssh_key, delete_ssh_key, list_instance_types), "method", "path", "body"}],
  "ssh_keys": [{"id", "name", "public_key"}]}.
- POST /_fake/faults (JSON merged into the faults):
  throttle N                 next N API calls answer 429;
  rate_limit_launch true     see Rate limits;
  no_capacity_zones [regions]   launches there answer 400 instance-operations/launch/insufficient-capacity ("Not
                             enough capacity to fulfill launch request.") and /instance-types lists no capacity there;
  drop_after_accept N        next N launches create, then close the connection without an answer;
  hold_run_reply_s S         the next launch creates, then waits S s before answering (once);
  quota_exceeded true        launches answer 400 global/quota-exceeded ("Quota exceeded.", "Contact Support to
                             increase your quota.");
  unauthorized [actions]     those actions answer 403 global/forbidden (ApiErrorForbidden; its message is not
                             documented: plausible); the action "all" answers every call 401 global/invalid-api-key;
  running_after N;
  invisible_s S              for S s after a launch, GET /instances leaves the instance out and GET /instances/{id}
                             answers 404 (eventual consistency the reference does not promise away);
  internal_error_after_create N   next N launches create, then answer 500 global/internal-error ("An internal server
                             error occurred.", ApiErrorInternal);
  terminate_slow_s S         see terminate.
- POST /_fake/instances {"name", "region", "instance_type", "status"}: an instance made outside GPU Planner (or an
  earlier attempt's); answers {"ok", "id"}.
"""

import argparse
import base64
import json
import os
import socket
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PREFIX = "/api/v1"
REGIONS = [("us-east-1", "Virginia, USA"), ("us-west-1", "California, USA"), ("us-west-2", "Arizona, USA"),
           ("us-south-1", "Texas, USA"), ("europe-central-1", "Germany")]
# name: (description, gpu_description, price_cents_per_hour, vcpus, memory_gib, storage_gib, gpus) - fake data
TYPES = {
    "gpu_1x_a10": ("1x A10 (24 GB PCIe)", "A10 (24 GB PCIe)", 75, 30, 200, 1400, 1),
    "gpu_1x_a100_sxm4": ("1x A100 (40 GB SXM4)", "A100 (40 GB SXM4)", 129, 30, 200, 512, 1),
    "gpu_1x_h100_pcie": ("1x H100 (80 GB PCIe)", "H100 (80 GB PCIe)", 249, 26, 200, 1024, 1),
    "gpu_8x_h100_sxm5": ("8x H100 (80 GB SXM5)", "H100 (80 GB SXM5)", 2392, 208, 1800, 24780, 8),
}
LAUNCH_INTERVAL_S = 12
MAX_USER_DATA = 1000000


class ApiError(Exception):
    def __init__(self, status, code, message, suggestion=None):
        super().__init__(message)
        self.status = status
        self.body = {"error": {"code": code, "message": message}}
        if suggestion:
            self.body["error"]["suggestion"] = suggestion


def not_found_instance():
    return ApiError(404, "global/object-does-not-exist", "Specified instance does not exist.")


def invalid(message):
    return ApiError(400, "global/invalid-parameters", message)


def hex32():
    return uuid.uuid4().hex


class State:
    def __init__(self, args):
        self.lock = threading.Lock()
        self.api_key = args.secret_key
        self.running_after = args.running_after
        self.faults = {"throttle": 0, "rate_limit_launch": False, "no_capacity_zones": [], "drop_after_accept": 0,
                       "hold_run_reply_s": 0, "quota_exceeded": False, "unauthorized": [], "invisible_s": 0,
                       "internal_error_after_create": 0, "terminate_slow_s": 0}
        self.instances = []
        self.ssh_keys = []
        self.calls = []
        self.last_launch = None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    state = None  # set in main

    def log_message(self, fmt, *args):
        pass

    # ---- plumbing

    def reply(self, status, obj):
        data = b"" if obj is None else json.dumps(obj, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
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
        raw = self.read_body()
        path = self.path.partition("?")[0]
        if path.startswith("/_fake/"):
            self.control(method, path, raw)
            return
        try:
            self.api(method, path, raw)
        except ApiError as e:
            self.reply(e.status, e.body)

    # ---- control

    def control(self, method, path, raw):
        st = self.state
        if method == "GET" and path == "/_fake/state":
            with st.lock:
                self.reply(200, {"instances": [self.public(i) for i in st.instances], "calls": list(st.calls),
                                 "ssh_keys": [dict(k) for k in st.ssh_keys]})
            return
        try:
            wanted = json.loads(raw or b"{}")
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
        if method == "POST" and path == "/_fake/instances":
            with st.lock:
                inst = self.new_instance(wanted.get("name", ""), wanted.get("region", "us-east-1"),
                                         wanted.get("instance_type", "gpu_1x_a10"), None, None, None)
                inst["status"] = wanted.get("status", "active")
                st.instances.append(inst)
            self.reply(200, {"ok": True, "id": inst["id"]})
            return
        self.reply(404, {"error": "unknown path"})

    @staticmethod
    def public(i):
        return {"id": i["id"], "name": i["name"], "client_token": i["name"], "state": i["status"],
                "instance_type": i["instance_type"], "region": i["region"], "zone": i["region"],
                "pricing": "on_demand", "ssh_key_name": i["ssh_key_name"], "user_data": i["user_data"],
                "image": i["image"]}

    # ---- auth

    def authorized(self):
        auth = self.headers.get("Authorization", "")
        if auth == "Bearer " + self.state.api_key:
            return True
        if auth.startswith("Basic "):
            try:
                decoded = base64.b64decode(auth[len("Basic "):], validate=True).decode()
            except (ValueError, UnicodeDecodeError):
                return False
            return decoded == self.state.api_key + ":"
        return False

    # ---- API

    ROUTES = [
        ("GET", "/instance-types", "list_instance_types"),
        ("GET", "/ssh-keys", "list_ssh_keys"),
        ("POST", "/ssh-keys", "add_ssh_key"),
        ("DELETE", "/ssh-keys/", "delete_ssh_key"),
        ("GET", "/instances", "list_instances"),
        ("GET", "/instances/", "get_instance"),
        ("POST", "/instance-operations/launch", "launch"),
        ("POST", "/instance-operations/terminate", "terminate"),
    ]

    def api(self, method, path, raw):
        st = self.state
        if not path.startswith(PREFIX + "/"):
            raise ApiError(404, "global/not-found", "The requested resource was not found.")
        rest = path[len(PREFIX):]
        action, arg = None, None
        for m, route, name in self.ROUTES:
            if m != method:
                continue
            if route.endswith("/") and rest.startswith(route) and len(rest) > len(route):
                action, arg = name, rest[len(route):]
                break
            if rest == route:
                action = name
                break
        if action is None:
            raise ApiError(404, "global/not-found", "The requested resource was not found.")
        body = None
        if raw:
            try:
                body = json.loads(raw)
            except ValueError:
                body = raw.decode("utf-8", "replace")
        with st.lock:
            st.calls.append({"action": action, "method": method, "path": path, "body": body})
            unauthorized = st.faults.get("unauthorized") or []
        if not self.authorized() or "all" in unauthorized:
            raise ApiError(401, "global/invalid-api-key", "API key was invalid, expired, or deleted.",
                           "Check your API key or create a new one, then try again.")
        with st.lock:
            if st.faults.get("throttle", 0) > 0:
                st.faults["throttle"] -= 1
                raise ApiError(429, "global/rate-limited", "Too many requests.")
        if action in unauthorized:
            raise ApiError(403, "global/forbidden", "You do not have permission to perform this action.")
        if method == "POST" and not isinstance(body, dict):
            raise invalid("Invalid request data.")
        getattr(self, "act_" + action)(body, arg)

    # ---- instance types

    def act_list_instance_types(self, body, arg):
        st = self.state
        with st.lock:
            full = set(st.faults.get("no_capacity_zones") or [])
        data = {}
        for name, (desc, gpu, cents, vcpus, mem, disk, gpus) in TYPES.items():
            data[name] = {
                "instance_type": {"name": name, "description": desc, "gpu_description": gpu,
                                  "price_cents_per_hour": cents,
                                  "specs": {"vcpus": vcpus, "memory_gib": mem, "storage_gib": disk, "gpus": gpus}},
                "regions_with_capacity_available": [{"name": r, "description": d} for r, d in REGIONS
                                                    if r not in full]}
        self.reply(200, {"data": data})

    # ---- SSH keys

    def act_list_ssh_keys(self, body, arg):
        with self.state.lock:
            self.reply(200, {"data": [dict(k) for k in self.state.ssh_keys]})

    def act_add_ssh_key(self, body, arg):
        st = self.state
        name = body.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 64:
            raise invalid("name must be 1 to 64 characters.")
        public_key = body.get("public_key")
        if not isinstance(public_key, str) or not 1 <= len(public_key) <= 4096:
            raise invalid("public_key is required by this fake (it does not generate key pairs).")
        with st.lock:
            if any(k["name"] == name for k in st.ssh_keys):
                raise ApiError(400, "global/duplicate", "An SSH key named %s already exists." % name)
            key = {"id": hex32(), "name": name, "public_key": public_key}
            st.ssh_keys.append(key)
        self.reply(200, {"data": dict(key)})

    def act_delete_ssh_key(self, body, arg):
        st = self.state
        with st.lock:
            for k in st.ssh_keys:
                if k["id"] == arg:
                    st.ssh_keys.remove(k)
                    self.reply(200, {"data": {}})
                    return
        raise ApiError(404, "global/object-does-not-exist", "SSH key does not exist.")

    # ---- instances

    def new_instance(self, name, region, instance_type, key_name, user_data, image):
        desc, gpu, cents, vcpus, mem, disk, gpus = TYPES.get(instance_type, TYPES["gpu_1x_a10"])
        return {"id": hex32(), "name": name, "region": region, "instance_type": instance_type, "status": "booting",
                "ssh_key_name": key_name, "user_data": user_data, "image": image, "shown": 0,
                "created_at": time.time(), "terminating_since": None, "gone": False,
                "type_info": {"name": instance_type, "description": desc, "gpu_description": gpu,
                              "price_cents_per_hour": cents,
                              "specs": {"vcpus": vcpus, "memory_gib": mem, "storage_gib": disk, "gpus": gpus}}}

    def visible(self, i):
        invisible = float(self.state.faults.get("invisible_s") or 0)
        return not i["gone"] and time.time() - i["created_at"] >= invisible

    def advance(self, i):
        """The instance as this answer shows it: booting -> active, terminating -> terminated."""
        st = self.state
        if i["status"] == "booting":
            i["shown"] += 1
            if i["shown"] > st.running_after:
                i["status"] = "active"
        elif i["status"] == "terminating":
            slow = float(st.faults.get("terminate_slow_s") or 0)
            if time.time() - i["terminating_since"] >= slow and i["shown"] > 0:
                i["status"] = "terminated"
            i["shown"] += 1

    def described(self, i):
        region = dict(REGIONS).get(i["region"], i["region"])
        out = {"id": i["id"], "name": i["name"], "status": i["status"], "ssh_key_names":
               [i["ssh_key_name"]] if i["ssh_key_name"] else [], "file_system_names": [],
               "region": {"name": i["region"], "description": region}, "instance_type": dict(i["type_info"]),
               "hostname": "fake-" + i["id"][:8], "is_reserved": False,
               "actions": {a: {"available": i["status"] == "active"}
                           for a in ("migrate", "rebuild", "restart", "cold_reboot", "terminate")}}
        if i["status"] in ("active", "terminating"):
            out["ip"] = "127.0.0.1"
            out["private_ip"] = "10.0.2.100"
        return out

    def act_list_instances(self, body, arg):
        st = self.state
        with st.lock:
            listed = []
            for i in st.instances:
                if i["status"] == "terminated" or not self.visible(i):
                    continue
                self.advance(i)
                if i["status"] != "terminated":
                    listed.append(self.described(i))
        self.reply(200, {"data": listed})

    def act_get_instance(self, body, arg):
        st = self.state
        with st.lock:
            for i in st.instances:
                if i["id"] == arg and self.visible(i):
                    if i["status"] != "terminated":
                        self.advance(i)
                    if i["status"] == "terminated":
                        i["gone"] = True  # shown as terminated this once, then unknown
                    self.reply(200, {"data": self.described(i)})
                    return
        raise not_found_instance()

    def act_launch(self, body, arg):
        st = self.state
        region = body.get("region_name")
        if region not in dict(REGIONS):
            raise invalid("region_name must be one of " + ", ".join(r for r, _ in REGIONS) + ".")
        instance_type = body.get("instance_type_name")
        if instance_type not in TYPES:
            raise ApiError(404, "global/object-does-not-exist", "Instance type %s does not exist." % instance_type)
        keys = body.get("ssh_key_names")
        if not isinstance(keys, list) or len(keys) != 1 or not isinstance(keys[0], str):
            raise invalid("Exactly one SSH key must be specified.")
        name = body.get("name", "")
        if not isinstance(name, str) or len(name) > 64:
            raise invalid("name must be 64 characters or fewer.")
        if "quantity" in body and body["quantity"] != 1:
            raise invalid("quantity must be 1.")
        if body.get("file_system_names") not in (None, []):
            raise ApiError(404, "global/object-does-not-exist", "File system does not exist.")
        user_data = body.get("user_data")
        if user_data is not None and (not isinstance(user_data, str) or len(user_data.encode()) > MAX_USER_DATA):
            raise invalid("user_data must be plain text of at most 1MB.")
        image = body.get("image")
        if image is not None and not (isinstance(image, dict) and len(image) == 1
                                      and isinstance(image.get("id", image.get("family")), str)):
            raise invalid("image must be {\"id\"} or {\"family\"}.")
        with st.lock:
            if not any(k["name"] == keys[0] for k in st.ssh_keys):
                raise ApiError(404, "global/object-does-not-exist", "SSH key %s does not exist." % keys[0],
                               "Check the SSH key name and try again.")
            now = time.time()
            if st.faults.get("rate_limit_launch") and st.last_launch is not None \
                    and now - st.last_launch < LAUNCH_INTERVAL_S:
                raise ApiError(429, "global/rate-limited", "Too many launch requests.")
            if st.faults.get("quota_exceeded"):
                raise ApiError(400, "global/quota-exceeded", "Quota exceeded.",
                               "Contact Support to increase your quota.")
            if region in (st.faults.get("no_capacity_zones") or []):
                raise ApiError(400, "instance-operations/launch/insufficient-capacity",
                               "Not enough capacity to fulfill launch request.")
            inst = self.new_instance(name, region, instance_type, keys[0], user_data, image)
            st.instances.append(inst)
            st.last_launch = now
            answer = {"data": {"instance_ids": [inst["id"]]}}
            if st.faults.get("internal_error_after_create", 0) > 0:
                st.faults["internal_error_after_create"] -= 1
                raise ApiError(500, "global/internal-error", "An internal server error occurred.",
                               "Try again later. Contact Support if the problem persists.")
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
        self.reply(200, answer)

    def act_terminate(self, body, arg):
        st = self.state
        ids = body.get("instance_ids")
        if not isinstance(ids, list) or not ids:
            raise invalid("instance_ids must list at least one instance.")
        with st.lock:
            found = []
            for wanted in ids:
                match = [i for i in st.instances if i["id"] == wanted and self.visible(i)
                         and i["status"] not in ("terminating", "terminated")]
                if not match:
                    raise not_found_instance()
                found.append(match[0])
            for i in found:
                i["status"] = "terminating"
                i["terminating_since"] = time.time()
                i["shown"] = 0
            answer = {"data": {"terminated_instances": [self.described(i) for i in found]}}
        self.reply(200, answer)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--secret-key", default="fake-lambda-api-key")
    parser.add_argument("--access-key-id", default="")  # accepted, not used: Lambda has one API key
    parser.add_argument("--running-after", type=int, default=2)
    args = parser.parse_args()
    Handler.state = State(args)
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
