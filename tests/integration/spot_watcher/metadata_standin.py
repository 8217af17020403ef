#!/usr/bin/env python3
"""A STAND-IN of one cloud provider's instance metadata service, on 127.0.0.1, for the spot watcher's tests.

The real services (169.254.169.254, 100.100.100.200, metadata.tencentyun.com, metadata.google.internal) are not
reachable from here. This serves only what resources/scripts/gpuplan-watch.sh reads, in the documented paths and
payloads (README.md beside this file cites each), with the documented "no notice" answer and the documented refusal
of a request that lacks its header or token. It is not a model of the services beyond that.

Control (for the tests; not part of any real service):
  POST /_standin/notice     {"in_seconds": 3, "deadline_in": 20, "payload": optional raw body to serve instead}
                            the notice is answered from in_seconds on; its deadline is deadline_in s after that
  POST /_standin/rebalance  {"in_seconds": 2}   (aws) the rebalance recommendation
  POST /_standin/clear                          the instance is a new one: no notice, no rebalance recommendation
  POST /_standin/expire_tokens                  (aws, alibaba) every token issued so far is refused from now on
  GET  /_standin/state      notice_at, deadline, rebalance_at, tokens, acks
  GET  /_standin/requests   every request but the control ones: time, method, path, headers, body

As a program: metadata_standin.py PROVIDER [--port-file FILE] serves until killed and writes its port to FILE.
"""

import argparse
import datetime
import email.utils
import json
import os
import secrets
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

PROVIDERS = ("aws", "gcp", "azure", "alibaba", "tencent", "huawei")
BEIJING = datetime.timezone(datetime.timedelta(hours=8))


class Standin:
    def __init__(self, provider):
        if provider not in PROVIDERS:
            raise ValueError("unknown provider " + provider)
        self.provider = provider
        self.lock = threading.Lock()
        self.requests = []
        self.notice_at = None
        self.deadline = None
        self.payload = None
        self.rebalance_at = None
        self.tokens = {}  # token -> {"issued": t, "ttl": s, "revoked": bool}
        self.acks = []
        self.event_id = str(uuid.uuid4()).upper()
        self.incarnation = 1
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.url = "http://127.0.0.1:%d" % self.port
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    # --- control, also callable in-process ----------------------------------------------------------------------
    def raise_notice(self, in_seconds, deadline_in, payload=None):
        with self.lock:
            self.notice_at = time.time() + in_seconds
            self.deadline = int(self.notice_at + deadline_in)
            self.payload = payload

    def raise_rebalance(self, in_seconds):
        with self.lock:
            self.rebalance_at = time.time() + in_seconds

    def clear(self):
        with self.lock:
            self.notice_at = None
            self.deadline = None
            self.payload = None
            self.rebalance_at = None

    def expire_tokens(self):
        with self.lock:
            for token in self.tokens.values():
                token["revoked"] = True

    def state(self):
        with self.lock:
            return {
                "provider": self.provider,
                "notice_at": self.notice_at,
                "deadline": self.deadline,
                "rebalance_at": self.rebalance_at,
                "tokens": dict(self.tokens),
                "acks": list(self.acks),
                "event_id": self.event_id,
            }

    def recorded(self):
        with self.lock:
            return list(self.requests)

    # --- the service --------------------------------------------------------------------------------------------
    def _notice_on(self):
        return self.notice_at is not None and time.time() >= self.notice_at

    def _token_ok(self, token):
        info = self.tokens.get(token)
        return info is not None and not info["revoked"] and time.time() < info["issued"] + info["ttl"]

    def _issue_token(self, ttl_header, headers):
        ttl = headers.get(ttl_header)
        if ttl is None or not ttl.isdigit() or not 1 <= int(ttl) <= 21600:
            return 400, "text/plain", "Bad Request"
        token = secrets.token_urlsafe(32)
        self.tokens[token] = {"issued": time.time(), "ttl": int(ttl), "revoked": False}
        return 200, "text/plain", token

    def answer(self, method, path, query, headers, body):
        """(status, content type, body) of a request to the service, by provider."""
        p = self.provider
        if p == "aws":
            # IMDSv2 required: a token from PUT /latest/api/token, sent on every GET; 401 without a valid one.
            if path == "/latest/api/token":
                if method != "PUT":
                    return 405, "text/plain", "Method Not Allowed"
                return self._issue_token("x-aws-ec2-metadata-token-ttl-seconds", headers)
            if path.startswith("/latest/meta-data"):
                if method != "GET":
                    return 405, "text/plain", "Method Not Allowed"
                if not self._token_ok(headers.get("x-aws-ec2-metadata-token", "")):
                    return 401, "text/plain", "Unauthorized"
                if path == "/latest/meta-data/spot/instance-action" and self._notice_on():
                    if self.payload is not None:
                        return 200, "text/plain", self.payload
                    t = datetime.datetime.fromtimestamp(self.deadline, datetime.timezone.utc)
                    return 200, "text/plain", json.dumps(
                        {"action": "terminate", "time": t.strftime("%Y-%m-%dT%H:%M:%SZ")})
                if (path == "/latest/meta-data/events/recommendations/rebalance" and self.rebalance_at is not None
                        and time.time() >= self.rebalance_at):
                    t = datetime.datetime.fromtimestamp(int(self.rebalance_at), datetime.timezone.utc)
                    return 200, "text/plain", json.dumps({"noticeTime": t.strftime("%Y-%m-%dT%H:%M:%SZ")})
            return 404, "text/html", "<html><body><h1>404 - Not Found</h1></body></html>"
        if p == "alibaba":
            # Hardened-only mode: a token from PUT /latest/api/token, sent on every GET; 403 without a valid one.
            if path == "/latest/api/token":
                if method != "PUT":
                    return 405, "text/plain", "Method Not Allowed"
                return self._issue_token("x-aliyun-ecs-metadata-token-ttl-seconds", headers)
            if path.startswith("/latest/meta-data"):
                if not self._token_ok(headers.get("x-aliyun-ecs-metadata-token", "")):
                    return 403, "text/plain", "Forbidden"
                if path == "/latest/meta-data/instance/spot/termination-time" and self._notice_on():
                    if self.payload is not None:
                        return 200, "text/plain", self.payload
                    t = datetime.datetime.fromtimestamp(self.deadline, datetime.timezone.utc)
                    return 200, "text/plain", t.strftime("%Y-%m-%dT%H:%M:%SZ")
            return 404, "text/plain", "Not Found"
        if p == "tencent":
            if path == "/latest/meta-data/spot/termination-time" and method == "GET" and self._notice_on():
                if self.payload is not None:
                    return 200, "text/plain", self.payload
                # UTC+8 (Beijing time), no zone suffix.
                t = datetime.datetime.fromtimestamp(self.deadline, BEIJING)
                return 200, "text/plain", t.strftime("%Y-%m-%d %H:%M:%S")
            return 404, "text/plain", "Not Found"
        if p == "gcp":
            if headers.get("metadata-flavor") != "Google":
                return 403, "text/html", "Forbidden: missing Metadata-Flavor header"
            if path == "/computeMetadata/v1/instance/preempted" and method == "GET":
                if self._notice_on() and self.payload is not None:
                    return 200, "application/text", self.payload
                return 200, "application/text", "TRUE" if self._notice_on() else "FALSE"
            return 404, "text/html", "Not Found"
        if p == "azure":
            if path != "/metadata/scheduledevents":
                return 404, "application/json", '{"error":"Not found"}'
            if headers.get("metadata") != "true":
                return 400, "application/json", '{"error":"Bad request. Required metadata header not specified"}'
            if query.get("api-version") != ["2020-07-01"]:
                return 400, "application/json", '{"error":"Bad request. api-version was not specified"}'
            if method == "POST":
                try:
                    ids = [r["EventId"] for r in json.loads(body)["StartRequests"]]
                except (ValueError, KeyError, TypeError):
                    return 400, "application/json", '{"error":"Bad request"}'
                if self.event_id not in ids or not self._notice_on():
                    return 400, "application/json", '{"error":"Bad request. Unknown EventId"}'
                self.acks.append({"time": time.time(), "ids": ids})
                return 200, "application/json", ""
            if self._notice_on() and self.payload is not None:
                return 200, "application/json", self.payload
            events = []
            if self._notice_on():
                events.append({
                    "EventId": self.event_id, "EventType": "Preempt", "ResourceType": "VirtualMachine",
                    "Resources": ["gpuplan-vm"], "EventStatus": "Scheduled",
                    "NotBefore": email.utils.formatdate(self.deadline, usegmt=True),
                    "Description": "", "EventSource": "Platform", "DurationInSeconds": -1})
            return 200, "application/json", json.dumps(
                {"DocumentIncarnation": self.incarnation + (1 if events else 0), "Events": events})
        return 404, "text/plain", "Not Found"  # huawei: no in-guest notice is documented

    def _handler(self):
        standin = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _reply(self, status, ctype, text, extra=None):
                data = text.encode()
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(data)))
                for k, v in (extra or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

            def _handle(self, method):
                parts = urlsplit(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
                if parts.path.startswith("/_standin/"):
                    return self._control(method, parts.path, body)
                headers = {k.lower(): v for k, v in self.headers.items()}
                with standin.lock:
                    standin.requests.append({"time": time.time(), "method": method, "path": self.path,
                                             "headers": headers, "body": body})
                    status, ctype, text = standin.answer(method, parts.path, parse_qs(parts.query), headers, body)
                extra = {"Metadata-Flavor": "Google"} if standin.provider == "gcp" else None
                self._reply(status, ctype, text, extra)

            def _control(self, method, path, body):
                args = json.loads(body) if body else {}
                if method == "POST" and path == "/_standin/notice":
                    standin.raise_notice(args.get("in_seconds", 0), args.get("deadline_in", 30), args.get("payload"))
                elif method == "POST" and path == "/_standin/rebalance":
                    standin.raise_rebalance(args.get("in_seconds", 0))
                elif method == "POST" and path == "/_standin/clear":
                    standin.clear()
                elif method == "POST" and path == "/_standin/expire_tokens":
                    standin.expire_tokens()
                elif method == "GET" and path == "/_standin/state":
                    return self._reply(200, "application/json", json.dumps(standin.state()))
                elif method == "GET" and path == "/_standin/requests":
                    return self._reply(200, "application/json", json.dumps(standin.recorded()))
                else:
                    return self._reply(404, "text/plain", "no such control")
                self._reply(200, "application/json", "{}")

            def do_GET(self):
                self._handle("GET")

            def do_PUT(self):
                self._handle("PUT")

            def do_POST(self):
                self._handle("POST")

        return Handler


def main():
    parser = argparse.ArgumentParser(description="Stand-in of a cloud instance metadata service (loopback only).")
    parser.add_argument("provider", choices=PROVIDERS)
    parser.add_argument("--port-file", help="write the port here once listening")
    args = parser.parse_args()
    standin = Standin(args.provider)
    if args.port_file:
        with open(args.port_file + ".tmp", "w") as f:
            f.write("%d\n" % standin.port)
        os.replace(args.port_file + ".tmp", args.port_file)
    print("metadata stand-in (%s) on %s" % (args.provider, standin.url), flush=True)
    standin.server.serve_forever()


if __name__ == "__main__":
    main()
