#!/usr/bin/env python3
"""A FAKE HTTP server for TestHttpClient: it produces on demand the faults a real server will not
(429 with Retry-After, 503, connection resets, a stalled body, a truncated body, a provider's throttling
code in an HTTP 200, a skewed Date header), serves the same over TLS with the certificate it is given, and
plays an HTTP proxy that answers absolute-form requests itself (so nothing leaves loopback).

Prints {"http": PORT, "https": PORT, "proxy": PORT} on the first line of stdout, then serves until stdin
closes (when the test ends). Paths take ?id=NAME (a counter per path and id) and ?n=N (fail the first N hits).
"""
import argparse
import email.utils
import json
import os
import socket
import ssl
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

HITS = {}
LOCK = threading.Lock()


def hit(path, ident):
    with LOCK:
        HITS[(path, ident)] = HITS.get((path, ident), 0) + 1
        return HITS[(path, ident)]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    date_offset = 0.0

    def log_message(self, *args):
        pass

    def date_time_string(self, timestamp=None):
        # send_response() writes the Date header from here: /skew shifts it.
        return email.utils.formatdate((timestamp or time.time()) + self.date_offset, usegmt=True)

    def drop(self, reset):
        """Ends the connection now: with a reset (RST) or an orderly close, releasing every reference."""
        if reset:
            # SO_LINGER with a zero timeout makes the last close() send RST instead of FIN.
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        else:
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
        self.close_connection = True
        self.rfile.close()
        self.wfile.close()
        self.connection.close()

    def do_GET(self):
        self.serve()

    do_POST = do_PUT = do_DELETE = do_PATCH = do_GET

    def reply(self, status, body, headers=None):
        data = body if isinstance(body, bytes) else body.encode()
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def serve(self):
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        ident = query.get("id", [""])[0]
        failures = int(query.get("n", ["0"])[0])
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
        if url.path == "/hits":
            with LOCK:
                count = HITS.get((query.get("path", [""])[0], ident), 0)
            return self.reply(200, json.dumps({"hits": count}), {"Content-Type": "application/json"})
        count = hit(url.path, ident)
        failing = count <= failures
        echo = json.dumps({"method": self.command, "path": self.path, "headers": dict(self.headers.items()),
                           "body": body, "hit": count})
        if url.path == "/ok":
            return self.reply(200, echo, {"Content-Type": "application/json"})
        if url.path == "/429":
            if failing:
                return self.reply(429, "slow down", {"Retry-After": query.get("after", ["1"])[0]})
            return self.reply(200, echo)
        if url.path == "/503":
            return self.reply(503, "unavailable") if failing else self.reply(200, echo)
        if url.path == "/reset":
            if failing:
                return self.drop(reset=True)
            return self.reply(200, echo)
        if url.path == "/stall":
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b"x" * 10)
            self.wfile.flush()
            time.sleep(float(query.get("seconds", ["30"])[0]))
            return
        if url.path == "/truncated":
            if failing:
                self.send_response(200)
                self.send_header("Content-Length", "100")
                self.end_headers()
                self.wfile.write(b"only ten b")
                return self.drop(reset=False)
            return self.reply(200, echo)
        if url.path == "/tencent-throttle":
            if failing:
                return self.reply(200, json.dumps({"Response": {"Error": {"Code": "RequestLimitExceeded",
                                                                          "Message": "too many requests"},
                                                               "RequestId": "throttled"}}))
            return self.reply(200, json.dumps({"Response": {"RequestId": "done"}}))
        if url.path == "/endless":
            # A body that never ends (no Content-Length, chunked until the client gives up): a runaway server or a
            # wrong endpoint. Stops when the client closes the connection.
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            chunk = b"x" * 65536
            try:
                for _ in range(int(query.get("mb", ["1024"])[0]) * 16):
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                self.wfile.write(b"0\r\n\r\n")
            except (BrokenPipeError, ConnectionResetError):
                pass
            return
        if url.path == "/file":
            # A download of ?mb=N MiB with its length announced: byte i is i % 251.
            size = int(float(query.get("mb", ["1"])[0]) * (1 << 20))
            self.send_response(200)
            self.send_header("Content-Length", str(size))
            self.end_headers()
            pattern = bytes(i % 251 for i in range(251 * 1024))
            sent = 0
            try:
                while sent < size:
                    piece = pattern[: min(len(pattern), size - sent)]
                    self.wfile.write(piece)
                    sent += len(piece)
            except (BrokenPipeError, ConnectionResetError):
                pass
            return
        if url.path == "/skew":
            self.date_offset = float(query.get("offset", ["0"])[0])
            return self.reply(200, "ok")
        return self.reply(404, "no such fault")


class ProxyHandler(Handler):
    """Answers an absolute-form request (GET http://host/path) itself, saying it was the proxy."""

    def serve(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        self.reply(200, json.dumps({"proxied": self.path}), {"X-Fake-Proxy": "yes"})


class QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # the faults are deliberate: a dropped connection or a refused certificate is no news


def start(handler, context=None):
    server = QuietServer(("127.0.0.1", 0), handler)
    if context:
        server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server.server_address[1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    args = parser.parse_args()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(args.cert, args.key)
    ports = {"http": start(Handler), "https": start(Handler, context), "proxy": start(ProxyHandler)}
    print(json.dumps(ports), flush=True)
    sys.stdin.read()  # until the test closes our stdin or ends
    os._exit(0)


if __name__ == "__main__":
    main()
