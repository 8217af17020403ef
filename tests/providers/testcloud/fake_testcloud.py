#!/usr/bin/env python3
"""A FAKE of "Test Cloud", the provider that exists only in the tests (TestCloudProvider.h).

Test Cloud is not a real cloud: its API is defined by this file and TestCloudProvider.cpp together. It is shaped like
the REST clouds to come (bearer API key, JSON bodies, HTTP status for errors with {"error": {"code", "message"}}),
and it takes the same control calls and faults as fake_ec2.py and fake_cvm.py, so that the conformance suite
(tests/conformance) drives all three alike.

    python3 fake_testcloud.py --port-file FILE [--access-key-id ID --secret-key KEY] [--running-after N]

API (Authorization: Bearer KEY, else 401):
  GET  /v1/zones?region=R&type=T        {"zones": [...]}  (R-a, R-b, R-c; zones without capacity are left out unless
                                         the fault stale_zone_listing is on)
  GET  /v1/images?gpu_driver=true       {"images": [{"id", "name", "created"}]}
  GET  /v1/keys                          {"keys": [{"name"}]};  POST /v1/keys {"name", "public_key"} (409 key_exists)
  GET  /v1/firewalls?region=R&name=N    {"firewalls": [{"id", "name", "rules": [{"port", "source"}]}]}
  POST /v1/firewalls {"region", "name", "rules"} -> {"id"};  POST /v1/firewalls/ID/rules {"port", "source"}
  POST /v1/instances {..., "client_token", "dry_run"}  {"instance": {...}}: the same token with the same parameters
                                         returns the instance it made; other parameters: 409 token_reused;
                                         no capacity in the zone: 409 no_capacity; dry run: 200 {"dry_run": "passed"}
  GET  /v1/instances/ID                  {"instance": {...}} or 404 not_found
  GET  /v1/instances?region=R&tag=K      {"instances": [...]}: those that carry tag K, not yet terminated
  DELETE /v1/instances/ID                {"instance": {...}} (terminating; terminated at the next look) or 404

Instances start "pending" and are "running" (public IP 127.0.0.1) after `running_after` answers that showed them.

Control (not part of the API): POST /_fake/faults (JSON merged into the faults: throttle N, no_capacity_zones [...],
drop_after_accept N, invisible_s S, stale_zone_listing), GET /_fake/state ({"instances", "calls", "firewalls"}).
"""

import argparse
import json
import os
import random
import string
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

SAME_LAUNCH = ("region", "zone", "type", "image", "key", "firewall", "spot")


def short_id(prefix):
    return prefix + "-" + "".join(random.choice(string.ascii_lowercase + string.digits) for _ in range(8))


class State:
    def __init__(self, args):
        self.lock = threading.Lock()
        self.api_key = args.secret_key
        self.running_after = args.running_after
        self.faults = {"throttle": 0, "no_capacity_zones": [], "drop_after_accept": 0, "invisible_s": 0,
                       "stale_zone_listing": False}
        self.instances = []
        self.calls = []
        self.keys = []
        self.firewalls = []


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    state = None

    def log_message(self, fmt, *args):
        pass

    def reply(self, status, obj, headers=None):
        body = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def error(self, status, code, message, headers=None):
        self.reply(status, {"error": {"code": code, "message": message, "request_id": short_id("req")}}, headers)

    def body(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        try:
            return json.loads(raw) if raw else {}
        except ValueError:
            return None

    def do_GET(self):
        self.route("GET")

    def do_POST(self):
        self.route("POST")

    def do_DELETE(self):
        self.route("DELETE")

    @staticmethod
    def public(inst):
        return {k: inst[k] for k in ("id", "state", "zone", "type", "tags", "public_ip", "created")}

    def visible(self, inst):
        return time.time() >= inst["visible_at"]

    def looked_at(self, inst):
        """One more answer showed it: it moves towards running, or from terminating to terminated."""
        if inst["state"] == "pending":
            inst["looks"] += 1
            if inst["looks"] >= self.state.running_after:
                inst["state"] = "running"
                inst["public_ip"] = "127.0.0.1"
        elif inst["state"] == "terminating":
            inst["state"] = "terminated"

    def route(self, method):
        st = self.state
        url = urlparse(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        parts = [p for p in url.path.split("/") if p]
        if parts[:1] == ["_fake"]:
            with st.lock:
                if method == "GET" and parts == ["_fake", "state"]:
                    return self.reply(200, {"instances": st.instances, "calls": st.calls, "firewalls": st.firewalls})
                if method == "POST" and parts == ["_fake", "faults"]:
                    st.faults.update(self.body() or {})
                    return self.reply(200, {"ok": True})
            return self.error(404, "not_found", "no such control call")
        if self.headers.get("Authorization") != "Bearer " + st.api_key:
            return self.error(401, "unauthorized", "the API key is missing or wrong")
        body = self.body() if method == "POST" else {}
        if body is None:
            return self.error(400, "bad_request", "the body is not JSON")
        with st.lock:
            action = method + " /" + "/".join(parts[:2])
            st.calls.append({"action": "RunInstances" if action == "POST /v1/instances" else action})
            if st.faults["throttle"] > 0:
                st.faults["throttle"] -= 1
                return self.error(429, "throttled", "slow down", {"Retry-After": "0"})
            return self.api(method, parts, query, body)

    def api(self, method, parts, query, body):
        st = self.state
        if parts == ["v1", "zones"]:
            region = query.get("region", "")
            zones = [region + "-" + z for z in "abc"]
            if not st.faults["stale_zone_listing"]:
                zones = [z for z in zones if z not in st.faults["no_capacity_zones"]]
            return self.reply(200, {"zones": zones})
        if parts == ["v1", "images"]:
            return self.reply(200, {"images": [{"id": "img-gpu-2026", "name": "Ubuntu 22.04 with NVIDIA driver 570",
                                                "created": "2026-11-20"},
                                               {"id": "img-gpu-2025", "name": "Ubuntu 22.04 with NVIDIA driver 550",
                                                "created": "2025-06-01"}]})
        if parts == ["v1", "keys"]:
            if method == "GET":
                return self.reply(200, {"keys": [{"name": k["name"]} for k in st.keys]})
            if any(k["name"] == body.get("name") for k in st.keys):
                return self.error(409, "key_exists", "a key of that name exists")
            st.keys.append({"name": body.get("name"), "public_key": body.get("public_key")})
            return self.reply(201, {"name": body.get("name")})
        if parts == ["v1", "firewalls"]:
            if method == "GET":
                found = [f for f in st.firewalls if f["name"] == query.get("name") and f["region"] == query.get("region")]
                return self.reply(200, {"firewalls": found})
            firewall = {"id": short_id("fw"), "region": body.get("region"), "name": body.get("name"),
                        "rules": body.get("rules", [])}
            st.firewalls.append(firewall)
            return self.reply(201, {"id": firewall["id"]})
        if len(parts) == 4 and parts[:2] == ["v1", "firewalls"] and parts[3] == "rules" and method == "POST":
            for f in st.firewalls:
                if f["id"] == parts[2]:
                    f["rules"].append({"port": body.get("port"), "source": body.get("source")})
                    return self.reply(200, {"id": f["id"]})
            return self.error(404, "not_found", "no such firewall")
        if parts == ["v1", "instances"] and method == "POST":
            return self.create(body)
        if parts == ["v1", "instances"] and method == "GET":
            tag = query.get("tag", "")
            shown = [i for i in st.instances if i["region"] == query.get("region") and tag in i["tags"]
                     and i["state"] != "terminated" and self.visible(i)]
            for i in shown:
                self.looked_at(i)
            return self.reply(200, {"instances": [self.public(i) for i in shown]})
        if len(parts) == 3 and parts[:2] == ["v1", "instances"]:
            inst = next((i for i in st.instances if i["id"] == parts[2]), None)
            if inst is None or not self.visible(inst) or inst["state"] == "terminated":
                return self.error(404, "not_found", "no such instance")
            if method == "DELETE":
                inst["state"] = "terminating"
                return self.reply(200, {"instance": self.public(inst)})
            self.looked_at(inst)
            return self.reply(200, {"instance": self.public(inst)})
        return self.error(404, "not_found", "no such call")

    def create(self, body):
        st = self.state
        token = body.get("client_token", "")
        if not token:
            return self.error(400, "bad_request", "client_token is required")
        zone = body.get("zone") or body.get("region", "") + "-a"
        wanted = dict(body, zone=zone)
        earlier = next((i for i in st.instances if i["client_token"] == token), None)
        if earlier is not None:
            if any(earlier["launch"].get(k) != wanted.get(k) for k in SAME_LAUNCH):
                return self.error(409, "token_reused", "this client token was used for another launch")
            return self.reply(200, {"instance": self.public(earlier)})
        if zone in st.faults["no_capacity_zones"]:
            return self.error(409, "no_capacity", "no capacity for " + str(body.get("type")) + " in " + zone)
        if body.get("dry_run"):
            return self.reply(200, {"dry_run": "passed"})
        inst = {"id": short_id("vm"), "state": "pending", "zone": zone, "type": body.get("type"),
                "region": body.get("region"), "tags": body.get("tags", {}), "client_token": token,
                "user_data": body.get("user_data", ""), "public_ip": "", "created": int(time.time()), "looks": 0,
                "visible_at": time.time() + float(st.faults["invisible_s"]), "launch": wanted}
        st.instances.append(inst)
        if st.faults["drop_after_accept"] > 0:
            st.faults["drop_after_accept"] -= 1
            self.close_connection = True
            self.connection.shutdown(2)
            return None
        return self.reply(201, {"instance": self.public(inst)})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--access-key-id", default="")
    parser.add_argument("--secret-key", default="fake-secret-key-for-tests")
    parser.add_argument("--running-after", type=int, default=2)
    args = parser.parse_args()
    Handler.state = State(args)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(args.port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(args.port_file + ".tmp", args.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
