#!/usr/bin/env python3
"""Self-test of fake_azure_vm.py, run by hand (not in ctest):

    python3 tests/integration/fakes/test_fake_azure_vm.py [-v]

It starts the fake on a free loopback port and checks: the token endpoint (a token; a wrong secret, an unknown client
and an unknown tenant answer AADSTS7000215 / AADSTS700016 / AADSTS90002), the ARM checks (no or a foreign bearer token,
no api-version, another subscription), a whole launch (resource group, SKUs, image, NSG 404 then PUT and its async
operation, a security rule, VNet, VM PUT Creating then Succeeded/running, the inline NIC and public IP with 127.0.0.1,
the list, an upsert, a property change refused, DELETE, Deleting then 404, the NIC and IP deleted with the VM or left
behind when Detach), the validation (location of the network, zones, image, admin user, customData size, Spot
fields), sold-out zones, and every fault and control endpoint. Then the official Node SDKs
(tests/integration/sdk/node_modules/@azure/arm-compute 22.4.0, arm-network 33.5.0, arm-resources 6.1.0, $host and
endpoint http://127.0.0.1:PORT, allowInsecureConnection, a TokenCredential that hands over a token this fake issued;
@azure/core-rest-pipeline 1.24.0's bearerTokenAuthenticationPolicy refuses any http URL whatever
allowInsecureConnection says, so the clients get a pipeline whose policy of that name asks the same credential and
sets the same "Authorization: Bearer" header) create a resource group, an NSG (404 first), a rule and a VNet, list
the SKUs and images, create a VM
(beginCreateOrUpdateAndWait), get it with its instance view, list the group's VMs, read the public IP through the NIC
and delete the VM (beginDeleteAndWait): proof the fake accepts what the real SDK sends. That part FAILS when node or
the SDK is missing (tests/integration/sdk/setup.sh installs it).
"""

import base64
import http.client
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
from urllib.parse import urlencode, urlsplit

HERE = os.path.dirname(os.path.abspath(__file__))
FAKE = os.path.join(HERE, "fake_azure_vm.py")
SDK = os.path.normpath(os.path.join(HERE, "..", "sdk"))
TENANT = "11111111-1111-4111-8111-111111111111"
CLIENT = "22222222-2222-4222-8222-222222222222"
SECRET = "fake-client-secret"
SUB = "33333333-3333-4333-8333-333333333333"
REGION = "eastus"
RG = "gpuplanner-eastus"
COMPUTE = "2024-11-01"
NETWORK = "2024-05-01"
KEY = "ssh-ed25519 " + base64.b64encode(b"k" * 51).decode() + " test"
TOKEN = "gpuplan-0123456789abcdef01234567"


def rg_path(rg=RG):
    return "/subscriptions/%s/resourceGroups/%s" % (SUB, rg)


def net_path(kind, name, rg=RG):
    return rg_path(rg) + "/providers/Microsoft.Network/%s/%s" % (kind, name)


def vm_path(name, rg=RG):
    return rg_path(rg) + "/providers/Microsoft.Compute/virtualMachines/" + name


class FakeAzureVmTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        port_file = os.path.join(self.dir, "port")
        self.proc = subprocess.Popen([sys.executable, FAKE, "--port-file", port_file, "--retry-after", "0"])
        for _ in range(100):
            if os.path.exists(port_file):
                break
            time.sleep(0.05)
        with open(port_file) as f:
            self.port = int(f.read())
        self.access = self.token()[1]["access_token"]

    def tearDown(self):
        self.proc.kill()
        self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)

    # ---- helpers

    def raw(self, method, target, body=None, headers=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request(method, target, body=body, headers=headers or {})
            response = conn.getresponse()
            text = response.read()
        finally:
            conn.close()
        return response.status, (json.loads(text) if text else None), dict(response.getheaders())

    def token(self, tenant=TENANT, client=CLIENT, secret=SECRET, scope="https://management.azure.com/.default"):
        form = urlencode({"client_id": client, "client_secret": secret, "scope": scope,
                          "grant_type": "client_credentials"})
        status, body, _ = self.raw("POST", "/%s/oauth2/v2.0/token" % tenant, form,
                                   {"Content-Type": "application/x-www-form-urlencoded"})
        return status, body

    def call(self, method, path, body=None, api_version=COMPUTE, query=None, auth=True):
        params = dict(query or {})
        if api_version:
            params["api-version"] = api_version
        target = path + ("?" + urlencode(params) if params else "")
        headers = {"Content-Type": "application/json"}
        if auth:
            headers["Authorization"] = "Bearer " + (self.access if auth is True else auth)
        return self.raw(method, target, None if body is None else json.dumps(body), headers)

    def poll(self, url):
        """GETs an Azure-AsyncOperation URL until it ends; the statuses seen."""
        parts = urlsplit(url)
        self.assertEqual(parts.netloc, "127.0.0.1:%d" % self.port)
        seen = []
        for _ in range(10):
            status, body, _ = self.raw("GET", parts.path + "?" + parts.query,
                                       headers={"Authorization": "Bearer " + self.access})
            self.assertEqual(status, 200, body)
            seen.append(body["status"])
            if body["status"] != "InProgress":
                return seen, body
        self.fail("the operation never ended: %s" % seen)

    def control(self, method, path, body=None):
        status, out, _ = self.raw(method, path, None if body is None else json.dumps(body))
        self.assertEqual(status, 200, out)
        return out

    def faults(self, **faults):
        self.assertTrue(self.control("POST", "/_fake/faults", faults)["ok"])

    def state(self):
        return self.control("GET", "/_fake/state")

    def group(self, rg=RG, region=REGION):
        return self.call("PUT", "/subscriptions/%s/resourcegroups/%s" % (SUB, rg),
                         {"location": region, "tags": {"gpuplanner": "true"}}, api_version="2025-03-01")

    def network(self, rg=RG, region=REGION):
        """The group, the NSG (SSH from one address) and the VNet a launch needs; (nsg id, subnet id)."""
        self.assertIn(self.group(rg, region)[0], (200, 201))
        nsg = {"location": region, "tags": {"gpuplanner": "true"}, "properties": {"securityRules": [
            {"name": "ssh", "properties": {"protocol": "Tcp", "sourcePortRange": "*", "destinationPortRange": "22",
                                           "sourceAddressPrefix": "203.0.113.7/32", "destinationAddressPrefix": "*",
                                           "access": "Allow", "priority": 1000, "direction": "Inbound",
                                           "description": "SSH from GPU Planner"}}]}}
        status, created, headers = self.call("PUT", net_path("networkSecurityGroups", "gpuplanner-ssh-203-0-113-7-32",
                                                             rg), nsg, NETWORK)
        self.assertEqual(status, 201, created)
        vnet = {"location": region, "tags": {"gpuplanner": "true"}, "properties": {
            "addressSpace": {"addressPrefixes": ["10.42.0.0/16"]},
            "subnets": [{"name": "default", "properties": {"addressPrefix": "10.42.0.0/24"}}]}}
        status, made, _ = self.call("PUT", net_path("virtualNetworks", "gpuplanner-vnet", rg), vnet, NETWORK)
        self.assertEqual(status, 201, made)
        return created["id"], made["properties"]["subnets"][0]["id"]

    def vm_body(self, net, zone="1", token=TOKEN, spot=False, size="Standard_NC4as_T4_v3", user_data=None,
                ip_delete="Delete", region=REGION):
        nsg_id, subnet_id = net
        props = {"hardwareProfile": {"vmSize": size},
                 "storageProfile": {"imageReference": {"publisher": "microsoft-dsvm", "offer": "ubuntu-hpc",
                                                       "sku": "2204", "version": "latest"},
                                    "osDisk": {"createOption": "FromImage", "deleteOption": "Delete",
                                               "managedDisk": {"storageAccountType": "Premium_LRS"},
                                               "diskSizeGB": 200}},
                 "osProfile": {"computerName": token, "adminUsername": "ubuntu",
                               "linuxConfiguration": {"disablePasswordAuthentication": True, "ssh": {"publicKeys": [
                                   {"path": "/home/ubuntu/.ssh/authorized_keys", "keyData": KEY}]}},
                               "customData": base64.b64encode(user_data or b"#!/bin/sh\nGPUPLAN_DEADMAN_HOURS=12\n")
                               .decode()},
                 "networkProfile": {"networkApiVersion": "2020-11-01", "networkInterfaceConfigurations": [
                     {"name": token + "-nic", "properties": {
                         "primary": True, "deleteOption": "Delete", "networkSecurityGroup": {"id": nsg_id},
                         "ipConfigurations": [{"name": "ipconfig", "properties": {
                             "primary": True, "subnet": {"id": subnet_id},
                             "publicIPAddressConfiguration": {
                                 "name": token + "-ip", "sku": {"name": "Standard"},
                                 "properties": {"deleteOption": ip_delete,
                                                "publicIPAllocationMethod": "Static"}}}}]}}]}}
        if spot:
            props.update({"priority": "Spot", "evictionPolicy": "Delete", "billingProfile": {"maxPrice": -1}})
        body = {"location": region, "tags": {"gpuplanner-token": token}, "properties": props}
        if zone:
            body["zones"] = [zone]
        return body

    def get(self, name, expand=True):
        return self.call("GET", vm_path(name), query={"$expand": "instanceView"} if expand else None)

    @staticmethod
    def statuses(vm):
        return [s["code"] for s in vm["properties"]["instanceView"]["statuses"]]

    # ---- tests

    def test_token_endpoint(self):
        status, body = self.token()
        self.assertEqual(status, 200, body)
        self.assertEqual((body["token_type"], body["expires_in"], body["ext_expires_in"]), ("Bearer", 3599, 3599))
        status, body = self.token(secret="wrong")
        self.assertEqual((status, body["error"], body["error_codes"]), (401, "invalid_client", [7000215]))
        self.assertTrue(body["error_description"].startswith("AADSTS7000215: Invalid client secret provided."))
        status, body = self.token(client="44444444-4444-4444-8444-444444444444")
        self.assertEqual((status, body["error"], body["error_codes"]), (400, "unauthorized_client", [700016]))
        status, body = self.token(tenant="55555555-5555-4555-8555-555555555555")
        self.assertEqual((status, body["error"], body["error_codes"]), (400, "invalid_request", [90002]))
        status, body = self.token(scope="https://management.azure.com/")
        self.assertEqual((status, body["error_codes"]), (400, [1002012]))
        # The form's secret is not kept in the calls.
        calls = [c for c in self.state()["calls"] if c["action"] == "token"]
        self.assertEqual(len(calls), 6)
        self.assertNotIn(SECRET, json.dumps(calls))

    def test_arm_checks(self):
        status, body, headers = self.call("GET", "/subscriptions", api_version="2022-12-01", auth=False)
        self.assertEqual((status, body["error"]["code"]), (401, "AuthenticationFailed"))
        status, body, headers = self.call("GET", "/subscriptions", api_version="2022-12-01", auth="not-issued")
        self.assertEqual((status, body["error"]["code"]), (401, "InvalidAuthenticationToken"))
        self.assertIn("WWW-Authenticate", headers)
        status, body, _ = self.call("GET", "/subscriptions", api_version=None)
        self.assertEqual((status, body["error"]["code"]), (400, "MissingApiVersionParameter"))
        status, body, _ = self.call("GET", "/subscriptions", api_version="latest")
        self.assertEqual((status, body["error"]["code"]), (400, "InvalidApiVersionParameter"))
        status, body, _ = self.call("GET", "/subscriptions", api_version="2022-12-01")
        self.assertEqual(status, 200, body)
        self.assertEqual([(s["subscriptionId"], s["state"]) for s in body["value"]], [(SUB, "Enabled")])
        status, body, _ = self.call("GET", "/subscriptions/%s/resourcegroups/x" % ("9" * 8 + SUB[8:]),
                                    api_version="2025-03-01")
        self.assertEqual((status, body["error"]["code"]), (404, "SubscriptionNotFound"))
        status, body, _ = self.call("GET", rg_path("nope"), api_version="2025-03-01")
        self.assertEqual((status, body["error"]["code"]), (404, "ResourceGroupNotFound"))
        status, body, _ = self.call("GET", rg_path("nope") + "/providers/Microsoft.Compute/virtualMachines")
        self.assertEqual((status, body["error"]["code"]), (404, "ResourceGroupNotFound"))

    def test_a_launch_runs_and_ends(self):
        status, group, _ = self.group()
        self.assertEqual((status, group["location"], group["tags"]), (201, REGION, {"gpuplanner": "true"}))
        self.assertEqual(self.group()[0], 200)  # an upsert
        status, skus, _ = self.call("GET", "/subscriptions/%s/providers/Microsoft.Compute/skus" % SUB,
                                    api_version="2021-07-01", query={"$filter": "location eq 'eastus'"})
        self.assertEqual(status, 200, skus)
        t4 = next(s for s in skus["value"] if s["name"] == "Standard_NC4as_T4_v3")
        self.assertEqual((t4["resourceType"], t4["locations"], t4["locationInfo"][0]["zones"], t4["restrictions"]),
                         ("virtualMachines", [REGION], ["1", "2", "3"], []))
        status, images, _ = self.call("GET", "/subscriptions/%s/providers/Microsoft.Compute/locations/eastus/"
                                             "publishers/microsoft-dsvm/artifacttypes/vmimage/offers/ubuntu-hpc/skus/"
                                             "2204/versions" % SUB, query={"$top": "1", "$orderby": "name desc"})
        self.assertEqual((status, len(images)), (200, 1))
        status, none, _ = self.call("GET", "/subscriptions/%s/providers/Microsoft.Compute/locations/eastus/publishers/"
                                           "nobody/artifacttypes/vmimage/offers/x/skus/y/versions" % SUB)
        self.assertEqual((status, none), (200, []))

        # The NSG: 404, then PUT 201 Updating with its operation (InProgress once, then Succeeded).
        nsg_path = net_path("networkSecurityGroups", "gpuplanner-ssh-203-0-113-7-32")
        status, missing, _ = self.call("GET", nsg_path, api_version=NETWORK)
        self.assertEqual((status, missing["error"]["code"]), (404, "NotFound"))
        bare = {"location": REGION, "tags": {"gpuplanner": "true"}, "properties": {"securityRules": []}}
        status, nsg, headers = self.call("PUT", nsg_path, bare, NETWORK)
        self.assertEqual((status, nsg["properties"]["provisioningState"]), (201, "Updating"))
        self.assertEqual(len(nsg["properties"]["defaultSecurityRules"]), 6)
        self.assertEqual(self.poll(headers["Azure-AsyncOperation"])[0], ["InProgress", "Succeeded"])
        self.assertEqual(self.call("GET", nsg_path, api_version=NETWORK)[1]["properties"]["provisioningState"],
                         "Succeeded")
        # The rule, repaired into the group.
        rule = {"properties": {"protocol": "Tcp", "sourcePortRange": "*", "destinationPortRange": "22",
                               "sourceAddressPrefix": "203.0.113.7/32", "destinationAddressPrefix": "*",
                               "access": "Allow", "priority": 1000, "direction": "Inbound"}}
        status, made, headers = self.call("PUT", nsg_path + "/securityRules/ssh", rule, NETWORK)
        self.assertEqual((status, made["name"]), (201, "ssh"))
        self.assertEqual(self.poll(headers["Azure-AsyncOperation"])[0][-1], "Succeeded")
        other = json.loads(json.dumps(rule))
        status, conflict, _ = self.call("PUT", nsg_path + "/securityRules/ssh2", other, NETWORK)
        self.assertEqual((status, conflict["error"]["code"]), (400, "SecurityRuleConflict"))
        rules = self.call("GET", nsg_path, api_version=NETWORK)[1]["properties"]["securityRules"]
        self.assertEqual([(r["name"], r["properties"]["sourceAddressPrefix"]) for r in rules],
                         [("ssh", "203.0.113.7/32")])
        # The VNet: a subnet outside its space is refused.
        vnet_path = net_path("virtualNetworks", "gpuplanner-vnet")
        outside = {"location": REGION, "properties": {"addressSpace": {"addressPrefixes": ["10.42.0.0/16"]},
                                                      "subnets": [{"name": "default",
                                                                   "properties": {"addressPrefix": "10.43.0.0/24"}}]}}
        self.assertEqual(self.call("PUT", vnet_path, outside, NETWORK)[1]["error"]["code"],
                         "NetcfgSubnetRangeOutsideVnet")
        self.assertEqual(self.call("GET", vnet_path, api_version=NETWORK)[0], 404)
        outside["properties"]["subnets"][0]["properties"]["addressPrefix"] = "10.42.0.0/24"
        status, vnet, headers = self.call("PUT", vnet_path, outside, NETWORK)
        self.assertEqual(status, 201, vnet)
        self.poll(headers["Azure-AsyncOperation"])
        subnet_id = vnet["properties"]["subnets"][0]["id"]
        self.assertTrue(subnet_id.endswith("/virtualNetworks/gpuplanner-vnet/subnets/default"))
        self.assertEqual(self.call("GET", vnet_path + "/subnets/default", api_version=NETWORK)[0], 200)

        # The VM: 201 Creating with its operation; Creating/starting on the first GET, running on the second.
        body = self.vm_body((nsg["id"], subnet_id))
        status, vm, headers = self.call("PUT", vm_path(TOKEN), body)
        self.assertEqual(status, 201, vm)
        self.assertEqual((vm["properties"]["provisioningState"], vm["zones"]), ("Creating", ["1"]))
        self.assertIn("Azure-AsyncOperation", headers)
        self.assertEqual(headers["Retry-After"], "0")
        status, got, _ = self.get(TOKEN)
        self.assertEqual(status, 200, got)
        self.assertEqual((got["properties"]["provisioningState"], self.statuses(got)),
                         ("Creating", ["ProvisioningState/creating", "PowerState/starting"]))
        self.assertNotIn("customData", got["properties"]["osProfile"])
        # Its operation: InProgress once, then Succeeded, and the VM runs.
        self.assertEqual(self.poll(headers["Azure-AsyncOperation"])[0], ["InProgress", "Succeeded"])
        got = self.get(TOKEN)[1]
        self.assertEqual(self.statuses(got), ["ProvisioningState/succeeded", "PowerState/running"])
        # The public IP, read through the NIC the VM names.
        nic_id = got["properties"]["networkProfile"]["networkInterfaces"][0]["id"]
        self.assertTrue(nic_id.endswith("/networkInterfaces/%s-%s-nic" % (TOKEN, TOKEN)), nic_id)
        status, nic, _ = self.call("GET", nic_id, api_version=NETWORK)
        self.assertEqual(status, 200, nic)
        self.assertEqual(nic["properties"]["networkSecurityGroup"]["id"], nsg["id"])
        ip_id = nic["properties"]["ipConfigurations"][0]["properties"]["publicIPAddress"]["id"]
        status, ip, _ = self.call("GET", ip_id, api_version=NETWORK)
        self.assertEqual((status, ip["properties"]["ipAddress"], ip["name"]), (200, "127.0.0.1", TOKEN + "-" + TOKEN
                                                                               + "-ip"))
        # The list; the upsert (200, nothing new); a changed size or image refused.
        status, listed, _ = self.call("GET", rg_path() + "/providers/Microsoft.Compute/virtualMachines")
        self.assertEqual([v["name"] for v in listed["value"]], [TOKEN])
        self.assertNotIn("nextLink", listed)
        status, again, headers = self.call("PUT", vm_path(TOKEN), body)
        self.assertEqual((status, again["properties"]["provisioningState"]), (200, "Succeeded"))
        self.assertNotIn("Azure-AsyncOperation", headers)
        changed = self.vm_body((nsg["id"], subnet_id), size="Standard_NC24ads_A100_v4")
        status, refused, _ = self.call("PUT", vm_path(TOKEN), changed)
        self.assertEqual((status, refused["error"]["code"]), (409, "PropertyChangeNotAllowed"))
        changed = self.vm_body((nsg["id"], subnet_id))
        changed["properties"]["storageProfile"]["imageReference"] = {"publisher": "canonical",
                                                                     "offer": "ubuntu-24_04-lts", "sku": "server",
                                                                     "version": "latest"}
        self.assertEqual(self.call("PUT", vm_path(TOKEN), changed)[1]["error"]["code"], "PropertyChangeNotAllowed")
        instance = self.state()["instances"][0]
        self.assertEqual((instance["id"], instance["client_token"], instance["state"], instance["instance_type"],
                          instance["region"], instance["zone"], instance["pricing"], instance["image"]),
                         (TOKEN, TOKEN, "Running", "Standard_NC4as_T4_v3", REGION, "1", "on_demand",
                          "microsoft-dsvm:ubuntu-hpc:2204:latest"))
        self.assertEqual((instance["tags"], instance["ssh_keys"], instance["resource_group"]),
                         ({"gpuplanner-token": TOKEN}, [KEY], RG))
        self.assertIn("GPUPLAN_DEADMAN_HOURS", instance["user_data"])

        # Delete: 202 with both headers; Deleting once, then 404; the NIC and IP go with it; again: 204.
        status, none, headers = self.call("DELETE", vm_path(TOKEN))
        self.assertEqual((status, none), (202, None))
        self.assertIn("Azure-AsyncOperation", headers)
        self.assertIn("Location", headers)
        self.assertEqual(self.state()["instances"][0]["state"], "Terminating")
        status, busy, _ = self.call("PUT", vm_path(TOKEN), body)
        self.assertEqual((status, busy["error"]["code"]), (409, "OperationNotAllowed"))
        self.assertEqual(self.get(TOKEN)[1]["properties"]["provisioningState"], "Deleting")
        status, gone, _ = self.get(TOKEN)
        self.assertEqual((status, gone["error"]["code"]), (404, "ResourceNotFound"))
        self.assertEqual(self.state()["instances"][0]["state"], "Terminated")
        self.assertEqual(self.call("GET", rg_path() + "/providers/Microsoft.Compute/virtualMachines")[1]["value"], [])
        self.assertEqual((self.state()["nics"], self.state()["public_ips"]), ([], []))
        self.assertEqual(self.call("DELETE", vm_path(TOKEN))[0], 204)
        actions = {c["action"] for c in self.state()["calls"]}
        for action in ("token", "resourceGroups.createOrUpdate", "resourceSkus.list", "virtualMachineImages.list",
                       "networkSecurityGroups.get", "networkSecurityGroups.createOrUpdate",
                       "securityRules.createOrUpdate", "virtualNetworks.createOrUpdate", "virtualNetworks.get",
                       "virtualMachines.createOrUpdate", "virtualMachines.get", "virtualMachines.list",
                       "virtualMachines.delete", "asyncOperation", "networkInterfaces.get", "publicIPAddresses.get"):
            self.assertIn(action, actions)

    def test_a_deleted_vm_reads_gone_after_its_delete_operation_and_detach_leaves_the_ip(self):
        net = self.network()
        token = "gpuplan-detach000000000000000000"
        status, _, _ = self.call("PUT", vm_path(token), self.vm_body(net, token=token, ip_delete="Detach"))
        self.assertEqual(status, 201)
        status, _, headers = self.call("DELETE", vm_path(token))
        self.assertEqual(status, 202)
        # The Location URL: 202 while it runs, then 200.
        location = urlsplit(headers["Location"])
        self.assertEqual(self.raw("GET", location.path + "?" + location.query,
                                  headers={"Authorization": "Bearer " + self.access})[0], 202)
        self.assertEqual(self.poll(headers["Azure-AsyncOperation"])[0], ["Succeeded"])
        self.assertEqual(self.get(token)[0], 404)
        state = self.state()
        self.assertEqual(state["nics"], [])
        self.assertEqual([(p["name"], p["vm"]) for p in state["public_ips"]], [(token + "-" + token + "-ip", "")])

    def test_validation(self):
        net = self.network()
        cases = [
            (lambda b: b.update(zones=["4"]), 400, "InvalidParameter"),
            (lambda b: b["properties"]["hardwareProfile"].update(vmSize="Standard_Z1"), 400, "InvalidParameter"),
            (lambda b: b.pop("location"), 400, "LocationRequired"),
            (lambda b: b.update(location="westus2"), 400, "InvalidResourceReference"),
            (lambda b: b["properties"]["osProfile"].update(adminUsername="admin"), 400, "InvalidParameter"),
            (lambda b: b["properties"]["osProfile"].update(
                customData=base64.b64encode(b"x" * 65536).decode()), 400, "InvalidParameter"),
            (lambda b: b["properties"]["osProfile"].update(customData="not base64!"), 400, "InvalidParameter"),
            (lambda b: b["properties"]["storageProfile"]["imageReference"].update(sku="1804"), 404,
             "PlatformImageNotFound"),
            (lambda b: b["properties"].update(evictionPolicy="Delete"), 400,
             "EvictionPolicyCanBeSetOnlyOnAzureSpotVirtualMachines"),
            (lambda b: b["properties"].update(billingProfile={"maxPrice": 1.5}), 400,
             "MaxPriceIsSupportedOnlyForAzureSpotVirtualMachines"),
            (lambda b: b["properties"].update(priority="Spot", billingProfile={"maxPrice": 0.123456}), 400,
             "MaxPriceValueInvalid"),
            (lambda b: b["properties"].update(priority="Spot", billingProfile={"maxPrice": 0}), 400,
             "MaxPriceValueInvalid"),
            (lambda b: b["properties"]["networkProfile"]["networkInterfaceConfigurations"][0]["properties"].update(
                networkSecurityGroup={"id": net[0] + "x"}), 400, "InvalidResourceReference"),
            (lambda b: b["properties"]["osProfile"]["linuxConfiguration"]["ssh"]["publicKeys"][0].update(
                path="/root/.ssh/authorized_keys"), 400, "InvalidParameter"),
        ]
        for i, (change, status, code) in enumerate(cases):
            body = self.vm_body(net, token="gpuplan-bad%d" % i)
            change(body)
            got, answer, _ = self.call("PUT", vm_path("gpuplan-bad%d" % i), body)
            self.assertEqual((got, answer["error"]["code"]), (status, code), (i, answer))
        self.assertEqual(self.state()["instances"], [])
        # 65535 bytes decoded pass; Spot with a 5-decimal price and without evictionPolicy (Deallocate, the default).
        body = self.vm_body(net, token="gpuplan-edge", user_data=b"y" * 65535)
        body["properties"].update(priority="Spot", billingProfile={"maxPrice": 0.12345})
        status, made, _ = self.call("PUT", vm_path("gpuplan-edge"), body)
        self.assertEqual(status, 201, made)
        spot = self.call("PUT", vm_path("gpuplan-spot"), self.vm_body(net, token="gpuplan-spot", spot=True, zone=""))
        self.assertEqual(spot[0], 201, spot[1])
        self.assertNotIn("zones", spot[1])
        by_id = {i["id"]: i for i in self.state()["instances"]}
        self.assertEqual((by_id["gpuplan-edge"]["pricing"], by_id["gpuplan-edge"]["eviction_policy"],
                          by_id["gpuplan-edge"]["max_price"]), ("spot", "Deallocate", 0.12345))
        self.assertEqual((by_id["gpuplan-spot"]["eviction_policy"], by_id["gpuplan-spot"]["max_price"],
                          by_id["gpuplan-spot"]["zone"]), ("Delete", -1, ""))
        # A VM in a group that does not exist.
        status, body, _ = self.call("PUT", vm_path("x", rg="gpuplanner-westus2"), self.vm_body(net))
        self.assertEqual((status, body["error"]["code"]), (404, "ResourceGroupNotFound"))

    def test_capacity(self):
        net = self.network()
        sku_path = "/subscriptions/%s/providers/Microsoft.Compute/skus" % SUB
        self.faults(no_capacity_zones=["1"], restricted_sizes=["Standard_ND96asr_v4"])
        skus = self.call("GET", sku_path, api_version="2021-07-01", query={"$filter": "location eq 'eastus'"})[1]
        by_name = {s["name"]: s for s in skus["value"]}
        self.assertEqual([(r["type"], r["restrictionInfo"].get("zones"), r["reasonCode"])
                          for r in by_name["Standard_NC4as_T4_v3"]["restrictions"]],
                         [("Zone", ["1"], "NotAvailableForSubscription")])
        self.assertIn("Location", [r["type"] for r in by_name["Standard_ND96asr_v4"]["restrictions"]])
        self.faults(stale_zone_listing=True, restricted_sizes=[])
        skus = self.call("GET", sku_path, api_version="2021-07-01", query={"$filter": "location eq 'eastus'"})[1]
        self.assertTrue(all(s["restrictions"] == [] for s in skus["value"]))
        # Sold out: accepted, then Failed with ZonalAllocationFailed; the VM is left Failed until deleted.
        status, vm, headers = self.call("PUT", vm_path(TOKEN), self.vm_body(net))
        self.assertEqual((status, vm["properties"]["provisioningState"]), (201, "Creating"))
        seen, result = self.poll(headers["Azure-AsyncOperation"])
        self.assertEqual(seen, ["InProgress", "Failed"])
        self.assertEqual(result["error"]["code"], "ZonalAllocationFailed")
        self.assertIn("We do not have sufficient capacity for the requested VM size in this zone",
                      result["error"]["message"])
        failed = self.get(TOKEN)[1]
        self.assertEqual(failed["properties"]["provisioningState"], "Failed")
        self.assertEqual(self.statuses(failed), ["ProvisioningState/failed/ZonalAllocationFailed"])
        self.assertEqual(self.state()["instances"][0]["state"], "Failed")
        # Another zone with the same name: a property change; deleted first, it is a new VM.
        status, refused, _ = self.call("PUT", vm_path(TOKEN), self.vm_body(net, zone="2"))
        self.assertEqual((status, refused["error"]["code"]), (409, "PropertyChangeNotAllowed"))
        self.assertEqual(self.call("DELETE", vm_path(TOKEN))[0], 202)
        self.assertEqual(self.get(TOKEN)[1]["properties"]["provisioningState"], "Deleting")
        status, vm, _ = self.call("PUT", vm_path(TOKEN), self.vm_body(net, zone="2"))
        self.assertEqual(status, 201, vm)
        live = [i for i in self.state()["instances"] if i["state"] not in ("Terminated", "Terminating")]
        self.assertEqual([(i["id"], i["zone"]) for i in live], [(TOKEN, "2")])
        # Without zones: AllocationFailed.
        self.faults(no_capacity_zones=[""])
        status, _, headers = self.call("PUT", vm_path("gpuplan-nozone"), self.vm_body(net, token="gpuplan-nozone",
                                                                                       zone=""))
        self.assertEqual(self.poll(headers["Azure-AsyncOperation"])[1]["error"]["code"], "AllocationFailed")

    def test_account_faults(self):
        net = self.network()
        self.faults(quota_exceeded=True)
        status, body, _ = self.call("PUT", vm_path(TOKEN), self.vm_body(net))
        self.assertEqual((status, body["error"]["code"]), (409, "OperationNotAllowed"))
        self.assertIn("exceeding approved standardNCASv3_T4Family Cores quota", body["error"]["message"])
        self.assertIn("Location: eastus", body["error"]["message"])
        status, body, _ = self.call("PUT", vm_path(TOKEN), self.vm_body(net, spot=True))
        self.assertIn("Low Priority Cores", body["error"]["message"])
        self.faults(quota_exceeded=False, unauthorized=["virtualMachines.createOrUpdate"])
        status, body, _ = self.call("PUT", vm_path(TOKEN), self.vm_body(net))
        self.assertEqual((status, body["error"]["code"]), (403, "AuthorizationFailed"))
        self.assertIn("'Microsoft.Compute/virtualMachines/write'", body["error"]["message"])
        self.assertIn(CLIENT, body["error"]["message"])
        self.assertEqual(self.state()["instances"], [])
        self.faults(unauthorized=[], unregistered=["Microsoft.Compute"])
        status, body, _ = self.call("PUT", vm_path(TOKEN), self.vm_body(net))
        self.assertEqual((status, body["error"]["code"]), (409, "MissingSubscriptionRegistration"))
        self.assertIn("namespace 'Microsoft.Compute'", body["error"]["message"])
        status, body, _ = self.call("POST", "/subscriptions/%s/providers/Microsoft.Compute/register" % SUB,
                                    api_version="2025-03-01")
        self.assertEqual((status, body["registrationState"]), (200, "Registered"))
        self.faults(throttle=2)
        for _ in range(2):
            status, body, headers = self.call("GET", rg_path() + "/providers/Microsoft.Compute/virtualMachines")
            self.assertEqual((status, body["error"]["code"], headers["Retry-After"]), (429, "TooManyRequests", "1"))
        self.assertEqual(self.call("PUT", vm_path(TOKEN), self.vm_body(net))[0], 201)

    def test_reply_faults(self):
        net = self.network()
        # drop_after_accept: created, no answer; the same PUT again is an upsert of the same VM.
        self.faults(drop_after_accept=1)
        with self.assertRaises((http.client.RemoteDisconnected, ConnectionError)):
            self.call("PUT", vm_path(TOKEN), self.vm_body(net))
        self.assertEqual(len(self.state()["instances"]), 1)
        self.assertEqual(self.call("PUT", vm_path(TOKEN), self.vm_body(net))[0], 200)
        # internal_error_after_create, and invisible for a while: GET 404, left out of the list, DELETE 204.
        token = "gpuplan-internal0000000000000000"
        self.faults(internal_error_after_create=1, invisible_s=1.5)
        status, body, _ = self.call("PUT", vm_path(token), self.vm_body(net, token=token))
        self.assertEqual((status, body["error"]["code"]), (500, "InternalServerError"))
        self.assertIn(token, [i["id"] for i in self.state()["instances"]])
        self.assertEqual(self.get(token)[0], 404)
        listed = self.call("GET", rg_path() + "/providers/Microsoft.Compute/virtualMachines")[1]["value"]
        self.assertNotIn(token, [v["name"] for v in listed])
        self.assertEqual(self.call("DELETE", vm_path(token))[0], 204)
        time.sleep(1.6)
        self.assertEqual(self.get(token)[0], 200)
        self.faults(invisible_s=0)
        # hold_run_reply_s: the answer comes S s later, once.
        started = time.time()
        self.faults(hold_run_reply_s=1)
        token = "gpuplan-hold000000000000000000000"
        self.assertEqual(self.call("PUT", vm_path(token), self.vm_body(net, token=token))[0], 201)
        self.assertGreaterEqual(time.time() - started, 1)
        # running_after and terminate_slow_s.
        self.faults(running_after=1, terminate_slow_s=1.5)
        token = "gpuplan-slow000000000000000000000"
        self.call("PUT", vm_path(token), self.vm_body(net, token=token))
        self.assertEqual(self.statuses(self.get(token)[1]), ["ProvisioningState/creating", "PowerState/starting"])
        self.assertEqual(self.statuses(self.get(token)[1])[-1], "PowerState/running")
        status, _, headers = self.call("DELETE", vm_path(token))
        self.assertEqual(self.get(token)[1]["properties"]["provisioningState"], "Deleting")
        self.assertEqual(self.get(token)[1]["properties"]["provisioningState"], "Deleting")
        operation = urlsplit(headers["Azure-AsyncOperation"])
        for _ in range(3):
            status, running, _ = self.raw("GET", operation.path + "?" + operation.query,
                                          headers={"Authorization": "Bearer " + self.access})
            self.assertEqual((status, running["status"]), (200, "InProgress"))
        time.sleep(1.6)
        self.assertEqual(self.get(token)[1]["properties"]["provisioningState"], "Deleting")
        self.assertEqual(self.get(token)[0], 404)
        # The list over pages.
        self.faults(page_size=1)
        status, page, _ = self.call("GET", rg_path() + "/providers/Microsoft.Compute/virtualMachines")
        self.assertEqual(len(page["value"]), 1)
        names = [page["value"][0]["name"]]
        while "nextLink" in page:
            link = urlsplit(page["nextLink"])
            status, page, _ = self.raw("GET", link.path + "?" + link.query,
                                       headers={"Authorization": "Bearer " + self.access})
            self.assertEqual(status, 200, page)
            names += [v["name"] for v in page["value"]]
        self.assertEqual(sorted(names), sorted([TOKEN, "gpuplan-internal0000000000000000",
                                                "gpuplan-hold000000000000000000000"]))

    def test_control_endpoints(self):
        made = self.control("POST", "/_fake/security_groups", {"region": REGION, "name": "bare"})
        status, nsg, _ = self.call("GET", net_path("networkSecurityGroups", "bare"), api_version=NETWORK)
        self.assertEqual((status, nsg["id"], nsg["properties"]["securityRules"]), (200, made["id"], []))
        self.control("POST", "/_fake/subscriptions", {"subscriptions": [
            {"subscriptionId": SUB, "displayName": "one", "state": "Enabled"},
            {"subscriptionId": "66666666-6666-4666-8666-666666666666", "displayName": "two", "state": "Disabled"}]})
        subs = self.call("GET", "/subscriptions", api_version="2022-12-01")[1]["value"]
        self.assertEqual([(s["displayName"], s["state"]) for s in subs], [("one", "Enabled"), ("two", "Disabled")])
        state = self.state()
        for key in ("instances", "calls", "network_security_groups", "security_groups", "virtual_networks",
                    "public_ips", "nics", "resource_groups", "subscriptions"):
            self.assertIn(key, state)
        self.assertEqual([g["name"] for g in state["resource_groups"]], [RG])

    def test_the_official_sdks_are_accepted(self):
        node = shutil.which("node")
        # Fails (not skipped) without node or the SDKs: tests/integration/sdk/setup.sh installs them, as test.sh does.
        self.assertTrue(node and all(os.path.isdir(os.path.join(SDK, "node_modules", "@azure", p))
                                     for p in ("arm-compute", "arm-network", "arm-resources")),
                        "node or tests/integration/sdk/node_modules/@azure/arm-* is not installed: run "
                        "tests/integration/sdk/setup.sh")
        script = r"""
const http = require('http');
// Node 18 (Debian 12's) has Web Crypto only as require('crypto').webcrypto; the SDK calls the global one.
if (!globalThis.crypto) {
    globalThis.crypto = require('crypto').webcrypto;
}
const {ComputeManagementClient} = require('@azure/arm-compute');
const {NetworkManagementClient} = require('@azure/arm-network');
const {ResourceManagementClient} = require('@azure/arm-resources');
const {createClientPipeline} = require('@azure/core-client');
const {bearerTokenAuthenticationPolicyName} = require('@azure/core-rest-pipeline');
const [port, tenant, clientId, secret, sub, key] = process.argv.slice(1);
const base = 'http://127.0.0.1:' + port;

function fetchToken() {
    // The client-credentials grant against the fake's token endpoint (what @azure/identity would send).
    const form = new URLSearchParams({client_id: clientId, client_secret: secret, grant_type: 'client_credentials',
                                      scope: 'https://management.azure.com/.default'}).toString();
    return new Promise((resolve, reject) => {
        const req = http.request(base + '/' + tenant + '/oauth2/v2.0/token', {method: 'POST', headers: {
            'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': Buffer.byteLength(form)}}, (res) => {
            let data = '';
            res.on('data', (c) => { data += c; });
            res.on('end', () => resolve({status: res.statusCode, body: JSON.parse(data)}));
        });
        req.on('error', reject);
        req.end(form);
    });
}

(async () => {
    const out = {};
    const token = await fetchToken();
    out.token = token.status;
    // A TokenCredential: getToken(scopes) -> {token, expiresOnTimestamp}.
    const credential = {getToken: async () => ({token: token.body.access_token,
                                                 expiresOnTimestamp: Date.now() + 3000 * 1000})};
    // The SDKs build URLs from $host; Node's HTTP client refuses http unless allowInsecureConnection is set. The
    // bearer policy of @azure/core-rest-pipeline 1.24.0 refuses any non-https URL whatever that option says, so the
    // pipeline gets a policy of the same name (the clients then keep it instead of adding theirs) that asks the same
    // TokenCredential and sets the same "Authorization: Bearer <token>" header.
    const pipeline = createClientPipeline({});
    pipeline.addPolicy({name: bearerTokenAuthenticationPolicyName, sendRequest: async (request, next) => {
        const access = await credential.getToken(['https://management.azure.com/.default']);
        request.headers.set('Authorization', 'Bearer ' + access.token);
        return next(request);
    }}, {phase: 'Sign'});
    const options = {endpoint: base, $host: base, allowInsecureConnection: true, pipeline,
                     credentialScopes: ['https://management.azure.com/.default']};
    const compute = new ComputeManagementClient(credential, sub, options);
    const network = new NetworkManagementClient(credential, sub, options);
    const resources = new ResourceManagementClient(credential, sub, options);
    const rg = 'gpuplanner-eastus', nsgName = 'gpuplanner-ssh-203-0-113-7-32';
    const name = 'gpuplan-sdk0000000000000000000000';
    const fast = {updateIntervalInMs: 10};
    const group = await resources.resourceGroups.createOrUpdate(rg, {location: 'eastus', tags: {gpuplanner: 'true'}});
    out.group = group.name;
    try {
        await network.networkSecurityGroups.get(rg, nsgName);
        out.nsgBefore = 200;
    } catch (e) {
        out.nsgBefore = e.statusCode;
    }
    const nsg = await network.networkSecurityGroups.beginCreateOrUpdateAndWait(rg, nsgName, {
        location: 'eastus', tags: {gpuplanner: 'true'},
        securityRules: [{name: 'ssh', protocol: 'Tcp', sourcePortRange: '*', destinationPortRange: '22',
                         sourceAddressPrefix: '203.0.113.7/32', destinationAddressPrefix: '*', access: 'Allow',
                         priority: 1000, direction: 'Inbound', description: 'SSH from GPU Planner'}]}, fast);
    out.nsg = nsg.provisioningState;
    const rule = await network.securityRules.beginCreateOrUpdateAndWait(rg, nsgName, 'ssh', {
        protocol: 'Tcp', sourcePortRange: '*', destinationPortRange: '22', sourceAddressPrefix: '203.0.113.7/32',
        destinationAddressPrefix: '*', access: 'Allow', priority: 1000, direction: 'Inbound'}, fast);
    out.rule = rule.provisioningState;
    const vnet = await network.virtualNetworks.beginCreateOrUpdateAndWait(rg, 'gpuplanner-vnet', {
        location: 'eastus', tags: {gpuplanner: 'true'}, addressSpace: {addressPrefixes: ['10.42.0.0/16']},
        subnets: [{name: 'default', addressPrefix: '10.42.0.0/24'}]}, fast);
    out.vnet = vnet.provisioningState;
    const skus = [];
    for await (const s of compute.resourceSkus.list({filter: "location eq 'eastus'"})) {
        skus.push(s.name + ':' + s.locationInfo[0].zones.join(','));
    }
    out.skus = skus;
    const images = await compute.virtualMachineImages.list('eastus', 'microsoft-dsvm', 'ubuntu-hpc', '2204',
                                                           {top: 1, orderby: 'name desc'});
    out.images = images.map((i) => i.name);
    const created = await compute.virtualMachines.beginCreateOrUpdateAndWait(rg, name, {
        location: 'eastus', zones: ['2'], tags: {'gpuplanner-token': name},
        hardwareProfile: {vmSize: 'Standard_NC4as_T4_v3'},
        storageProfile: {imageReference: {publisher: 'microsoft-dsvm', offer: 'ubuntu-hpc', sku: '2204',
                                          version: 'latest'},
                         osDisk: {createOption: 'FromImage', deleteOption: 'Delete',
                                  managedDisk: {storageAccountType: 'Premium_LRS'}, diskSizeGB: 200}},
        osProfile: {computerName: name, adminUsername: 'ubuntu',
                    customData: Buffer.from('#!/bin/sh\nGPUPLAN_DEADMAN_HOURS=12\n').toString('base64'),
                    linuxConfiguration: {disablePasswordAuthentication: true, ssh: {publicKeys: [
                        {path: '/home/ubuntu/.ssh/authorized_keys', keyData: key}]}}},
        networkProfile: {networkApiVersion: '2020-11-01', networkInterfaceConfigurations: [{
            name: name + '-nic', primary: true, deleteOption: 'Delete', networkSecurityGroup: {id: nsg.id},
            ipConfigurations: [{name: 'ipconfig', primary: true, subnet: {id: vnet.subnets[0].id},
                                publicIPAddressConfiguration: {name: name + '-ip', sku: {name: 'Standard'},
                                                               deleteOption: 'Delete',
                                                               publicIPAllocationMethod: 'Static'}}]}]},
        priority: 'Spot', evictionPolicy: 'Delete', billingProfile: {maxPrice: -1}}, fast);
    out.created = created.provisioningState;
    const got = await compute.virtualMachines.get(rg, name, {expand: 'instanceView'});
    out.statuses = got.instanceView.statuses.map((s) => s.code);
    out.zones = got.zones;
    const listed = [];
    for await (const vm of compute.virtualMachines.list(rg)) {
        listed.push(vm.name);
    }
    out.listed = listed;
    const nicName = got.networkProfile.networkInterfaces[0].id.split('/').pop();
    const nic = await network.networkInterfaces.get(rg, nicName);
    const ipName = nic.ipConfigurations[0].publicIPAddress.id.split('/').pop();
    const ip = await network.publicIPAddresses.get(rg, ipName);
    out.ip = ip.ipAddress;
    await compute.virtualMachines.beginDeleteAndWait(rg, name, fast);
    try {
        await compute.virtualMachines.get(rg, name);
        out.after = 200;
    } catch (e) {
        out.after = e.statusCode;
    }
    console.log(JSON.stringify(out));
})().catch((e) => { console.log(JSON.stringify({failed: String(e.message || e), status: e.statusCode,
                                                code: e.code})); });
"""
        env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
        env["NODE_PATH"] = os.path.join(SDK, "node_modules")
        done = subprocess.run([node, "-e", script, str(self.port), TENANT, CLIENT, SECRET, SUB, KEY], cwd=SDK, env=env,
                              capture_output=True, text=True, timeout=120)
        self.assertEqual(done.returncode, 0, done.stderr)
        out = json.loads(done.stdout.strip().splitlines()[-1])
        self.assertNotIn("failed", out, out)
        self.assertEqual((out["token"], out["group"], out["nsgBefore"], out["nsg"], out["rule"], out["vnet"]),
                         (200, RG, 404, "Succeeded", "Succeeded", "Succeeded"), out)
        self.assertIn("Standard_NC4as_T4_v3:1,2,3", out["skus"])
        self.assertEqual(len(out["images"]), 1)
        self.assertEqual((out["created"], out["zones"], out["listed"], out["ip"], out["after"]),
                         ("Succeeded", ["2"], ["gpuplan-sdk0000000000000000000000"], "127.0.0.1", 404), out)
        self.assertEqual(out["statuses"], ["ProvisioningState/succeeded", "PowerState/running"])
        # What the SDK sent, as the fake understood it.
        state = self.state()
        calls = state["calls"]
        put = next(c for c in calls if c["action"] == "virtualMachines.createOrUpdate")
        self.assertEqual(put["params"], {"api-version": "2024-11-01"})
        self.assertEqual(put["body"]["properties"]["priority"], "Spot")
        self.assertEqual(put["body"]["properties"]["networkProfile"]["networkInterfaceConfigurations"][0]
                         ["properties"]["ipConfigurations"][0]["properties"]["publicIPAddressConfiguration"]
                         ["properties"]["deleteOption"], "Delete")
        versions = {c["action"]: c["params"].get("api-version") for c in calls if c["action"] != "token"}
        self.assertEqual((versions["resourceGroups.createOrUpdate"], versions["networkSecurityGroups.createOrUpdate"],
                          versions["resourceSkus.list"], versions["virtualMachineImages.list"]),
                         ("2025-03-01", "2024-05-01", "2021-07-01", "2024-11-01"))
        instance = state["instances"][0]
        self.assertEqual((instance["pricing"], instance["eviction_policy"], instance["max_price"], instance["state"]),
                         ("spot", "Delete", -1, "Terminated"))
        self.assertIn("GPUPLAN_DEADMAN_HOURS", instance["user_data"])
        self.assertEqual((state["nics"], state["public_ips"]), ([], []))


if __name__ == "__main__":
    unittest.main()
