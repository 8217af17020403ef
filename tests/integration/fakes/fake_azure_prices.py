#!/usr/bin/env python3
"""A FAKE of the Azure Retail Prices API (https://prices.azure.com/api/retail/prices), for the price refresh
tests: it answers a $filter on armSkuName with pages of the documented shape (Items, NextPageLink, Count) built
from tests/data/azure/retail-prices.json, two items per page, and produces on demand the faults the real API
will not: the first request of page 2 throttled (429 with Retry-After), or every page 2 cut off mid-body.

Prints {"http": PORT} on the first line of stdout, then serves until stdin closes.
With --slow SECONDS, each page waits that long (for a test that cancels a refresh under way).
Usage: fake_azure_prices.py ITEMS_JSON [--throttle-page-2] [--cut-page-2] [--slow SECONDS]
"""
import json
import os
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit, quote

ITEMS = json.load(open(sys.argv[1]))["Items"]
THROTTLE = "--throttle-page-2" in sys.argv
CUT = "--cut-page-2" in sys.argv
SLOW = float(sys.argv[sys.argv.index("--slow") + 1]) if "--slow" in sys.argv else 0.0
SEEN = {}
LOCK = threading.Lock()
PAGE = 2


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body, headers=None):
        data = body.encode()
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        url = urlsplit(self.path)
        if url.path != "/api/retail/prices":
            return self.reply(404, "not found")
        time.sleep(SLOW)
        query = parse_qs(url.query)
        flt = query.get("$filter", [""])[0]
        skip = int(query.get("$skip", ["0"])[0])
        sku = re.search(r"armSkuName eq '([^']+)'", flt)
        region = re.search(r"armRegionName eq '([^']+)'", flt)
        items = [i for i in ITEMS if sku and i["armSkuName"] == sku.group(1)
                 and (not region or i["armRegionName"] == region.group(1))]
        page = items[skip:skip + PAGE]
        if skip > 0:
            with LOCK:
                SEEN[self.path] = SEEN.get(self.path, 0) + 1
                first = SEEN[self.path] == 1
            if THROTTLE and first:
                return self.reply(429, "Too many requests", {"Retry-After": "0"})
            if CUT:
                self.send_response(200)
                self.send_header("Content-Length", "4000")
                self.end_headers()
                self.wfile.write(b'{"BillingCurrency": "USD", "Items": [')
                self.wfile.flush()
                self.close_connection = True
                return
        host = self.headers.get("Host")
        following = skip + PAGE < len(items)
        body = {"BillingCurrency": "USD", "CustomerEntityId": "Default", "CustomerEntityType": "Retail",
                "Items": page,
                "NextPageLink": ("http://%s/api/retail/prices?$filter=%s&$skip=%d" % (host, quote(flt), skip + PAGE))
                if following else None,
                "Count": len(page)}
        self.reply(200, json.dumps(body), {"Content-Type": "application/json"})


class QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass


server = QuietServer(("127.0.0.1", 0), Handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
print(json.dumps({"http": server.server_address[1]}), flush=True)
sys.stdin.read()
os._exit(0)
