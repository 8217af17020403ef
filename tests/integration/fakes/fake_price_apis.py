#!/usr/bin/env python3
"""A FAKE of the price APIs that need an account: Lambda instance-types, the Google Cloud Billing Catalog (with
its OAuth token endpoint), Alibaba ECS DescribePrice / DescribeSpotPriceHistory / DescribeSpotAdvice, Tencent CVM
DescribeZoneInstanceConfigInfos / DescribeImages / InquiryPriceRunInstances, Huawei IAM projects and BSS ratings,
and EC2 DescribeSpotPriceHistory. Each answer has its API's documented shape (tests/data/<provider>/); the prices
are made up from the bundled catalog's, so a test can tell every one apart:

  pay-as-you-go  = bundled on-demand x 2        spot  = bundled on-demand / 2
  monthly        = bundled on-demand x 400      year  = bundled on-demand x 4000 (per month: / 12)

It pages (Google, EC2: two pages), refuses a wrong key (401 with the provider's error body), and produces on
demand the faults the real APIs will not: --throttle-once answers each route's first request 429, --cut-once
cuts each route's first answer off mid-body. Requests must carry the provider's signature or key.

With --documented it answers instead with the examples the providers' documentation prints, verbatim
(tests/data/<provider>/, each README names the page): Lambda's instance types, Google's SKU page (then an empty
last page), Alibaba's DescribePrice, DescribeSpotPriceHistory and DescribeSpotAdvice, Tencent's
DescribeZoneInstanceConfigInfos and prepaid InquiryPriceRunInstances, Huawei's project list and period rating (its
on-demand rating has no documented example: answered 400), and EC2's DescribeSpotPriceHistory.

Prints {"http": PORT} on the first line of stdout, then serves until stdin closes.
Usage: fake_price_apis.py CATALOG_DIR [--throttle-once] [--cut-once] [--documented]
"""
import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

CATALOG = sys.argv[1]
THROTTLE = "--throttle-once" in sys.argv
CUT = "--cut-once" in sys.argv
DOCUMENTED = "--documented" in sys.argv
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data")


def documented(path):
    return open(os.path.join(DATA, path)).read()
SEEN = set()
LOCK = threading.Lock()
LAMBDA_KEY = "test-lambda-key"
ACCESS_KEY_ID = "AKIDEXAMPLEFORPRICES"


def offers(provider):
    return json.load(open(os.path.join(CATALOG, "offers", provider + ".json")))["offers"]


def on_demand(offer, region=None):
    prices = [p for p in offer["prices"] if p["mode"] == "on_demand" and (region is None or p["region"] == region)]
    if not prices and region is not None:
        prices = [p for p in offer["prices"] if p["mode"] == "on_demand"]
    return prices[0]["amount"] if prices else 1.0


def offer_named(provider, name):
    return next((o for o in offers(provider) if o["instance_type"] == name), None)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body, content_type="application/json", headers=None):
        data = (body if isinstance(body, str) else json.dumps(body)).encode()
        route = self.route()
        with LOCK:
            first = route not in SEEN
            SEEN.add(route)
        if first and THROTTLE and status == 200:
            data, status, headers = b'{"message": "throttled by the fake"}', 429, {"Retry-After": "0"}
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if first and CUT and status == 200:
            self.wfile.write(data[: len(data) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        self.wfile.write(data)

    def route(self):
        url = urlsplit(self.path)
        action = self.headers.get("X-TC-Action") or parse_qs(url.query).get("Action", [""])[0]
        return self.command + " " + url.path + " " + action

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length).decode() if length else ""

    def do_GET(self):
        url = urlsplit(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        if url.path == "/api/v1/instance-types":
            return self.lambda_types()
        if url.path.startswith("/v1/services/6F81-5844-456A/skus"):
            return self.gcp_skus(query)
        if url.path == "/v3/projects":
            return self.huawei_projects(query)
        if "Action" in query:
            return self.alibaba(query)
        self.reply(404, {"message": "not found: " + self.path})

    def do_POST(self):
        url = urlsplit(self.path)
        body = self.body()
        if url.path == "/token":
            return self.reply(200, {"access_token": "fake-google-token", "expires_in": 3600, "token_type": "Bearer"})
        if self.headers.get("X-TC-Action"):
            return self.tencent(self.headers["X-TC-Action"], self.headers.get("X-TC-Region", ""), json.loads(body))
        if url.path.startswith("/v2/bills/ratings/"):
            return self.huawei_rating(url.path, json.loads(body))
        if "Action=DescribeSpotPriceHistory" in body:
            return self.ec2_spot(parse_qs(body))
        self.reply(404, {"message": "not found: " + self.path})

    # ---- Lambda (tests/data/lambda/instance-types.json, error-example.json)
    def lambda_types(self):
        if self.headers.get("Authorization") != "Bearer " + LAMBDA_KEY:
            return self.reply(401, {"error": {"code": "global/invalid-api-key",
                                              "message": "API key was invalid, expired, or deleted.",
                                              "suggestion": "Check your API key or create a new one, then try again."}})
        if DOCUMENTED:
            return self.reply(200, documented("lambda/instance-types.json"))
        data = {}
        for o in offers("lambda"):
            data[o["instance_type"]] = {
                "instance_type": {"name": o["instance_type"], "description": o["instance_type"],
                                  "gpu_description": o["gpu"], "price_cents_per_hour": round(on_demand(o) * 200),
                                  "specs": {"vcpus": o["vcpus"], "memory_gib": o["ram_gib"], "storage_gib": 512,
                                            "gpus": o["gpu_count"]}},
                "regions_with_capacity_available": [{"name": o["regions"][0], "description": o["regions"][0]}]}
        self.reply(200, {"data": data})

    # ---- Google (tests/data/gcp/skus-page.json): the A2 SKUs of the documented page, then a second page.
    def gcp_skus(self, query):
        if self.headers.get("Authorization") != "Bearer fake-google-token":
            return self.reply(401, {"error": {"code": 401, "message": "Request had invalid authentication credentials.",
                                              "status": "UNAUTHENTICATED"}})
        if DOCUMENTED:
            return self.reply(200, documented("gcp/skus-page.json") if "pageToken" not in query else {"skus": []})
        page = json.load(open(os.path.join(DATA, "gcp", "skus-page.json")))
        if query.get("pageToken") != "page-2":
            page["nextPageToken"] = "page-2"
            return self.reply(200, page)
        spot = []
        for sku in page["skus"]:
            if sku["description"].startswith(("Nvidia Tesla A100 GPU", "A2 Instance")):
                s = json.loads(json.dumps(sku))
                s["skuId"] = "SPOT-" + sku["skuId"]
                s["description"] = "Spot Preemptible " + sku["description"]
                s["category"]["usageType"] = "Preemptible"
                rate = s["pricingInfo"][-1]["pricingExpression"]["tieredRates"][0]["unitPrice"]
                nanos = (int(rate["units"]) * 10**9 + rate["nanos"]) // 2
                rate["units"], rate["nanos"] = str(nanos // 10**9), nanos % 10**9
                spot.append(s)
        self.reply(200, {"skus": spot, "nextPageToken": ""})

    # ---- Alibaba (tests/data/alibaba/): RPC over GET, signed with signature V2.
    def alibaba(self, q):
        if "Signature" not in q or q.get("AccessKeyId") != ACCESS_KEY_ID:
            return self.reply(400, {"RequestId": "fake", "Code": "InvalidAccessKeyId.NotFound",
                                    "Message": "Specified access key is not found."})
        if DOCUMENTED:
            name = {"DescribePrice": "describe-price.json",
                    "DescribeSpotPriceHistory": "describe-spot-price-history.json",
                    "DescribeSpotAdvice": "describe-spot-advice.json"}.get(q["Action"])
            return self.reply(200, documented("alibaba/" + name)) if name else self.reply(400, documented(
                "alibaba/error-example.json"))
        if q["Action"] == "DescribeSpotAdvice":
            return self.alibaba_spot_advice(q)
        o = offer_named("alibaba", q.get("InstanceType", ""))
        if o is None or q.get("RegionId") not in o["regions"]:
            return self.reply(400, {"RequestId": "fake", "Code": "InvalidInstanceType.NotFound",
                                    "Message": "The specified InstanceType does not exist."})
        base = on_demand(o, q["RegionId"])
        if q["Action"] == "DescribePrice":
            amount = {"Hour": base * 2, "Month": base * 400, "Year": base * 4000}[q["PriceUnit"]]
            price = {"Currency": "CNY", "OriginalPrice": amount + 5, "DiscountPrice": 0, "TradePrice": amount + 5,
                     "DetailInfos": {"DetailInfo": [
                         {"Resource": "systemDisk", "OriginalPrice": 5, "DiscountPrice": 0, "TradePrice": 5},
                         {"Resource": "instanceType", "OriginalPrice": amount, "DiscountPrice": 0,
                          "TradePrice": amount}]}}
            return self.reply(200, {"RequestId": "fake", "PriceInfo": {"Price": price, "Rules": {"Rule": []}}})
        if q["Action"] == "DescribeSpotPriceHistory":
            zone = q["RegionId"] + "-b"
            return self.reply(200, {"RequestId": "fake", "Currency": "CNY", "SpotPrices": {"SpotPriceType": [
                {"ZoneId": zone, "InstanceType": o["instance_type"], "NetworkType": "vpc", "IoOptimized": "optimized",
                 "SpotPrice": base, "OriginPrice": base, "Timestamp": "2026-12-01T00:00:00Z"},
                {"ZoneId": zone, "InstanceType": o["instance_type"], "NetworkType": "vpc", "IoOptimized": "optimized",
                 "SpotPrice": base / 2, "OriginPrice": base, "Timestamp": "2026-12-05T00:00:00Z"}]}})
        self.reply(400, {"RequestId": "fake", "Code": "InvalidAction.NotFound", "Message": q["Action"]})

    def alibaba_spot_advice(self, q):
        # The documented example's shape and band (0-3%) in the zone the spot history above prices (<region>-b), for
        # the type asked; another zone of the region gets the worst band (10-100%), so that a reader who took the
        # wrong zone's band, or the worst across zones, is caught.
        o = offer_named("alibaba", q.get("InstanceTypes.1", ""))
        if o is None or q.get("RegionId") not in o["regions"]:
            return self.reply(403, {"RequestId": "fake", "Code": "InvalidParam.TypeAndCpuMem.Conflict",
                                    "Message": "The specified 'InstanceType' and 'Cores','Memory' are not blank at "
                                               "the same time."})
        answer = json.loads(documented("alibaba/describe-spot-advice.json"))
        template = answer["AvailableSpotZones"]["AvailableSpotZone"][0]
        zones = []
        for zone, band in ((q["RegionId"] + "-b", None), (q["RegionId"] + "-c", "10-100%")):
            entry = json.loads(json.dumps(template))
            entry["ZoneId"] = zone
            resource = entry["AvailableSpotResources"]["AvailableSpotResource"][0]
            resource["InstanceType"] = o["instance_type"]
            if band:
                resource["InterruptRateDesc"], resource["InterruptionRate"] = band, 12.5
            zones.append(entry)
        answer["RegionId"] = q["RegionId"]
        answer["AvailableSpotZones"]["AvailableSpotZone"] = zones
        return self.reply(200, answer)

    # ---- Tencent (tests/data/tencent/): TC3-signed POST with X-TC-Action.
    def tencent(self, action, region, params):
        if "TC3-HMAC-SHA256 Credential=" + ACCESS_KEY_ID not in self.headers.get("Authorization", ""):
            return self.reply(200, {"Response": {"Error": {"Code": "AuthFailure.SecretIdNotFound",
                                                           "Message": "The SecretId is not found."},
                                                 "RequestId": "fake"}})
        if DOCUMENTED and action == "DescribeZoneInstanceConfigInfos":
            return self.reply(200, documented("tencent/describe-zone-instance-config-infos.json"))
        if DOCUMENTED and action == "InquiryPriceRunInstances":
            return self.reply(200, documented("tencent/inquiry-price-run-instances-prepaid.json"))
        if action == "DescribeZoneInstanceConfigInfos":
            filters = {f["Name"]: f["Values"] for f in params.get("Filters", [])}
            charge = filters["instance-charge-type"][0]
            rows = []
            for name in filters["instance-type"]:
                o = offer_named("tencent", name)
                if o is None or region not in o["regions"]:
                    continue
                base = on_demand(o, region)
                for zone, factor in ((region + "-3", 1.0), (region + "-4", 1.1)):
                    unit = base * 2 * factor if charge == "POSTPAID_BY_HOUR" else base / 2 * factor
                    rows.append({"Zone": zone, "InstanceType": name, "InstanceChargeType": charge, "Status": "SELL",
                                 "Price": {"UnitPrice": base * 2 * factor, "UnitPriceDiscount": unit,
                                           "UnitPriceSecondStep": 0, "ChargeUnit": "HOUR"}})
            return self.reply(200, {"Response": {"InstanceTypeQuotaSet": rows, "RequestId": "fake"}})
        if action == "DescribeImages":
            return self.reply(200, {"Response": {"ImageSet": [
                {"ImageId": "img-fakeubuntu", "ImageName": "Ubuntu Server 22.04 LTS 64bit", "ImageDescription": "",
                 "CreatedTime": "2026-01-01T00:00:00Z", "ImageState": "NORMAL", "Platform": "Ubuntu"}],
                "TotalCount": 1, "RequestId": "fake"}})
        if action == "InquiryPriceRunInstances":
            o = offer_named("tencent", params["InstanceType"])
            base = on_demand(o, region)
            months = params["InstanceChargePrepaid"]["Period"]
            total = base * 400 if months == 1 else base * 4000
            return self.reply(200, {"Response": {"Price": {"InstancePrice": {"OriginalPrice": total,
                                                                             "DiscountPrice": total * 0.8,
                                                                             "ChargeUnit": "HOUR"}},
                                                 "RequestId": "fake"}})
        self.reply(200, {"Response": {"Error": {"Code": "InvalidAction", "Message": action}, "RequestId": "fake"}})

    # ---- Huawei (tests/data/huawei/): SDK-HMAC-SHA256 signed.
    def huawei_signed(self):
        return "SDK-HMAC-SHA256 Access=" + ACCESS_KEY_ID in self.headers.get("Authorization", "")

    def huawei_projects(self, query):
        if not self.huawei_signed():
            return self.reply(401, {"error": {"code": "APIGW.0301", "message": "Incorrect IAM authentication information"}})
        if DOCUMENTED:
            return self.reply(200, documented("huawei/keystone-list-projects.json"))
        name = query.get("name", "")
        self.reply(200, {"projects": [{"id": "project-" + name, "name": name, "enabled": True}],
                         "links": {"self": "fake"}})

    def huawei_rating(self, path, body):
        if not self.huawei_signed():
            return self.reply(401, {"error_code": "APIGW.0301", "error_msg": "Incorrect IAM authentication information"})
        if DOCUMENTED:
            if path.endswith("on-demand-resources"):
                return self.reply(400, {"error_code": "CBC.0100", "error_msg": "no documented example (fake)"})
            return self.reply(200, documented("huawei/period-rating.json"))
        results = []
        for item in body["product_infos"]:
            o = offer_named("huawei", item["resource_spec"].rsplit(".linux", 1)[0])
            base = on_demand(o, item["region"])
            if path.endswith("on-demand-resources"):
                amount = base * 2
            else:
                amount = base * 400 if item["period_type"] == 2 else base * 4000
            results.append({"id": item["id"], "product_id": "fake", "official_website_amount": amount,
                            "amount": amount * 0.9, "measure_id": 1})
        if path.endswith("on-demand-resources"):
            return self.reply(200, {"currency": "CNY", "measure_id": 1, "product_rating_results": results,
                                    "official_website_amount": sum(r["official_website_amount"] for r in results)})
        self.reply(200, {"currency": "CNY", "optional_discount_rating_results": [],
                         "official_website_rating_result": {
                             "official_website_amount": results[0]["official_website_amount"], "measure_id": 1,
                             "product_rating_results": results}})

    # ---- EC2 (tests/data/aws/describe-spot-price-history.xml): two pages.
    def ec2_spot(self, form):
        if "Credential=" + ACCESS_KEY_ID not in self.headers.get("Authorization", ""):
            return self.reply(401, '<Response><Errors><Error><Code>AuthFailure</Code><Message>AWS was not able to '
                                   'validate the provided access credentials</Message></Error></Errors>'
                                   '<RequestID>fake</RequestID></Response>', "text/xml")
        if DOCUMENTED:
            return self.reply(200, documented("aws/describe-spot-price-history.xml"), "text/xml")
        types = [v[0] for k, v in form.items() if k.startswith("InstanceType.")]
        second = "NextToken" in form
        items = []
        for name in types:
            o = offer_named("aws", name)
            if o is None:
                continue
            region = o["regions"][0]
            base = on_demand(o)
            price = base / 2 if second else base / 2 * 1.2  # the cheaper zone on page 2
            zone = region + ("b" if second else "a")
            for product in ("Linux/UNIX", "Windows"):
                items.append("<item><instanceType>%s</instanceType><productDescription>%s</productDescription>"
                             "<spotPrice>%.6f</spotPrice><timestamp>2026-12-05T00:00:00.000Z</timestamp>"
                             "<availabilityZone>%s</availabilityZone></item>"
                             % (name, product, price if product == "Linux/UNIX" else price / 10, zone))
        token = "" if second else "<nextToken>page-2</nextToken>"
        self.reply(200, '<DescribeSpotPriceHistoryResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/">'
                        "<requestId>fake</requestId><spotPriceHistorySet>" + "".join(items)
                        + "</spotPriceHistorySet>" + (token or "<nextToken/>") + "</DescribeSpotPriceHistoryResponse>",
                   "text/xml")


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(json.dumps({"http": server.server_address[1]}), flush=True)
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
