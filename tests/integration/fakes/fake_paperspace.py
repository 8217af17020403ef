#!/usr/bin/env python3
"""A FAKE of Paperspace's machines API (api.paperspace.com/v1) for GPU Planner's flow tests.

It is not Paperspace: it answers the calls PaperspaceProvider makes, on one loopback port, in the shapes of the API's
OpenAPI document (tests/data/cloud/paperspace/README.md names it), and it produces on demand the faults a real cloud
will not (throttling, no capacity, dropped connections, slow replies, quota, permission errors, eventual consistency).

    python3 fake_paperspace.py --port-file FILE --secret-key KEY [--running-after N]

Binds 127.0.0.1 on a free port, writes the port to FILE (FILE.tmp, then renamed), serves until killed.

API (paths under /v1; every call needs "Authorization: Bearer KEY", else 401 {"code": "unauthorized", "message"}):
- GET /machines?limit&after&name&region: {hasMore, nextPage, items}; name matches exactly (the document does not say
  how it matches: assumption). GET /machines/{id}: the machine, 404 {"code": "not_found", "message"} when unknown.
  POST /machines: the OpenAPI request schema is checked (required name, machineType, templateId, diskSize, region;
  no other property; publicIpType in its enum; a known template and startup script), 400 {"code": "bad_request",
  "message"} otherwise; answers {event {id, name "create", state "new", ...}, data <machine>}. The machine reads
  "provisioning", then "ready" (publicIp 127.0.0.1) after `running_after` answers that showed it.
  DELETE /machines/{id}: {event {name "deactivate", state "new"}}; the next answer that shows the machine carries
  dtDeleted, and is its last (then 404 / left out).
- GET /machine-availability?machineType&region: {"available": bool}.
- GET /os-templates: one ML-in-a-Box Ubuntu 22.04 template ("tmlbox22", fake data) offering every machine type, and a
  plain Ubuntu one. POST /startup-scripts {name, script, isRunOnce}: the script object; GET /startup-scripts?name:
  the list; DELETE /startup-scripts/{id}: the script with dtDeleted.
- Error bodies: {"code", "message"} (the API's "default" error response); their codes and texts are not documented:
  the fake's are plausible ones, and GPU Planner matches words loosely.

Control (not part of the API)
- GET /_fake/state: {"instances": [{"id", "name", "client_token" (= name), "state" (the API's machine state, then
  "terminating" from DELETE until the last answer that shows it, then "terminated"), "instance_type", "region", "zone"
  (= region), "pricing" "on_demand", "startup_script_id", "user_data" (the startup script's text), "image" (template
  id)}], "calls": [{"action", "method", "path", "query", "body"}], "startup_scripts": [...]}.
- POST /_fake/faults (JSON merged in):
  throttle N             next N API calls answer 429 {"code": "too_many_requests", "message": "Rate limit exceeded"};
  no_capacity_zones [r]  machine-availability is false there (unless stale_zone_listing), and POST /machines there
                         answers 400 {"code": "bad_request", "message": "Out of capacity for the selected machine
                         type"} (the words of Paperspace's Gradient refusals; the machines API's text is undocumented);
  drop_after_accept N    next N POST /machines create, then close the connection without an answer;
  hold_run_reply_s S     the next POST /machines creates, then waits S s before answering (once);
  quota_exceeded         POST /machines answers 400 "You have reached your machine limit" (plausible);
  unauthorized [actions] those calls answer 403 {"code": "forbidden", "message": "You do not have permission to
                         perform this action"} (plausible; the action names are those of /_fake/state's calls);
  running_after N;
  invisible_s S          for S s after a create, GET /machines leaves it out and GET /machines/{id} answers 404;
  internal_error_after_create N   next N POST /machines create, then answer 500 {"code": "internal_error"};
  terminate_slow_s S     after DELETE the machine reads "stopping" for S s before it is gone;
  rate_limit_launch true a second POST /machines within 12 s of the last one answers 429 (off by default).
"""

import argparse
import datetime
import json
import os
import random
import string
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

DISK_SIZES = {50, 100, 250, 500, 1000, 2000, 4000, 8000, 12000, 16000}
CREATE_PROPS = {"name", "machineType", "templateId", "networkId", "diskSize", "region", "publicIpType",
                "autoSnapshotEnabled", "autoSnapshotFrequency", "autoSnapshotSaveCount", "autoShutdownEnabled",
                "autoShutdownTimeout", "autoShutdownForce", "takeInitialSnapshot", "restorePointEnabled",
                "restorePointFrequency", "startupScriptId", "emailPassword", "startOnCreate", "enableNvlink",
                "accessorIds"}
TEMPLATES = [
    {"id": "tmlbox22", "name": "ML-in-a-Box Ubuntu 22.04", "agentType": "LinuxHeadless",
     "operatingSystemLabel": "Ubuntu 22.04", "defaultSizeGb": 100, "dtCreated": "2024-05-01T00:00:00Z"},
    {"id": "tubuntu22", "name": "Ubuntu 22.04 Server", "agentType": "LinuxHeadless",
     "operatingSystemLabel": "Ubuntu 22.04", "defaultSizeGb": 50, "dtCreated": "2024-04-01T00:00:00Z"},
]
MACHINE_TYPES = ["A100-80G", "A100-80Gx8", "H100", "H100x8", "A6000", "A4000", "P4000", "RTX4000", "V100-32G"]


def now_iso():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def new_id(prefix, n=8):
    return prefix + "".join(random.choice(string.ascii_lowercase + string.digits) for _ in range(n))


class ApiError(Exception):
    def __init__(self, status, code, message):
        super().__init__(message)
        self.status, self.body = status, {"code": code, "message": message}


class State:
    def __init__(self, args):
        self.lock = threading.Lock()
        self.key = args.secret_key
        self.running_after = args.running_after
        self.faults = {"throttle": 0, "no_capacity_zones": [], "stale_zone_listing": False, "drop_after_accept": 0,
                       "hold_run_reply_s": 0, "quota_exceeded": False, "unauthorized": [], "invisible_s": 0,
                       "internal_error_after_create": 0, "terminate_slow_s": 0, "rate_limit_launch": False}
        self.machines = []
        self.scripts = []
        self.calls = []
        self.last_launch = 0.0


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    state = None

    def log_message(self, fmt, *args):
        pass

    def reply(self, status, obj):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self.handle_any("GET")

    def do_POST(self):
        self.handle_any("POST")

    def do_DELETE(self):
        self.handle_any("DELETE")

    def handle_any(self, method):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        url = urlsplit(self.path)
        if url.path.startswith("/_fake/"):
            self.control(method, url.path, raw)
            return
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        try:
            self.api(method, url.path, query, raw)
        except ApiError as e:
            self.reply(e.status, e.body)

    # ---- control

    def control(self, method, path, raw):
        st = self.state
        if method == "GET" and path == "/_fake/state":
            with st.lock:
                self.reply(200, {"instances": [self.public(m) for m in st.machines], "calls": list(st.calls),
                                 "startup_scripts": [dict(s) for s in st.scripts]})
            return
        if method == "POST" and path == "/_fake/faults":
            try:
                wanted = json.loads(raw or b"{}")
            except ValueError:
                self.reply(400, {"ok": False, "error": "not JSON"})
                return
            with st.lock:
                for k, v in wanted.items():
                    if k == "running_after":
                        st.running_after = int(v)
                    else:
                        st.faults[k] = v
            self.reply(200, {"ok": True})
            return
        self.reply(404, {"error": "unknown path"})

    def public(self, m):
        script = next((s for s in self.state.scripts if s["id"] == m["startupScriptId"]), None)
        return {"id": m["id"], "name": m["name"], "client_token": m["name"], "state": m["fake_state"],
                "instance_type": m["machineType"], "region": m["region"], "zone": m["region"], "pricing": "on_demand",
                "startup_script_id": m["startupScriptId"], "user_data": script["script"] if script else "",
                "image": m["templateId"]}

    # ---- API

    def api(self, method, path, query, raw):
        st = self.state
        if not path.startswith("/v1/"):
            raise ApiError(404, "not_found", "Not found")
        parts = path[len("/v1/"):].rstrip("/").split("/")
        action = self.action_of(method, parts)
        body = None
        if raw:
            try:
                body = json.loads(raw)
            except ValueError:
                raise ApiError(400, "bad_request", "Body is not JSON")
        with st.lock:
            st.calls.append({"action": action, "method": method, "path": path, "query": query, "body": body})
            if self.headers.get("Authorization") != "Bearer " + st.key:
                raise ApiError(401, "unauthorized", "Unauthorized")
            if st.faults["throttle"] > 0:
                st.faults["throttle"] -= 1
                raise ApiError(429, "too_many_requests", "Rate limit exceeded")
            if action in st.faults["unauthorized"]:
                raise ApiError(403, "forbidden", "You do not have permission to perform this action")
        handler = getattr(self, action.replace("-", "_"), None)
        if handler is None:
            raise ApiError(404, "not_found", "Not found")
        handler(parts, query, body)

    @staticmethod
    def action_of(method, parts):
        head = parts[0]
        one = len(parts) == 2
        table = {("GET", "machines", False): "list_machines", ("GET", "machines", True): "get_machine",
                 ("POST", "machines", False): "create_machine", ("DELETE", "machines", True): "delete_machine",
                 ("GET", "machine-availability", False): "machine_availability",
                 ("GET", "os-templates", False): "list_os_templates",
                 ("GET", "startup-scripts", False): "list_startup_scripts",
                 ("POST", "startup-scripts", False): "create_startup_script",
                 ("DELETE", "startup-scripts", True): "delete_startup_script"}
        return table.get((method, head, one), "unknown")

    def visible(self, m):
        return time.time() >= m["visible_at"] and not m.get("gone")

    def shown(self, m):
        """The machine as an answer shows it; counts the answer (provisioning -> ready, deleted -> gone)."""
        st = self.state
        out = {k: v for k, v in m.items() if k not in ("visible_at", "fake_state", "shown", "gone", "slow_until")}
        if m["fake_state"] in ("terminating",):
            if time.time() < m.get("slow_until", 0):
                out["state"] = "stopping"
            else:
                out["dtDeleted"] = now_iso()
                out["state"] = "off"
                m["fake_state"] = "terminated"
                m["gone"] = True
            return out
        m["shown"] += 1
        if m["state"] == "provisioning" and m["shown"] > st.running_after:
            m["state"] = "ready"
            m["publicIp"] = "127.0.0.1"
        m["fake_state"] = m["state"]
        out.update({"state": m["state"], "publicIp": m["publicIp"]})
        return out

    def paged(self, items, query):
        limit = max(1, min(120, int(query.get("limit", 20))))
        start = int(query.get("after") or 0)
        page = items[start:start + limit]
        more = start + limit < len(items)
        return {"hasMore": more, "nextPage": str(start + limit) if more else None, "items": page}

    def list_machines(self, parts, query, body):
        st = self.state
        with st.lock:
            found = [self.shown(m) for m in st.machines if self.visible(m)
                     and (not query.get("name") or m["name"] == query["name"])
                     and (not query.get("region") or m["region"] == query["region"])]
        self.reply(200, self.paged(found, query))

    def find(self, machine_id):
        m = next((m for m in self.state.machines if m["id"] == machine_id), None)
        if m is None or not self.visible(m):
            raise ApiError(404, "not_found", "Machine not found")
        return m

    def get_machine(self, parts, query, body):
        with self.state.lock:
            out = self.shown(self.find(parts[1]))
        self.reply(200, out)

    def machine_availability(self, parts, query, body):
        st = self.state
        with st.lock:
            full = query.get("region") in st.faults["no_capacity_zones"] and not st.faults["stale_zone_listing"]
        self.reply(200, {"available": not full and query.get("machineType") in MACHINE_TYPES})

    def list_os_templates(self, parts, query, body):
        items = [dict(t, availableMachineTypes=[{"machineTypeLabel": mt, "isAvailable": True} for mt in MACHINE_TYPES])
                 for t in TEMPLATES]
        self.reply(200, self.paged(items, query))

    def list_startup_scripts(self, parts, query, body):
        with self.state.lock:
            items = [dict(s) for s in self.state.scripts
                     if not s["dtDeleted"] and (not query.get("name") or s["name"] == query["name"])]
        self.reply(200, self.paged(items, query))

    def create_startup_script(self, parts, query, body):
        if not isinstance(body, dict) or not isinstance(body.get("name"), str) or not isinstance(body.get("script"),
                                                                                                 str):
            raise ApiError(400, "bad_request", "name and script are required")
        if set(body) - {"name", "script", "isRunOnce"}:
            raise ApiError(400, "bad_request", "Unknown property")
        script = {"id": new_id("scr"), "name": body["name"], "description": None, "isEnabled": True,
                  "isRunOnce": bool(body.get("isRunOnce", False)), "assignedMachineIds": [], "dtCreated": now_iso(),
                  "dtDeleted": None, "script": body["script"]}
        with self.state.lock:
            self.state.scripts.append(script)
        self.reply(200, {k: v for k, v in script.items() if k != "script"})

    def delete_startup_script(self, parts, query, body):
        with self.state.lock:
            s = next((s for s in self.state.scripts if s["id"] == parts[1] and not s["dtDeleted"]), None)
            if s is None:
                raise ApiError(404, "not_found", "Startup script not found")
            s["dtDeleted"] = now_iso()
            out = {k: v for k, v in s.items() if k != "script"}
        self.reply(200, out)

    def create_machine(self, parts, query, body):
        st = self.state
        if not isinstance(body, dict):
            raise ApiError(400, "bad_request", "Body must be an object")
        missing = [k for k in ("name", "machineType", "templateId", "diskSize", "region") if k not in body]
        if missing or set(body) - CREATE_PROPS:
            wrong = missing or sorted(set(body) - CREATE_PROPS)
            raise ApiError(400, "bad_request", "Invalid body: " + ", ".join(wrong))
        ip_type = body.get("publicIpType", "dynamic")
        if body["diskSize"] not in DISK_SIZES or ip_type not in ("static", "dynamic", "none"):
            raise ApiError(400, "bad_request", "Invalid diskSize or publicIpType")
        if body["templateId"] not in [t["id"] for t in TEMPLATES]:
            raise ApiError(400, "bad_request", "Template not found")
        with st.lock:
            if body.get("startupScriptId") and not any(s["id"] == body["startupScriptId"] and not s["dtDeleted"]
                                                       for s in st.scripts):
                raise ApiError(400, "bad_request", "Startup script not found")
            if st.faults["rate_limit_launch"] and time.time() - st.last_launch < 12:
                raise ApiError(429, "too_many_requests", "Rate limit exceeded")
            st.last_launch = time.time()
            if body["region"] in st.faults["no_capacity_zones"]:
                raise ApiError(400, "bad_request", "Out of capacity for the selected machine type")
            if st.faults["quota_exceeded"]:
                raise ApiError(400, "bad_request", "You have reached your machine limit")
            m = {"id": new_id("ps"), "name": body["name"], "state": "provisioning", "os": "Ubuntu 22.04",
                 "machineType": body["machineType"], "agentType": "LinuxHeadless", "cpus": 8, "ram": 45097156608,
                 "storageTotal": body["diskSize"] * 1073741824, "storageUsed": 0, "accelerators": None,
                 "region": body["region"], "privateIp": None, "networkId": None, "publicIp": None,
                 "publicIpType": body.get("publicIpType", "dynamic"),
                 "autoShutdownEnabled": bool(body.get("autoShutdownEnabled", False)), "autoShutdownTimeout": None,
                 "autoShutdownForce": None, "autoSnapshotEnabled": False, "autoSnapshotFrequency": None,
                 "autoSnapshotSaveCount": None, "updatesPending": False, "restorePointEnabled": False,
                 "restorePointFrequency": None, "restorePointSnapshotId": None, "usageRate": 3.18,
                 "storageRate": 0.0, "dtCreated": now_iso(), "dtModified": now_iso(), "dtDeleted": None,
                 "reservation": None, "templateId": body["templateId"],
                 "startupScriptId": body.get("startupScriptId", ""),
                 "visible_at": time.time() + float(st.faults["invisible_s"] or 0), "fake_state": "provisioning",
                 "shown": 0}
            st.machines.append(m)
            answer = {"event": {"id": new_id("ev"), "name": "create", "state": "new", "machineId": m["id"],
                                "dtCreated": now_iso(), "dtStarted": None, "dtFinished": None, "error": None},
                      "data": {k: v for k, v in m.items() if k not in ("visible_at", "fake_state", "shown",
                                                                       "templateId", "startupScriptId")}}
            drop = st.faults["drop_after_accept"] > 0
            if drop:
                st.faults["drop_after_accept"] -= 1
            hold = float(st.faults["hold_run_reply_s"] or 0)
            st.faults["hold_run_reply_s"] = 0
            fail = st.faults["internal_error_after_create"] > 0
            if fail:
                st.faults["internal_error_after_create"] -= 1
        if drop:
            self.close_connection = True
            self.connection.shutdown(2)
            return
        if hold:
            time.sleep(hold)
        if fail:
            raise ApiError(500, "internal_error", "Internal server error")
        self.reply(200, answer)

    def delete_machine(self, parts, query, body):
        st = self.state
        with st.lock:
            m = self.find(parts[1])
            if m["fake_state"] in ("terminating", "terminated"):
                raise ApiError(404, "not_found", "Machine not found")
            m["fake_state"] = "terminating"
            m["slow_until"] = time.time() + float(st.faults["terminate_slow_s"] or 0)
        self.reply(200, {"event": {"id": new_id("ev"), "name": "deactivate", "state": "new", "machineId": parts[1],
                                   "dtCreated": now_iso(), "dtStarted": None, "dtFinished": None, "error": None}})


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--secret-key", required=True, help="the API key every call must carry as a bearer token")
    parser.add_argument("--running-after", type=int, default=1)
    args = parser.parse_args()
    Handler.state = State(args)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    with open(args.port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(args.port_file + ".tmp", args.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
