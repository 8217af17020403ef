#!/usr/bin/env python3
"""A plain-HTTP forward proxy on loopback that writes down the Authorization header of every request it carries.

The log test (TestLaunchFlow::logOfAWholeSessionHoldsNoSecret) sends gpuplan's requests to the EC2 and CVM fakes
through it, to learn the signatures gpuplan computed and then look for them in gpuplan's log. The fakes do not
report the headers they got, and a signature is computed from the time and the request, so it cannot be known
beforehand. It carries plain http:// only (the fakes), never CONNECT.

    capture_proxy.py --port-file FILE --record FILE

Each Authorization value goes to the record file on a line of its own. Nothing is printed.
"""

import argparse
import http.client
import http.server
import os
import threading
import urllib.parse

HOP_BY_HOP = {"connection", "proxy-connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade",
              "proxy-authorization", "proxy-authenticate"}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--record", required=True)
    args = parser.parse_args()
    lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_):
            pass

        def relay(self):
            target = urllib.parse.urlsplit(self.path)
            if target.scheme != "http" or target.hostname not in ("127.0.0.1", "localhost"):
                self.send_error(403, "only http://127.0.0.1 is carried")
                return
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            authorization = self.headers.get("Authorization")
            if authorization:
                with lock, open(args.record, "a", encoding="utf-8") as record:
                    record.write(authorization + "\n")
            headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
            path = target.path + ("?" + target.query if target.query else "")
            upstream = http.client.HTTPConnection(target.hostname, target.port or 80, timeout=60)
            try:
                upstream.request(self.command, path or "/", body=body, headers=headers)
                answer = upstream.getresponse()
                data = answer.read()
            except OSError as error:
                self.send_error(502, str(error))
                return
            finally:
                upstream.close()
            self.send_response(answer.status, answer.reason)
            for k, v in answer.getheaders():
                if k.lower() not in HOP_BY_HOP and k.lower() != "content-length":
                    self.send_header(k, v)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Connection", "close")
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)
            self.close_connection = True

        do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = do_PATCH = relay

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(args.port_file + ".tmp", "w", encoding="utf-8") as f:
        f.write(str(server.server_address[1]))
    os.replace(args.port_file + ".tmp", args.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
