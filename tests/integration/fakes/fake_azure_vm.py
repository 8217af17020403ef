#!/usr/bin/env python3
"""A FAKE of Azure Resource Manager (Microsoft.Compute VMs, Microsoft.Network, resource groups) and of the Microsoft
Entra token endpoint, for GPU Planner's flow tests.

It is not Azure: it answers the REST calls AzureProvider makes, on one loopback port for the token endpoint and every
ARM path, in the documented JSON shapes, and it produces on demand the faults a real cloud will not (throttling,
sold-out zones, dropped connections, slow replies, quota and permission errors, eventual consistency).

    python3 fake_azure_vm.py --port-file FILE [--tenant-id T --client-id C --client-secret S] [--subscription-id SUB]
                             [--running-after N] [--zones-REGION 1,2,3] [--retry-after S]

--access-key-id and --secret-key are accepted as other names of --client-id and --client-secret (FakeCloud.h starts
every fake with them). Binds 127.0.0.1 on a free port, writes the port to FILE (FILE.tmp, then renamed), serves until
killed (ThreadingHTTPServer, HTTP/1.1).

Where the shapes come from
- Paths, methods, api-versions, JSON names: the official SDKs in tests/integration/sdk/node_modules/@azure
  (arm-compute 22.4.0: virtualMachines 2024-11-01, resourceSkus 2021-07-01, virtualMachineImages 2024-11-01;
  arm-network 33.5.0: 2024-05-01; arm-resources 6.1.0: resourceGroups 2025-03-01), their dist/commonjs/operations/*.js
  and models/mappers.js, and the REST specs (azure-rest-api-specs, Microsoft.Compute 2024-11-01 virtualMachine.json
  and its examples, e.g. VirtualMachine_Create_WithNetworkInterfaceConfiguration.json).
- Token endpoint: https://learn.microsoft.com/entra/identity-platform/v2-oauth2-client-creds-grant-flow (request form,
  answer, error body {"error", "error_description", "error_codes", "timestamp", "trace_id", "correlation_id",
  "error_uri"}); the AADSTS codes from https://learn.microsoft.com/entra/identity-platform/reference-error-codes
  (AADSTS7000215 invalid client secret, AADSTS700016 application not found, AADSTS90002 tenant not found,
  AADSTS1002012 scope without /.default, AADSTS70003 unsupported grant type).
- Long-running operations: https://learn.microsoft.com/azure/azure-resource-manager/management/async-operations
  (201/202 with Azure-AsyncOperation, Location and Retry-After; the status body {"status": "InProgress" | "Succeeded" |
  "Failed" | "Canceled", "error": {code, message}}).
- Errors: {"error": {"code", "message", "details"?, "target"?}}. MissingApiVersionParameter, InvalidAuthenticationToken,
  AuthenticationFailed, ResourceGroupNotFound, ResourceNotFound, AuthorizationFailed, MissingSubscriptionRegistration,
  LocationRequired: https://learn.microsoft.com/azure/azure-resource-manager/troubleshooting/common-deployment-errors;
  the Spot codes (EvictionPolicyCanBeSetOnlyOnAzureSpotVirtualMachines, MaxPriceValueInvalid,
  MaxPriceIsSupportedOnlyForAzureSpotVirtualMachines) and their texts:
  https://learn.microsoft.com/azure/virtual-machines/error-codes-spot; allocation failures (AllocationFailed,
  ZonalAllocationFailed, "Allocation failed. We do not have sufficient capacity for the requested VM size in this
  region/zone. ..."): https://learn.microsoft.com/troubleshoot/azure/virtual-machines/windows/allocation-failure;
  the family-cores quota message (OperationNotAllowed "Operation could not be completed as it results in exceeding
  approved standardNCASv3_T4Family Cores quota. Additional details - ..."): as quoted in
  /work/shared/reference/provider_launch_apis.md 4.5; the 429 body's text is plausible (ARM documents 429 with
  Retry-After, https://learn.microsoft.com/azure/azure-resource-manager/management/request-limits-and-throttling).

Behaviour
- One subscription (enabled) unless POST /_fake/subscriptions replaces the list; GET /subscriptions lists them. A path
  naming another subscription answers 404 SubscriptionNotFound.
- Every ARM call needs "Authorization: Bearer <a token this fake issued>" (none: 401 AuthenticationFailed; another:
  401 InvalidAuthenticationToken, with a WWW-Authenticate header) and an api-version query parameter (missing: 400
  MissingApiVersionParameter; not a yyyy-mm-dd[-preview] date: 400 InvalidApiVersionParameter). Paths match without
  regard to case (ARM's are case-insensitive, the SDK sends "resourcegroups" for groups and "resourceGroups" below).
- Resource groups: PUT upserts (201 new, 200 existing), GET 404 ResourceGroupNotFound. A resource in a missing group
  answers 404 ResourceGroupNotFound. A resource's location may differ from its group's (ARM allows it: "a resource
  group can contain resources that are located in different regions"), but a VM's NIC must reference an NSG and a
  subnet in the VM's location (400 InvalidResourceReference otherwise).
- NSGs, security rules and VNets: PUT answers 201 (200 when it existed) with provisioningState "Updating" and an
  Azure-AsyncOperation header; that operation answers {"status": "InProgress"} once, then {"status": "Succeeded"};
  a GET shows "Succeeded". An NSG carries the six default security rules. GET of a missing one: 404 NotFound
  ("Resource ... not found", Microsoft.Network's code).
- Resource SKUs (GET .../providers/Microsoft.Compute/skus?$filter=location eq 'R'): virtualMachines SKUs for a fixed
  GPU catalog (SIZES below), locationInfo zones "1","2","3" (or --zones-REGION). A zone in no_capacity_zones is shown
  with a Zone restriction (reasonCode NotAvailableForSubscription) unless stale_zone_listing; a size in the fault
  restricted_sizes has a Location restriction.
- Images (VirtualMachineImages.list / get): microsoft-dsvm / ubuntu-hpc / 2204 with one version (and Canonical's
  ubuntu-24_04-lts / server); other offers list nothing ([]).
- VMs. PUT validates (location, hardwareProfile.vmSize in the catalog, zones among the region's, the image, osProfile:
  adminUsername not reserved, customData base64 <= 65535 bytes decoded, linuxConfiguration ssh keys; priority Spot /
  evictionPolicy / billingProfile.maxPrice -1 or > 0 with at most 5 decimals; the NIC's NSG and subnet exist) and
  creates the VM at once: 201 with provisioningState "Creating" and Azure-AsyncOperation + Retry-After headers. The
  VM then reads Creating with PowerState/starting, and Succeeded with PowerState/running after `running_after` GETs /
  lists that showed it (default 2), or as soon as its create operation answers Succeeded (the operation answers
  InProgress once first). Azure names the inline resources from the configuration names; the exact pattern is not
  documented (the spec calls the configuration name a prefix), so this fake names the NIC "<vm>-<nic config name>" and
  the public IP "<vm>-<public IP config name>": read them from the VM's networkProfile.networkInterfaces[].id and the
  NIC's ipConfigurations[].properties.publicIPAddress.id, as dstack does. The IP's properties.ipAddress is
  "127.0.0.1". The NIC and IP are deleted with the VM when their deleteOption is Delete, left behind when Detach
  (/_fake/state shows them: a leak a test can see).
  A PUT of an existing VM name is an upsert: 200 and nothing changes, except tags; a different vmSize, image or zones
  answers 409 PropertyChangeNotAllowed ("Changing property '<name>' is not allowed."). (Azure itself resizes a VM on
  a PUT with another vmSize; the fake refuses it because GPU Planner never resizes: a resend that changed the size is
  a bug.) A PUT to a VM being deleted answers 409 OperationNotAllowed ("... marked for deletion ..."). A PUT to a VM
  whose create Failed tries the allocation again.
- GET .../virtualMachines/{vm}[?$expand=instanceView]; GET .../virtualMachines lists the group's VMs, `page_size` a
  page (default 50) with nextLink ($skiptoken); 404 ResourceGroupNotFound when the group does not exist.
- DELETE: 202 with Azure-AsyncOperation and Location (+ Retry-After); the VM reads provisioningState "Deleting" on the
  next GET/list, which is the last one that shows it (then 404 ResourceNotFound / left out of the list), or until its
  delete operation answers Succeeded; a missing VM answers 204. The delete operation's Location answers 202 while it
  runs, then 200.
- GET .../publicIPAddresses/{name}, .../networkInterfaces/{name}, .../virtualNetworks/{vnet}/subnets/{name}.
- POST /subscriptions/{s}/providers/{namespace}/register: {"namespace", "registrationState": "Registered"}; it ends the
  unregistered fault for that namespace.

Control (not part of the API)
- GET /_fake/state: {"instances": [{"id" (the VM name), "name", "client_token" (tag gpuplanner-token), "state"
  ("Creating", "Running", "Failed", then "Terminating" from DELETE until the answer that last shows it, then
  "Terminated"), "instance_type" (vmSize), "region" (location), "zone" ("" without zones), "pricing"
  (on_demand|spot), "image" (URN publisher:offer:sku:version, or the image id), "ssh_keys", "user_data" (customData,
  else userData, decoded), "tags", "max_price", "eviction_policy", "resource_group", "admin_username"}],
  "calls": [{"action", "region", "method", "path", "params", "body"}], "network_security_groups" (also as
  "security_groups", the name TestLaunchFlow reads), "virtual_networks", "public_ips", "nics", "resource_groups",
  "subscriptions"}. Actions: "token", "subscriptions.list", "resourceGroups.createOrUpdate" / "get",
  "resourceSkus.list", "virtualMachineImages.list" / "get", "networkSecurityGroups.get" / "createOrUpdate",
  "securityRules.createOrUpdate" / "get", "virtualNetworks.get" / "createOrUpdate", "subnets.get",
  "publicIPAddresses.get", "networkInterfaces.get", "virtualMachines.createOrUpdate" (the launch) / "get" / "list" /
  "delete", "asyncOperation", "operationResult" (a Location URL), "providers.register".
- POST /_fake/faults (JSON merged into the faults):
  throttle N         next N ARM calls (not the token endpoint) answer 429, Retry-After: 1, {"error": {"code":
                     "TooManyRequests", "message": "The request is being throttled as the limit has been reached for
                     operation type - ..."}};
  no_capacity_zones [zones]   a VM PUT into one of them ("" = without zones) answers 201 Creating, the VM is left in
                     provisioningState Failed and its create operation ends Failed with ZonalAllocationFailed
                     (AllocationFailed without zones) and the documented message;
  stale_zone_listing the SKU list does not show the Zone restriction of no_capacity_zones;
  restricted_sizes [sizes]   the SKU list shows a Location restriction (NotAvailableForSubscription) for them;
  drop_after_accept N   next N VM PUTs create, then close the connection without an answer;
  hold_run_reply_s S    the next VM PUT creates, then waits S s before answering (once);
  quota_exceeded     a VM PUT answers 409 OperationNotAllowed with the family-cores quota message (for Spot, the
                     low-priority cores one);
  unauthorized [actions]  those actions answer 403 AuthorizationFailed "The client '<client id>' with object id
                     '<id>' does not have authorization to perform action '<e.g. Microsoft.Compute/virtualMachines/
                     write>' over scope '<path>' or the scope is invalid. If access was recently granted, please
                     refresh your credentials.";
  unregistered [namespaces]  calls under that namespace (e.g. "Microsoft.Compute") answer 409
                     MissingSubscriptionRegistration until POST .../providers/{namespace}/register;
  running_after N;
  invisible_s S      for S s after a VM's first PUT, GET answers 404 ResourceNotFound, the list leaves it out and
                     DELETE answers 204 (what ARM answers for a missing resource);
  internal_error_after_create N   next N VM PUTs create (or find the VM), then answer 500 {"error": {"code":
                     "InternalServerError", "message": "An internal server error occurred. ..."}};
  terminate_slow_s S a deleted VM reads Deleting for S s (its delete operation stays InProgress as long);
  retry_after_s S    the Retry-After of the LRO answers (default --retry-after, 1);
  page_size N        VMs per list page.
- POST /_fake/security_groups {"region", "name"}: an NSG of that name in gpuplanner-<region> (the group is made when
  missing) without any security rule; answers {"ok": true, "id"}.
- POST /_fake/subscriptions {"subscriptions": [{"subscriptionId", "displayName", "state"}]}: replaces the
  subscription list (none, several, disabled ones); the first one's id stays the one paths may name unless another in
  the list is named.

Every answer carries x-ms-request-id and x-ms-correlation-request-id headers.
"""

import argparse
import base64
import datetime
import gzip
import json
import os
import re
import secrets
import socket
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, quote, unquote

TENANT = "11111111-1111-4111-8111-111111111111"
CLIENT = "22222222-2222-4222-8222-222222222222"
SECRET = "fake-client-secret"
SUBSCRIPTION = "33333333-3333-4333-8333-333333333333"
SCOPE = "https://management.azure.com/.default"
# osProfile.customData: "The maximum length of the binary array is 65535 bytes" (virtualMachine.json).
CUSTOM_DATA_MAX = 65535

# The GPU catalog: (size, family (the quota's name for it), vCPUs, GPUs, memory GB).
SIZES = [("Standard_NC4as_T4_v3", "standardNCASv3_T4Family", 4, 1, 28),
         ("Standard_NC64as_T4_v3", "standardNCASv3_T4Family", 64, 4, 440),
         ("Standard_NC24ads_A100_v4", "standardNCADSA100v4Family", 24, 1, 220),
         ("Standard_NC96ads_A100_v4", "standardNCADSA100v4Family", 96, 4, 880),
         ("Standard_ND96asr_v4", "standardNDASv4_A100Family", 96, 8, 900),
         ("Standard_ND96amsr_A100_v4", "standardNDAMSv4_A100Family", 96, 8, 1900),
         ("Standard_ND96isr_H100_v5", "standardNDSH100v5Family", 96, 8, 1900),
         ("Standard_NC6s_v3", "standardNCSv3Family", 6, 1, 112)]
SIZE_BY_NAME = {s[0].lower(): s for s in SIZES}
IMAGES = {("microsoft-dsvm", "ubuntu-hpc", "2204"): "22.04.2025030701",
          ("canonical", "ubuntu-24_04-lts", "server"): "24.04.202503050"}
REGIONS = ["eastus", "eastus2", "westus2", "westus3", "southcentralus", "westeurope", "northeurope", "japaneast"]

# osProfile.adminUsername: "Disallowed values" (virtualMachine.json, OSProfile.adminUsername).
RESERVED_USERS = {"administrator", "admin", "user", "user1", "test", "user2", "test1", "user3", "admin1", "1", "123",
                  "a", "actuser", "adm", "admin2", "aspnet", "backup", "console", "david", "guest", "john", "owner",
                  "root", "server", "sql", "support", "support_388945a0", "sys", "test2", "test3", "user4", "user5"}

# The RBAC action each operation needs (for the unauthorized fault's message).
RBAC = {"subscriptions.list": "Microsoft.Resources/subscriptions/read",
        "resourceGroups.createOrUpdate": "Microsoft.Resources/subscriptions/resourceGroups/write",
        "resourceGroups.get": "Microsoft.Resources/subscriptions/resourceGroups/read",
        "resourceSkus.list": "Microsoft.Compute/skus/read",
        "virtualMachineImages.list": "Microsoft.Compute/locations/publishers/artifacttypes/offers/skus/versions/read",
        "virtualMachineImages.get": "Microsoft.Compute/locations/publishers/artifacttypes/offers/skus/versions/read",
        "networkSecurityGroups.get": "Microsoft.Network/networkSecurityGroups/read",
        "networkSecurityGroups.createOrUpdate": "Microsoft.Network/networkSecurityGroups/write",
        "securityRules.get": "Microsoft.Network/networkSecurityGroups/securityRules/read",
        "securityRules.createOrUpdate": "Microsoft.Network/networkSecurityGroups/securityRules/write",
        "virtualNetworks.get": "Microsoft.Network/virtualNetworks/read",
        "virtualNetworks.createOrUpdate": "Microsoft.Network/virtualNetworks/write",
        "subnets.get": "Microsoft.Network/virtualNetworks/subnets/read",
        "publicIPAddresses.get": "Microsoft.Network/publicIPAddresses/read",
        "networkInterfaces.get": "Microsoft.Network/networkInterfaces/read",
        "virtualMachines.createOrUpdate": "Microsoft.Compute/virtualMachines/write",
        "virtualMachines.get": "Microsoft.Compute/virtualMachines/read",
        "virtualMachines.list": "Microsoft.Compute/virtualMachines/read",
        "virtualMachines.delete": "Microsoft.Compute/virtualMachines/delete",
        "asyncOperation": "Microsoft.Compute/locations/operations/read",
        "operationResult": "Microsoft.Compute/locations/operations/read",
        "providers.register": "Microsoft.Resources/subscriptions/providers/register/action"}

S = r"/subscriptions/(?P<sub>[^/]+)"
RG = S + r"/resourcegroups/(?P<rg>[^/]+)"
NET = RG + r"/providers/microsoft\.network/"
ROUTES = [  # (method, path pattern (case-insensitive), action); the first match wins
    ("GET", r"/subscriptions", "subscriptions.list"),
    ("GET", S + r"/providers/microsoft\.compute/skus", "resourceSkus.list"),
    ("GET", S + r"/providers/microsoft\.compute/locations/(?P<loc>[^/]+)/publishers/(?P<pub>[^/]+)/artifacttypes/"
                r"vmimage/offers/(?P<offer>[^/]+)/skus/(?P<sku>[^/]+)/versions", "virtualMachineImages.list"),
    ("GET", S + r"/providers/microsoft\.compute/locations/(?P<loc>[^/]+)/publishers/(?P<pub>[^/]+)/artifacttypes/"
                r"vmimage/offers/(?P<offer>[^/]+)/skus/(?P<sku>[^/]+)/versions/(?P<version>[^/]+)",
     "virtualMachineImages.get"),
    ("GET", S + r"/providers/microsoft\.(?P<ns>compute|network)/locations/(?P<loc>[^/]+)/operations/(?P<op>[^/]+)",
     "asyncOperation"),
    ("POST", S + r"/providers/(?P<ns>[^/]+)/register", "providers.register"),
    ("PUT", RG, "resourceGroups.createOrUpdate"),
    ("GET", RG, "resourceGroups.get"),
    ("GET", NET + r"networksecuritygroups/(?P<nsg>[^/]+)/securityrules/(?P<rule>[^/]+)", "securityRules.get"),
    ("PUT", NET + r"networksecuritygroups/(?P<nsg>[^/]+)/securityrules/(?P<rule>[^/]+)",
     "securityRules.createOrUpdate"),
    ("GET", NET + r"networksecuritygroups/(?P<nsg>[^/]+)", "networkSecurityGroups.get"),
    ("PUT", NET + r"networksecuritygroups/(?P<nsg>[^/]+)", "networkSecurityGroups.createOrUpdate"),
    ("GET", NET + r"virtualnetworks/(?P<vnet>[^/]+)/subnets/(?P<subnet>[^/]+)", "subnets.get"),
    ("GET", NET + r"virtualnetworks/(?P<vnet>[^/]+)", "virtualNetworks.get"),
    ("PUT", NET + r"virtualnetworks/(?P<vnet>[^/]+)", "virtualNetworks.createOrUpdate"),
    ("GET", NET + r"publicipaddresses/(?P<ip>[^/]+)", "publicIPAddresses.get"),
    ("GET", NET + r"networkinterfaces/(?P<nic>[^/]+)", "networkInterfaces.get"),
    ("GET", RG + r"/providers/microsoft\.compute/virtualmachines", "virtualMachines.list"),
    ("PUT", RG + r"/providers/microsoft\.compute/virtualmachines/(?P<vm>[^/]+)", "virtualMachines.createOrUpdate"),
    ("GET", RG + r"/providers/microsoft\.compute/virtualmachines/(?P<vm>[^/]+)", "virtualMachines.get"),
    ("DELETE", RG + r"/providers/microsoft\.compute/virtualmachines/(?P<vm>[^/]+)", "virtualMachines.delete"),
]
ROUTES = [(m, re.compile(p + r"/?$", re.IGNORECASE), a) for m, p, a in ROUTES]
TOKEN_PATH = re.compile(r"^/(?P<tenant>[^/]+)/oauth2/v2\.0/token/?$", re.IGNORECASE)


def iso_now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f0+00:00")


def new_uuid():
    return str(uuid.uuid4())


def norm_location(text):
    return (text or "").replace(" ", "").lower()


class ApiError(Exception):
    """An answer other than 2xx: HTTP status, body (JSON, or bytes as they are) and extra headers."""

    def __init__(self, status, body, headers=None):
        super().__init__(body.decode("utf-8", "replace") if isinstance(body, (bytes, bytearray)) else json.dumps(body))
        self.status = status
        self.body = body
        self.headers = headers or {}


def arm_error(status, code, message, target=None, details=None, headers=None):
    error = {"code": code, "message": message}
    if target:
        error["target"] = target
    if details is not None:
        error["details"] = details
    return ApiError(status, {"error": error}, headers)


def aad_error(status, error, code, description):
    trace, correlation = new_uuid(), new_uuid()
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%SZ")
    return ApiError(status, {"error": error,
                             "error_description": "AADSTS%d: %s Trace ID: %s Correlation ID: %s Timestamp: %s"
                                                  % (code, description, trace, correlation, now),
                             "error_codes": [code], "timestamp": now, "trace_id": trace,
                             "correlation_id": correlation,
                             "error_uri": "https://login.microsoftonline.com/error?code=%d" % code})


def not_found(kind, name, rg):
    # ARM's answer for a missing resource in an existing group.
    return arm_error(404, "ResourceNotFound", "The Resource '%s/%s' under resource group '%s' was not found. For more "
                     "details please go to https://aka.ms/ARMResourceNotFoundFix" % (kind, name, rg))


def network_not_found(kind, name, rg):
    # Microsoft.Network answers a missing resource with code NotFound.
    return arm_error(404, "NotFound", "Resource /subscriptions/%s/resourceGroups/%s/providers/Microsoft.Network/%s/%s "
                     "not found." % (Handler.state.subscription, rg, kind, name))


def group_not_found(rg):
    return arm_error(404, "ResourceGroupNotFound", "Resource group '%s' could not be found." % rg)


# ---- pieces fake_azure_ml.py shares (the token endpoint, ARM's checks and errors, the handler's plumbing)


def client_credentials_token(st, tenant, form):
    """The token endpoint's answer to a client-credentials form for tenant `tenant`, or the AADSTS error it raises
    (st: tenant, client, secret, lock, tokens)."""
    if tenant.lower() != st.tenant.lower():
        raise aad_error(400, "invalid_request", 90002, "Tenant '%s' not found. Check to make sure you have the "
                        "correct tenant ID and are signing into the correct cloud. Check with your subscription "
                        "administrator, this may happen if there are no active subscriptions for the tenant."
                        % tenant)
    if form.get("grant_type") != "client_credentials":
        raise aad_error(400, "unsupported_grant_type", 70003, "The app requested an unsupported grant type '%s'."
                        % form.get("grant_type", ""))
    client = form.get("client_id", "")
    if client.lower() != st.client.lower():
        raise aad_error(400, "unauthorized_client", 700016, "Application with identifier '%s' was not found in "
                        "the directory '%s'. This can happen if the application has not been installed by the "
                        "administrator of the tenant or consented to by any user in the tenant. You may have sent "
                        "your authentication request to the wrong tenant." % (client, tenant))
    if form.get("client_secret", "") != st.secret:
        raise aad_error(401, "invalid_client", 7000215, "Invalid client secret provided. Ensure the secret being "
                        "sent in the request is the client secret value, not the client secret ID, for a secret "
                        "added to app '%s'." % client)
    scope = form.get("scope", "")
    if not scope.endswith("/.default"):
        raise aad_error(400, "invalid_scope", 1002012, "The provided value for scope %s is not valid. Client "
                        "credential flows must have a scope value with /.default suffixed to the resource "
                        "identifier (application ID URI)." % scope)
    access = "fake-arm-" + secrets.token_urlsafe(32)
    with st.lock:
        st.tokens[access] = time.time() + 3599
    return {"token_type": "Bearer", "expires_in": 3599, "ext_expires_in": 3599, "access_token": access}


def token_form(body):
    """The token request's form, and the same with the secret masked (as the calls record it)."""
    form = dict(parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True))
    return form, {k: ("***" if k == "client_secret" else v) for k, v in form.items()}


def query_params(raw_query):
    """The query's parameters, the first value of each name."""
    params = {}
    for key, value in parse_qsl(raw_query, keep_blank_values=True):
        params.setdefault(key, value)
    return params


def match_route(routes, method, path):
    """(action, groups) of the first route that matches, else ("unknown", {}) and False."""
    for m, pattern, action in routes:
        match = pattern.match(path)
        if match and m == method:
            return action, match.groupdict(), True
    return "unknown", {}, False


def json_payload(body):
    """The body as JSON, None when empty, ValueError when it is not JSON."""
    try:
        return json.loads(body) if body else None
    except ValueError:
        return ValueError


def www_authenticate(tenant):
    return {"WWW-Authenticate": 'Bearer authorization_uri="https://login.windows.net/%s", error="invalid_token", '
                                'error_description="The access token is invalid."' % tenant}


def check_bearer(st, auth):
    """ARM's check of the Authorization header against the tokens st issued (the caller holds st.lock)."""
    if not auth:
        raise arm_error(401, "AuthenticationFailed", "Authentication failed. The 'Authorization' header is "
                        "missing.", headers=www_authenticate(st.tenant))
    scheme, _, access = auth.partition(" ")
    if scheme.lower() != "bearer" or st.tokens.get(access.strip(), 0) < time.time():
        raise arm_error(401, "InvalidAuthenticationToken", "The access token is invalid.",
                        headers=www_authenticate(st.tenant))


def check_api_version(params, supported):
    version = params.get("api-version")
    if version is None:
        raise arm_error(400, "MissingApiVersionParameter", "The api-version query parameter (?api-version=) "
                        "is required for all requests.")
    if not re.match(r"^\d{4}-\d{2}-\d{2}(-preview|-beta)?$", version):
        raise arm_error(400, "InvalidApiVersionParameter", "The api-version '%s' is invalid. The supported "
                        "versions are '%s'." % (version, supported))


def check_route(st, path, matched, groups):
    """404 for a path no route matches, or one naming another subscription."""
    if not matched:
        raise arm_error(404, "InvalidResourceType" if "/providers/" in path.lower() else "NotFound",
                        "The resource type could not be found for the path '%s'." % path)
    sub = groups.get("sub")
    if sub is not None and not any(s["subscriptionId"].lower() == sub.lower() for s in st.subscriptions):
        raise arm_error(404, "SubscriptionNotFound", "The subscription '%s' could not be found." % sub)


def throttled(method):
    kind = "Write" if method in ("PUT", "DELETE", "POST", "PATCH") else "Read"
    return arm_error(429, "TooManyRequests", "The request is being throttled as the limit has been reached "
                     "for operation type - %s_Subscription. For more information, refer - "
                     "https://aka.ms/srpthrottlinglimits" % kind, headers={"Retry-After": "1"})


def check_payload(method, payload):
    if payload is ValueError:
        raise arm_error(400, "InvalidRequestContent", "The request content was invalid and could not be "
                        "deserialized.")
    if method == "PUT" and not isinstance(payload, dict):
        raise arm_error(400, "InvalidRequestContent", "The request content was invalid and could not be "
                        "deserialized: the body must be a JSON object.")


def fake_subscription(subscription, tenant):
    return {"id": "/subscriptions/" + subscription, "subscriptionId": subscription, "tenantId": tenant,
            "displayName": "GPU Planner fake subscription", "state": "Enabled", "authorizationSource": "RoleBased",
            "subscriptionPolicies": {"locationPlacementId": "Public_2014-09-01", "quotaId": "PayAsYouGo_2014-09-01",
                                     "spendingLimit": "Off"}}


class ArmHandlerBase(BaseHTTPRequestHandler):
    """The plumbing of an ARM fake's handler: each method goes to handle_any(method); quiet; GET /subscriptions."""
    protocol_version = "HTTP/1.1"
    state = None  # set in main

    def log_message(self, fmt, *args):
        pass

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

    def do_PATCH(self):
        self.handle_any("PATCH")

    def base_url(self):
        return "http://" + (self.headers.get("Host") or "127.0.0.1:%d" % self.server.server_address[1])

    def www_authenticate(self):
        return www_authenticate(self.state.tenant)

    def close_without_answer(self):
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def act_subscriptions_list(self, groups, params, body):
        with self.state.lock:
            subs = json.loads(json.dumps(self.state.subscriptions))
        self.reply(200, {"value": subs, "count": {"type": "Total", "value": len(subs)}})


def add_credential_args(parser, secret):
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--tenant-id", default=TENANT)
    parser.add_argument("--client-id", "--access-key-id", dest="client_id", default=CLIENT)
    parser.add_argument("--client-secret", "--secret-key", dest="client_secret", default=secret)


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


def decimals(value):
    text = repr(float(value))
    if "e" in text or "E" in text:
        text = "%.10f" % float(value)
    return len(text.partition(".")[2].rstrip("0"))


class State:
    def __init__(self, args, zones):
        self.lock = threading.Lock()
        self.tenant = args.tenant_id
        self.client = args.client_id
        self.secret = args.client_secret
        self.subscription = args.subscription_id
        self.subscriptions = [fake_subscription(args.subscription_id, args.tenant_id)]
        self.running_after = args.running_after
        self.zones = zones
        self.object_id = str(uuid.uuid5(uuid.NAMESPACE_URL, "gpuplanner-fake-sp:" + args.client_id))
        self.faults = {"throttle": 0, "no_capacity_zones": [], "stale_zone_listing": False, "restricted_sizes": [],
                       "drop_after_accept": 0, "hold_run_reply_s": 0, "quota_exceeded": False, "unauthorized": [],
                       "unregistered": [], "invisible_s": 0, "internal_error_after_create": 0, "terminate_slow_s": 0,
                       "retry_after_s": args.retry_after, "page_size": 50}
        self.tokens = {}  # access token -> expiry (Unix s)
        self.calls = []
        self.groups = {}  # lower name -> group
        self.nsgs = {}  # (rg lower, name lower) -> nsg
        self.vnets = {}
        self.public_ips = {}
        self.nics = {}
        self.vms = []
        self.operations = {}  # id -> operation

    def zones_for(self, region):
        return self.zones.get(norm_location(region), ["1", "2", "3"])


class Handler(ArmHandlerBase):
    # ---- plumbing

    def reply(self, status, obj, headers=None):
        data = b"" if obj is None else json.dumps(obj).encode()
        self.send_response(status)
        if obj is not None:
            self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("x-ms-request-id", new_uuid())
        self.send_header("x-ms-correlation-request-id", new_uuid())
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def handle_any(self, method):
        body = self.read_body()
        path = self.path.partition("?")[0]
        if path.startswith("/_fake/"):
            self.control(method, path, body)
            return
        try:
            match = TOKEN_PATH.match(path)
            if match and method == "POST":
                self.token(match.group("tenant"), body)
            else:
                self.api(method, body)
        except ApiError as e:
            self.reply(e.status, e.body, e.headers)

    # ---- control

    def control(self, method, path, body):
        st = self.state
        if method == "GET" and path == "/_fake/state":
            with st.lock:
                nsgs = [self.public_nsg(n) for n in st.nsgs.values()]
                self.reply(200, json.loads(json.dumps({
                    "instances": [self.public(v) for v in st.vms], "calls": st.calls,
                    "network_security_groups": nsgs, "security_groups": nsgs,
                    "virtual_networks": [self.show_vnet(v) for v in st.vnets.values()],
                    "public_ips": [dict(p) for p in st.public_ips.values()],
                    "nics": [dict(n) for n in st.nics.values()],
                    "resource_groups": [self.show_group(g) for g in st.groups.values()],
                    "subscriptions": st.subscriptions})))
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
        if method == "POST" and path == "/_fake/security_groups":
            region = norm_location(wanted.get("region", ""))
            rg = "gpuplanner-" + region
            with st.lock:
                if rg.lower() not in st.groups:
                    st.groups[rg.lower()] = {"name": rg, "location": region, "tags": {"gpuplanner": "true"}}
                nsg = self.new_nsg(rg, wanted.get("name", ""), region, {}, [])
            self.reply(200, {"ok": True, "id": nsg["id"]})
            return
        if method == "POST" and path == "/_fake/subscriptions":
            with st.lock:
                st.subscriptions = [dict({"id": "/subscriptions/" + s.get("subscriptionId", ""), "tenantId": st.tenant,
                                          "authorizationSource": "RoleBased"}, **s)
                                    for s in wanted.get("subscriptions", [])]
            self.reply(200, {"ok": True})
            return
        self.reply(404, {"error": "unknown path"})

    @staticmethod
    def public(v):
        return {k: v[k] for k in ("id", "name", "client_token", "state", "instance_type", "region", "zone", "pricing",
                                  "image", "ssh_keys", "user_data", "tags", "max_price", "eviction_policy",
                                  "resource_group", "admin_username")}

    # ---- token endpoint

    def token(self, tenant, body):
        st = self.state
        form, recorded = token_form(body)
        with st.lock:
            st.calls.append({"action": "token", "region": "", "method": "POST", "path": self.path.partition("?")[0],
                             "params": {}, "body": recorded})
        self.reply(200, client_credentials_token(st, tenant, form))

    # ---- ARM

    def api(self, method, body):
        st = self.state
        raw_path, _, raw_query = self.path.partition("?")
        path = unquote(raw_path)
        params = query_params(raw_query)
        action, groups, matched = match_route(ROUTES, method, path)
        payload = json_payload(body)
        if action == "asyncOperation" and params.get("monitor") == "true":
            action = "operationResult"  # the Location URL of a delete
        with st.lock:
            st.calls.append({"action": action, "region": self.region_of(groups, params, payload), "method": method,
                             "path": raw_path, "params": params,
                             "body": None if payload is ValueError else payload})
            check_bearer(st, self.headers.get("Authorization"))
            check_api_version(params, "2024-11-01,2024-07-01,2024-05-01,2021-07-01,2020-01-01")
            check_route(st, path, matched, groups)
            if st.faults.get("throttle", 0) > 0:
                st.faults["throttle"] -= 1
                raise throttled(method)
            if action in (st.faults.get("unauthorized") or []):
                raise arm_error(403, "AuthorizationFailed", "The client '%s' with object id '%s' does not have "
                                "authorization to perform action '%s' over scope '%s' or the scope is invalid. If "
                                "access was recently granted, please refresh your credentials."
                                % (st.client, st.object_id, RBAC.get(action, action), raw_path))
            namespace = re.search(r"/providers/(microsoft\.[a-z]+)/", path.lower() + "/")
            if namespace and action != "providers.register":
                wanted = namespace.group(1)
                for ns in st.faults.get("unregistered") or []:
                    if ns.lower() == wanted:
                        message = ("The subscription is not registered to use namespace '%s'. See "
                                   "https://aka.ms/rps-not-found for how to register subscriptions." % ns)
                        raise arm_error(409, "MissingSubscriptionRegistration", message,
                                        details=[{"code": "MissingSubscriptionRegistration", "target": ns,
                                                  "message": message}])
        check_payload(method, payload)
        getattr(self, "act_" + action.replace(".", "_"))(groups, params, payload or {})

    def region_of(self, groups, params, payload):
        if isinstance(payload, dict) and payload.get("location"):
            return norm_location(payload["location"])
        if groups.get("loc"):
            return norm_location(groups["loc"])
        found = re.search(r"location\s+eq\s+'([^']*)'", params.get("$filter", ""))
        if found:
            return norm_location(found.group(1))
        rg = (groups.get("rg") or "").lower()
        if rg in self.state.groups:
            return self.state.groups[rg]["location"]
        if rg.startswith("gpuplanner-"):
            return rg[len("gpuplanner-"):]
        return ""

    # ---- long-running operations

    def lro_headers(self, op, location=False):
        namespace = op["namespace"]
        url = "%s/subscriptions/%s/providers/%s/locations/%s/operations/%s?api-version=%s" % (
            self.base_url(), self.state.subscription, namespace, op["region"], op["id"], op["api_version"])
        headers = {"Azure-AsyncOperation": url, "Retry-After": str(self.state.faults.get("retry_after_s", 1))}
        if location:
            headers["Location"] = url + "&monitor=true"
        return headers

    def new_operation(self, namespace, region, api_version, kind, target, error=None):
        op = {"id": new_uuid(), "namespace": namespace, "region": region or "eastus", "api_version": api_version,
              "kind": kind, "target": target, "error": error, "answers": 0, "started": time.time(),
              "start_time": iso_now(), "done": False}
        self.state.operations[op["id"]] = op
        return op

    def act_asyncOperation(self, groups, params, body):
        st = self.state
        monitor = params.get("monitor") == "true"
        with st.lock:
            op = st.operations.get(groups["op"])
            if op is None:
                raise arm_error(404, "NotFound", "The operation '%s' could not be found." % groups["op"])
            op["answers"] += 1
            status = "InProgress"
            if op["answers"] >= 2:
                status = "Succeeded"
                if op["kind"] == "vm.delete":
                    vm = op["target"]
                    slow = float(st.faults.get("terminate_slow_s") or 0)
                    if time.time() - vm["deleting_since"] < slow:
                        status = "InProgress"
                    else:
                        self.vm_gone(vm)
                elif op["kind"] == "vm.create":
                    vm = op["target"]
                    if op["error"]:
                        status = "Failed"
                    elif vm["prov"] == "Creating" and not vm["deleting_since"] and not vm["gone"]:
                        self.vm_running(vm)
                elif op["kind"] == "network":
                    op["target"]["provisioningState"] = "Succeeded"
            out = {"startTime": op["start_time"], "status": status, "name": op["id"]}
            if status != "InProgress":
                out["endTime"] = iso_now()
            if status == "Failed":
                out["error"] = dict(op["error"])
            headers = {} if status != "InProgress" else {"Retry-After": str(st.faults.get("retry_after_s", 1))}
        if monitor:
            # The Location URL of a delete: 202 while it runs, then 200 without a body.
            self.reply(202 if status == "InProgress" else 200, None, headers)
            return
        self.reply(200, out, headers)

    act_operationResult = act_asyncOperation

    # ---- subscriptions, providers, resource groups

    def act_providers_register(self, groups, params, body):
        ns = groups["ns"]
        with self.state.lock:
            self.state.faults["unregistered"] = [n for n in self.state.faults.get("unregistered") or []
                                                 if n.lower() != ns.lower()]
        self.reply(200, {"id": "/subscriptions/%s/providers/%s" % (groups["sub"], ns), "namespace": ns,
                         "registrationState": "Registered", "registrationPolicy": "RegistrationRequired",
                         "resourceTypes": []})

    def show_group(self, g):
        return {"id": "/subscriptions/%s/resourceGroups/%s" % (self.state.subscription, g["name"]), "name": g["name"],
                "type": "Microsoft.Resources/resourceGroups", "location": g["location"], "tags": dict(g["tags"]),
                "properties": {"provisioningState": "Succeeded"}}

    def group(self, rg):
        g = self.state.groups.get(rg.lower())
        if g is None:
            raise group_not_found(rg)
        return g

    def act_resourceGroups_createOrUpdate(self, groups, params, body):
        rg = groups["rg"]
        if not body.get("location"):
            raise arm_error(400, "LocationRequired", "The location property is required for this definition.")
        if len(rg) > 90 or not re.match(r"^[-\w._()]+$", rg) or rg.endswith("."):
            raise arm_error(400, "InvalidResourceGroup", "The provided resource group name '%s' has these invalid "
                            "characters: ... The name can only be a letter, digit, '-', '.', '_', '(', ')'." % rg)
        with self.state.lock:
            existing = self.state.groups.get(rg.lower())
            if existing and norm_location(body["location"]) != existing["location"]:
                raise arm_error(409, "InvalidResourceGroupLocation", "Invalid resource group location '%s'. The "
                                "Resource group already exists in location '%s'." % (body["location"],
                                                                                    existing["location"]))
            g = existing or {"name": rg, "location": norm_location(body["location"])}
            g["tags"] = dict(body.get("tags") or {})
            self.state.groups[rg.lower()] = g
            out = self.show_group(g)
        self.reply(200 if existing else 201, out)

    def act_resourceGroups_get(self, groups, params, body):
        with self.state.lock:
            out = self.show_group(self.group(groups["rg"]))
        self.reply(200, out)

    # ---- SKUs and images

    def act_resourceSkus_list(self, groups, params, body):
        st = self.state
        flt = params.get("$filter", "")
        found = re.search(r"location\s+eq\s+'([^']*)'", flt)
        regions = [norm_location(found.group(1))] if found else sorted(set(REGIONS) | set(st.zones))
        with st.lock:
            stale = bool(st.faults.get("stale_zone_listing"))
            sold_out = [] if stale else [str(z) for z in st.faults.get("no_capacity_zones") or []]
            restricted = [s.lower() for s in st.faults.get("restricted_sizes") or []]
        value = []
        for region in regions:
            zones = st.zones_for(region)
            for name, family, vcpus, gpus, memory in SIZES:
                restrictions = []
                if name.lower() in restricted:
                    restrictions.append({"type": "Location", "values": [region],
                                         "restrictionInfo": {"locations": [region]},
                                         "reasonCode": "NotAvailableForSubscription"})
                gone = [z for z in zones if z in sold_out]
                if gone:
                    restrictions.append({"type": "Zone", "values": [region],
                                         "restrictionInfo": {"locations": [region], "zones": gone},
                                         "reasonCode": "NotAvailableForSubscription"})
                value.append({"resourceType": "virtualMachines", "name": name, "tier": "Standard",
                              "size": name.split("_", 1)[1], "family": family, "locations": [region],
                              "locationInfo": [{"location": region, "zones": list(zones), "zoneDetails": []}],
                              "capabilities": [{"name": "vCPUs", "value": str(vcpus)},
                                               {"name": "GPUs", "value": str(gpus)},
                                               {"name": "MemoryGB", "value": str(memory)},
                                               {"name": "LowPriorityCapable", "value": "True"},
                                               {"name": "HyperVGenerations", "value": "V1,V2"}],
                              "restrictions": restrictions})
        self.reply(200, {"value": value})

    def image_id(self, region, pub, offer, sku, version):
        return ("/Subscriptions/%s/Providers/Microsoft.Compute/Locations/%s/Publishers/%s/ArtifactTypes/VMImage/"
                "Offers/%s/Skus/%s/Versions/%s" % (self.state.subscription, region, pub, offer, sku, version))

    def act_virtualMachineImages_list(self, groups, params, body):
        key = (groups["pub"].lower(), groups["offer"].lower(), groups["sku"].lower())
        region = norm_location(groups["loc"])
        version = IMAGES.get(key)
        out = [] if version is None else [{"name": version, "location": region,
                                           "id": self.image_id(region, groups["pub"], groups["offer"], groups["sku"],
                                                               version)}]
        self.reply(200, out)

    def act_virtualMachineImages_get(self, groups, params, body):
        key = (groups["pub"].lower(), groups["offer"].lower(), groups["sku"].lower())
        region = norm_location(groups["loc"])
        version = IMAGES.get(key)
        if version is None or groups["version"] not in (version, "latest"):
            raise arm_error(404, "NotFound", "Artifact: VMImage was not found.")
        self.reply(200, {"name": version, "location": region,
                         "id": self.image_id(region, groups["pub"], groups["offer"], groups["sku"], version),
                         "properties": {"osImage": {"operatingSystem": "Linux"}, "hyperVGeneration": "V2",
                                        "architecture": "x64", "dataDiskImages": []}})

    # ---- network

    def net_id(self, rg, kind, name):
        return "/subscriptions/%s/resourceGroups/%s/providers/Microsoft.Network/%s/%s" % (
            self.state.subscription, rg, kind, name)

    @staticmethod
    def default_rules(nsg_id):
        rules = [("AllowVnetInBound", 65000, "Inbound", "VirtualNetwork", "VirtualNetwork", "Allow"),
                 ("AllowAzureLoadBalancerInBound", 65001, "Inbound", "AzureLoadBalancer", "*", "Allow"),
                 ("DenyAllInBound", 65500, "Inbound", "*", "*", "Deny"),
                 ("AllowVnetOutBound", 65000, "Outbound", "VirtualNetwork", "VirtualNetwork", "Allow"),
                 ("AllowInternetOutBound", 65001, "Outbound", "*", "Internet", "Allow"),
                 ("DenyAllOutBound", 65500, "Outbound", "*", "*", "Deny")]
        return [{"name": n, "id": nsg_id + "/defaultSecurityRules/" + n,
                 "type": "Microsoft.Network/networkSecurityGroups/defaultSecurityRules",
                 "properties": {"provisioningState": "Succeeded", "description": "", "protocol": "*",
                                "sourcePortRange": "*", "destinationPortRange": "*", "sourceAddressPrefix": src,
                                "destinationAddressPrefix": dst, "access": access, "priority": p, "direction": d,
                                "sourcePortRanges": [], "destinationPortRanges": [], "sourceAddressPrefixes": [],
                                "destinationAddressPrefixes": []}}
                for n, p, d, src, dst, access in rules]

    @staticmethod
    def check_rule(rule):
        props = rule.get("properties") or {}
        name = rule.get("name") or ""
        if not name:
            raise arm_error(400, "InvalidRequestFormat", "Cannot parse the request: a security rule has no name.")
        if props.get("protocol") not in ("Tcp", "Udp", "Icmp", "Esp", "Ah", "*"):
            raise arm_error(400, "SecurityRuleParameterContainsUnsupportedValue", "Security rule parameter Protocol "
                            "for rule with Id %s cannot be '%s'." % (name, props.get("protocol")))
        if props.get("access") not in ("Allow", "Deny") or props.get("direction") not in ("Inbound", "Outbound"):
            raise arm_error(400, "SecurityRuleParameterContainsUnsupportedValue", "Security rule %s has an invalid "
                            "access or direction." % name)
        priority = props.get("priority")
        if not isinstance(priority, int) or isinstance(priority, bool) or not 100 <= priority <= 4096:
            raise arm_error(400, "SecurityRuleInvalidPriority", "Security rule has invalid Priority. Value provided: "
                            "%s Allowed range 100-4096." % priority)

    def show_rule(self, nsg, rule, state="Succeeded"):
        props = {"provisioningState": state, "sourcePortRanges": [], "destinationPortRanges": [],
                 "sourceAddressPrefixes": [], "destinationAddressPrefixes": []}
        props.update(json.loads(json.dumps(rule.get("properties") or {})))
        props["provisioningState"] = state
        return {"name": rule["name"], "id": nsg["id"] + "/securityRules/" + rule["name"],
                "etag": 'W/"%s"' % nsg["etag"],
                "type": "Microsoft.Network/networkSecurityGroups/securityRules", "properties": props}

    def new_nsg(self, rg, name, region, tags, rules):
        nsg_id = self.net_id(rg, "networkSecurityGroups", name)
        nsg = {"name": name, "id": nsg_id, "rg": rg, "location": region, "tags": dict(tags), "rules": rules,
               "provisioningState": "Succeeded", "resourceGuid": new_uuid(), "etag": new_uuid()}
        self.state.nsgs[(rg.lower(), name.lower())] = nsg
        return nsg

    def show_nsg(self, nsg, state=None):
        state = state or nsg["provisioningState"]
        nics = [{"id": n["id"]} for n in self.state.nics.values() if n["nsg_id"].lower() == nsg["id"].lower()]
        return {"name": nsg["name"], "id": nsg["id"], "etag": 'W/"%s"' % nsg["etag"],
                "type": "Microsoft.Network/networkSecurityGroups", "location": nsg["location"], "tags": nsg["tags"],
                "properties": {"provisioningState": state, "resourceGuid": nsg["resourceGuid"],
                               "securityRules": [self.show_rule(nsg, r, state) for r in nsg["rules"]],
                               "defaultSecurityRules": self.default_rules(nsg["id"]), "networkInterfaces": nics}}

    def public_nsg(self, nsg):
        out = self.show_nsg(nsg)
        out["resource_group"] = nsg["rg"]
        return out

    def find_nsg(self, rg, name):
        self.group(rg)
        nsg = self.state.nsgs.get((rg.lower(), name.lower()))
        if nsg is None:
            raise network_not_found("networkSecurityGroups", name, rg)
        return nsg

    def act_networkSecurityGroups_get(self, groups, params, body):
        with self.state.lock:
            nsg = self.find_nsg(groups["rg"], groups["nsg"])
            nsg["provisioningState"] = "Succeeded"
            out = self.show_nsg(nsg)
        self.reply(200, out)

    def act_networkSecurityGroups_createOrUpdate(self, groups, params, body):
        rg, name = groups["rg"], groups["nsg"]
        if not body.get("location"):
            raise arm_error(400, "LocationRequired", "The location property is required for this definition.")
        rules = (body.get("properties") or {}).get("securityRules") or []
        for rule in rules:
            self.check_rule(rule)
        with self.state.lock:
            self.group(rg)
            existing = self.state.nsgs.get((rg.lower(), name.lower()))
            region = norm_location(body["location"])
            if existing and existing["location"] != region:
                raise arm_error(400, "InvalidResourceLocation", "The resource '%s' already exists in location '%s' "
                                "in resource group '%s'. A resource with the same name cannot be created in location "
                                "'%s'. Please select a new resource name." % (name, existing["location"], rg, region))
            nsg = self.new_nsg(rg, name, region, body.get("tags") or {},
                               [{"name": r["name"], "properties": r.get("properties") or {}} for r in rules])
            if existing:
                nsg["resourceGuid"] = existing["resourceGuid"]
            nsg["provisioningState"] = "Updating"
            op = self.new_operation("Microsoft.Network", region, params["api-version"], "network", nsg)
            out = self.show_nsg(nsg)
        self.reply(200 if existing else 201, out, self.lro_headers(op))

    def act_securityRules_get(self, groups, params, body):
        with self.state.lock:
            nsg = self.find_nsg(groups["rg"], groups["nsg"])
            rule = next((r for r in nsg["rules"] if r["name"].lower() == groups["rule"].lower()), None)
            if rule is None:
                raise network_not_found("networkSecurityGroups/%s/securityRules" % nsg["name"], groups["rule"],
                                        groups["rg"])
            out = self.show_rule(nsg, rule)
        self.reply(200, out)

    def act_securityRules_createOrUpdate(self, groups, params, body):
        rule = {"name": groups["rule"], "properties": body.get("properties") or {}}
        self.check_rule(rule)
        with self.state.lock:
            nsg = self.find_nsg(groups["rg"], groups["nsg"])
            for other in nsg["rules"]:
                p, q = other["properties"], rule["properties"]
                if other["name"].lower() != rule["name"].lower() and p.get("priority") == q.get("priority") \
                        and p.get("direction") == q.get("direction"):
                    raise arm_error(400, "SecurityRuleConflict", "Security rule %s conflicts with rule %s. Rules "
                                    "cannot have the same Priority and Direction." % (rule["name"], other["name"]))
            existing = next((r for r in nsg["rules"] if r["name"].lower() == rule["name"].lower()), None)
            nsg["rules"] = [r for r in nsg["rules"] if r is not existing] + [rule]
            nsg["etag"] = new_uuid()
            holder = {"provisioningState": "Updating"}
            op = self.new_operation("Microsoft.Network", nsg["location"], params["api-version"], "network", holder)
            out = self.show_rule(nsg, rule, "Updating")
        self.reply(200 if existing else 201, out, self.lro_headers(op))

    def show_vnet(self, vnet, state=None):
        state = state or vnet["provisioningState"]
        subnets = []
        for s in vnet["subnets"]:
            props = {"provisioningState": state}
            props.update(json.loads(json.dumps(s.get("properties") or {})))
            props["provisioningState"] = state
            props["ipConfigurations"] = [{"id": n["id"] + "/ipConfigurations/" + n["ipconfig"]}
                                         for n in self.state.nics.values()
                                         if n["subnet_id"].lower() == (vnet["id"] + "/subnets/" + s["name"]).lower()]
            subnets.append({"name": s["name"], "id": vnet["id"] + "/subnets/" + s["name"],
                            "etag": 'W/"%s"' % vnet["etag"],
                            "type": "Microsoft.Network/virtualNetworks/subnets", "properties": props})
        return {"name": vnet["name"], "id": vnet["id"], "etag": 'W/"%s"' % vnet["etag"],
                "type": "Microsoft.Network/virtualNetworks", "location": vnet["location"], "tags": vnet["tags"],
                "properties": {"provisioningState": state, "resourceGuid": vnet["resourceGuid"],
                               "addressSpace": {"addressPrefixes": list(vnet["prefixes"])}, "subnets": subnets,
                               "virtualNetworkPeerings": [], "enableDdosProtection": False}}

    def find_vnet(self, rg, name):
        self.group(rg)
        vnet = self.state.vnets.get((rg.lower(), name.lower()))
        if vnet is None:
            raise network_not_found("virtualNetworks", name, rg)
        return vnet

    def act_virtualNetworks_get(self, groups, params, body):
        with self.state.lock:
            vnet = self.find_vnet(groups["rg"], groups["vnet"])
            vnet["provisioningState"] = "Succeeded"
            out = self.show_vnet(vnet)
        self.reply(200, out)

    def act_subnets_get(self, groups, params, body):
        with self.state.lock:
            vnet = self.find_vnet(groups["rg"], groups["vnet"])
            vnet["provisioningState"] = "Succeeded"
            subnet = next((s for s in self.show_vnet(vnet)["properties"]["subnets"]
                           if s["name"].lower() == groups["subnet"].lower()), None)
            if subnet is None:
                raise network_not_found("virtualNetworks/%s/subnets" % vnet["name"], groups["subnet"], groups["rg"])
        self.reply(200, subnet)

    @staticmethod
    def parse_cidr(text):
        found = re.match(r"^(\d+)\.(\d+)\.(\d+)\.(\d+)/(\d+)$", text or "")
        if not found or int(found.group(5)) > 32 or any(int(found.group(i)) > 255 for i in range(1, 5)):
            return None
        value = 0
        for i in range(1, 5):
            value = value * 256 + int(found.group(i))
        bits = int(found.group(5))
        mask = (0xFFFFFFFF << (32 - bits)) & 0xFFFFFFFF
        return value & mask, bits

    def act_virtualNetworks_createOrUpdate(self, groups, params, body):
        rg, name = groups["rg"], groups["vnet"]
        if not body.get("location"):
            raise arm_error(400, "LocationRequired", "The location property is required for this definition.")
        props = body.get("properties") or {}
        prefixes = (props.get("addressSpace") or {}).get("addressPrefixes") or []
        spaces = [self.parse_cidr(p) for p in prefixes]
        if not prefixes or None in spaces:
            raise arm_error(400, "InvalidAddressPrefixFormat", "Address prefix %s of resource %s is not formatted "
                            "correctly. It should follow CIDR notation, for example 10.0.0.0/24."
                            % (prefixes, self.net_id(rg, "virtualNetworks", name)))
        subnets = []
        for s in props.get("subnets") or []:
            prefix = (s.get("properties") or {}).get("addressPrefix", "")
            cidr = self.parse_cidr(prefix)
            if not s.get("name") or cidr is None:
                raise arm_error(400, "InvalidAddressPrefixFormat", "Address prefix %s of subnet %s is not formatted "
                                "correctly." % (prefix, s.get("name")))
            inside = any(bits <= cidr[1] and (cidr[0] >> (32 - bits)) == (net >> (32 - bits)) for net, bits in spaces)
            if not inside:
                raise arm_error(400, "NetcfgSubnetRangeOutsideVnet", "Subnet '%s' is not valid because its IP address "
                                "range is outside the IP address range of virtual network '%s'." % (s["name"], name))
            subnets.append({"name": s["name"], "properties": s.get("properties") or {}})
        with self.state.lock:
            self.group(rg)
            existing = self.state.vnets.get((rg.lower(), name.lower()))
            vnet = {"name": name, "id": self.net_id(rg, "virtualNetworks", name), "rg": rg,
                    "location": norm_location(body["location"]), "tags": dict(body.get("tags") or {}),
                    "prefixes": list(prefixes), "subnets": subnets, "provisioningState": "Updating",
                    "resourceGuid": existing["resourceGuid"] if existing else new_uuid(), "etag": new_uuid()}
            self.state.vnets[(rg.lower(), name.lower())] = vnet
            op = self.new_operation("Microsoft.Network", vnet["location"], params["api-version"], "network", vnet)
            out = self.show_vnet(vnet)
        self.reply(200 if existing else 201, out, self.lro_headers(op))

    def act_publicIPAddresses_get(self, groups, params, body):
        with self.state.lock:
            self.group(groups["rg"])
            ip = self.state.public_ips.get((groups["rg"].lower(), groups["ip"].lower()))
            if ip is None:
                raise network_not_found("publicIPAddresses", groups["ip"], groups["rg"])
            nic = next((n for n in self.state.nics.values() if n["public_ip_id"].lower() == ip["id"].lower()), None)
            out = {"name": ip["name"], "id": ip["id"], "etag": 'W/"%s"' % ip["etag"],
                   "type": "Microsoft.Network/publicIPAddresses", "location": ip["region"], "sku": dict(ip["sku"]),
                   "properties": {"provisioningState": "Succeeded", "resourceGuid": ip["resourceGuid"],
                                  "ipAddress": ip["ip_address"], "publicIPAddressVersion": "IPv4",
                                  "publicIPAllocationMethod": ip["allocation"], "idleTimeoutInMinutes": 4,
                                  "ipTags": [], "deleteOption": ip["delete_option"]}}
            if ip.get("zone"):
                out["zones"] = [ip["zone"]]
            if nic:
                out["properties"]["ipConfiguration"] = {"id": nic["id"] + "/ipConfigurations/" + nic["ipconfig"]}
        self.reply(200, out)

    def act_networkInterfaces_get(self, groups, params, body):
        with self.state.lock:
            self.group(groups["rg"])
            nic = self.state.nics.get((groups["rg"].lower(), groups["nic"].lower()))
            if nic is None:
                raise network_not_found("networkInterfaces", groups["nic"], groups["rg"])
            ipconf = {"name": nic["ipconfig"], "id": nic["id"] + "/ipConfigurations/" + nic["ipconfig"],
                      "type": "Microsoft.Network/networkInterfaces/ipConfigurations",
                      "properties": {"provisioningState": "Succeeded", "privateIPAddress": nic["private_ip"],
                                     "privateIPAllocationMethod": "Dynamic", "subnet": {"id": nic["subnet_id"]},
                                     "primary": True, "privateIPAddressVersion": "IPv4"}}
            if nic["public_ip_id"]:
                ipconf["properties"]["publicIPAddress"] = {"id": nic["public_ip_id"]}
            out = {"name": nic["name"], "id": nic["id"], "etag": 'W/"%s"' % nic["etag"],
                   "type": "Microsoft.Network/networkInterfaces", "location": nic["region"],
                   "properties": {"provisioningState": "Succeeded", "resourceGuid": nic["resourceGuid"],
                                  "ipConfigurations": [ipconf], "primary": True, "enableAcceleratedNetworking": False,
                                  "networkSecurityGroup": {"id": nic["nsg_id"]} if nic["nsg_id"] else None,
                                  "virtualMachine": {"id": nic["vm_id"]} if nic["vm_id"] else None,
                                  "deleteOption": nic["delete_option"], "nicType": "Standard"}}
            out["properties"] = {k: v for k, v in out["properties"].items() if v is not None}
        self.reply(200, out)

    # ---- virtual machines

    def vm_id(self, rg, name):
        return "/subscriptions/%s/resourceGroups/%s/providers/Microsoft.Compute/virtualMachines/%s" % (
            self.state.subscription, rg, name)

    def find_vm(self, rg, name):
        return next((v for v in self.state.vms if v["rg"].lower() == rg.lower() and v["name"].lower() == name.lower()
                     and not v["gone"]), None)

    def visible(self, vm):
        return time.time() - vm["created_at"] >= float(self.state.faults.get("invisible_s") or 0)

    def resolve_reference(self, ref_id, kind, region, vm_name):
        """The NSG (kind "nsg") or subnet ("subnet") an id names, in the VM's region; else InvalidResourceReference."""
        st = self.state
        parts = (ref_id or "").strip("/").split("/")
        lower = [p.lower() for p in parts]
        found = None
        try:
            rg = parts[lower.index("resourcegroups") + 1]
            if kind == "nsg":
                found = st.nsgs.get((rg.lower(), parts[lower.index("networksecuritygroups") + 1].lower()))
            else:
                vnet = st.vnets.get((rg.lower(), parts[lower.index("virtualnetworks") + 1].lower()))
                subnet = parts[lower.index("subnets") + 1].lower()
                if vnet and any(s["name"].lower() == subnet for s in vnet["subnets"]):
                    found = vnet
        except (ValueError, IndexError):
            found = None
        if found is None or found["location"] != region:
            raise arm_error(400, "InvalidResourceReference", "Resource %s referenced by resource %s was not found. "
                            "Please make sure that the referenced resource exists, and that both resources are in the "
                            "same region." % (ref_id, vm_name))
        return found

    def validate_vm(self, rg, name, body):
        """The checks a VM PUT makes; returns the parsed launch."""
        st = self.state
        if not body.get("location"):
            raise arm_error(400, "LocationRequired", "The location property is required for this definition.")
        region = norm_location(body["location"])
        props = body.get("properties")
        if not isinstance(props, dict):
            raise arm_error(400, "InvalidRequestContent", "The request content was invalid: properties is required.")
        if len(name) > 64 or not re.match(r"^[A-Za-z0-9][A-Za-z0-9_.-]*[A-Za-z0-9_]$", name):
            raise arm_error(400, "InvalidResourceName", "The resource name '%s' is invalid." % name)
        size = (props.get("hardwareProfile") or {}).get("vmSize", "")
        if size.lower() not in SIZE_BY_NAME:
            raise arm_error(400, "InvalidParameter", "The value %s provided for the VM size is not valid. The valid "
                            "sizes in the current region are: %s." % (size, ",".join(s[0] for s in SIZES)),
                            target="vmSize")
        size = SIZE_BY_NAME[size.lower()][0]
        zones = body.get("zones") or []
        if len(zones) > 1 or any(not isinstance(z, str) for z in zones):
            raise arm_error(400, "InvalidParameter", "A virtual machine can be created in one zone only; zones must be "
                            "a list of one string.", target="zones")
        zone = zones[0] if zones else ""
        if zone and zone not in st.zones_for(region):
            raise arm_error(400, "InvalidParameter", "The zone(s) '%s' for resource '%s' is not supported. The "
                            "supported zones for location '%s' are '%s'." % (zone, self.vm_id(rg, name), region,
                                                                           ",".join(st.zones_for(region))),
                            target="zones")
        storage = props.get("storageProfile") or {}
        ref = storage.get("imageReference") or {}
        if ref.get("id"):
            image = ref["id"]
        else:
            key = (ref.get("publisher", "").lower(), ref.get("offer", "").lower(), ref.get("sku", "").lower())
            version = ref.get("version", "")
            urn = "%s:%s:%s:%s" % (ref.get("publisher"), ref.get("offer"), ref.get("sku"), version)
            if key not in IMAGES or version not in ("latest", IMAGES[key]):
                raise arm_error(404, "PlatformImageNotFound", "The platform image '%s' is not available. Verify that "
                                "all fields in the storage profile are correct. For more details about storage "
                                "profile information, please refer to https://aka.ms/storageprofile" % urn)
            image = urn
        os_disk = storage.get("osDisk") or {}
        if os_disk and os_disk.get("createOption") not in ("FromImage", "fromImage"):
            raise arm_error(400, "InvalidParameter", "Required parameter 'osDisk.createOption' must be FromImage for "
                            "a VM made from an image.", target="osDisk.createOption")
        os_profile = props.get("osProfile") or {}
        user = os_profile.get("adminUsername", "")
        if not user:
            raise arm_error(400, "InvalidParameter", "Required parameter 'adminUsername' is missing (null).",
                            target="adminUsername")
        if user.lower() in RESERVED_USERS or len(user) > 64 or not re.match(r"^[a-z_][a-z0-9_.-]*$", user, re.I):
            raise arm_error(400, "InvalidParameter", "The Admin Username specified is not allowed.",
                            target="adminUsername")
        linux = os_profile.get("linuxConfiguration") or {}
        keys = [k.get("keyData", "") for k in (linux.get("ssh") or {}).get("publicKeys") or []]
        for k in (linux.get("ssh") or {}).get("publicKeys") or []:
            if not re.match(r"^(ssh-rsa|ssh-ed25519|ecdsa-sha2-\S+) \S+", k.get("keyData", "")):
                raise arm_error(400, "InvalidParameter", "The value of parameter linuxConfiguration.ssh.publicKeys."
                                "keyData is invalid.", target="linuxConfiguration.ssh.publicKeys.keyData")
            if k.get("path") != "/home/%s/.ssh/authorized_keys" % user:
                raise arm_error(400, "InvalidParameter", "Destination path for SSH public keys is currently limited "
                                "to its default value /home/%s/.ssh/authorized_keys due to a known issue in Linux "
                                "provisioning agent." % user, target="linuxConfiguration.ssh.publicKeys.path")
        if linux.get("disablePasswordAuthentication") and not keys:
            raise arm_error(400, "InvalidParameter", "Authentication using either SSH or by user name and password "
                            "must be enabled in Linux profile.", target="linuxConfiguration")
        user_data = ""
        for field, where in (("customData", os_profile), ("userData", props)):
            encoded = where.get(field)
            if encoded is None:
                continue
            try:
                raw = base64.b64decode(encoded, validate=True)
            except ValueError:
                raise arm_error(400, "InvalidParameter", "Custom data in OSProfile must be in Base64 encoding and "
                                "with a maximum length of 87380 characters." if field == "customData" else
                                "User data must be in Base64 encoding.", target=field)
            if len(raw) > CUSTOM_DATA_MAX:
                raise arm_error(400, "InvalidParameter", "Custom data in OSProfile must be in Base64 encoding and "
                                "with a maximum length of 87380 characters." if field == "customData" else
                                "The user data is larger than 64 KB.", target=field)
            if raw[:2] == b"\x1f\x8b":  # gzip, as cloud-init takes it (and uncompresses first): shown as its text
                raw = gzip.decompress(raw)
            user_data = user_data or raw.decode("utf-8", "replace")
        priority = props.get("priority") or "Regular"
        if priority not in ("Regular", "Spot", "Low"):
            raise arm_error(400, "InvalidParameter", "The value '%s' of parameter 'priority' is not allowed."
                            % priority, target="priority")
        spot = priority in ("Spot", "Low")
        eviction = props.get("evictionPolicy")
        if eviction is not None and not spot:
            raise arm_error(400, "EvictionPolicyCanBeSetOnlyOnAzureSpotVirtualMachines", "Eviction policy can be set "
                            "only on Azure Spot Virtual Machines.")
        if eviction is not None and eviction not in ("Deallocate", "Delete"):
            raise arm_error(400, "InvalidParameter", "The value '%s' of parameter 'evictionPolicy' is not allowed."
                            % eviction, target="evictionPolicy")
        if spot and eviction is None:
            eviction = "Deallocate"  # the documented default (spot-vms.md)
        max_price = None
        if "billingProfile" in props:
            max_price = (props.get("billingProfile") or {}).get("maxPrice")
            if not spot:
                raise arm_error(400, "MaxPriceIsSupportedOnlyForAzureSpotVirtualMachines", "Max price is supported "
                                "only for Azure Spot Virtual Machines.")
            if max_price is not None:
                valid = isinstance(max_price, (int, float)) and not isinstance(max_price, bool) and (
                    max_price == -1 or (max_price > 0 and decimals(max_price) <= 5))
                if not valid:
                    raise arm_error(400, "MaxPriceValueInvalid", "Invalid max price value. The only supported values "
                                    "for max price are -1 or a decimal greater than zero. Max price value of -1 "
                                    "indicates the Azure Spot Virtual Machine will not be evicted for price reasons.")
        network = props.get("networkProfile") or {}
        configs = network.get("networkInterfaceConfigurations") or []
        if not configs and not network.get("networkInterfaces"):
            raise arm_error(400, "InvalidParameter", "Required parameter 'networkProfile' is missing (null).",
                            target="networkProfile")
        if configs and not network.get("networkApiVersion"):
            raise arm_error(400, "InvalidParameter", "networkApiVersion is required when "
                            "networkInterfaceConfigurations are given.", target="networkApiVersion")
        nics = []
        for config in configs:
            cprops = config.get("properties") or {}
            nsg_ref = (cprops.get("networkSecurityGroup") or {}).get("id")
            nsg = self.resolve_reference(nsg_ref, "nsg", region, self.vm_id(rg, name)) if nsg_ref else None
            ipconfs = cprops.get("ipConfigurations") or []
            if not config.get("name") or not ipconfs:
                raise arm_error(400, "InvalidParameter", "A network interface configuration needs a name and an IP "
                                "configuration.", target="networkInterfaceConfigurations")
            ipconf = ipconfs[0]
            iprops = ipconf.get("properties") or {}
            subnet_id = (iprops.get("subnet") or {}).get("id")
            self.resolve_reference(subnet_id, "subnet", region, self.vm_id(rg, name))
            pip = iprops.get("publicIPAddressConfiguration")
            nics.append({"config": config.get("name"), "ipconfig": ipconf.get("name") or "ipconfig",
                         "delete_option": cprops.get("deleteOption") or "Detach", "nsg_id": nsg["id"] if nsg else "",
                         "subnet_id": subnet_id, "public_ip": None if not pip else {
                             "config": pip.get("name"), "sku": pip.get("sku") or {"name": "Basic"},
                             "delete_option": (pip.get("properties") or {}).get("deleteOption") or "Detach",
                             "allocation": (pip.get("properties") or {}).get("publicIPAllocationMethod") or "Dynamic"}})
            if pip and not pip.get("name"):
                raise arm_error(400, "InvalidParameter", "publicIPAddressConfiguration.name is required.",
                                target="publicIPAddressConfiguration")
        tags = body.get("tags") or {}
        return {"region": region, "size": size, "zone": zone, "image": image, "image_ref": ref, "user": user,
                "keys": keys, "user_data": user_data, "spot": spot, "eviction": eviction if spot else None,
                "max_price": max_price, "nics": nics, "tags": dict(tags), "priority": priority,
                "computer_name": os_profile.get("computerName") or name}

    def quota_error(self, launch):
        name, family, vcpus, _, _ = SIZE_BY_NAME[launch["size"].lower()]
        what = "Low Priority Cores" if launch["spot"] else family + " Cores"
        return arm_error(409, "OperationNotAllowed", "Operation could not be completed as it results in exceeding "
                         "approved %s quota. Additional details - Deployment Model: Resource Manager, Location: %s, "
                         "Current Limit: 0, Current Usage: 0, Additional Required: %d, (Minimum) New Limit Required: "
                         "%d. Submit a request for Quota increase at https://aka.ms/ProdportalCRP/#blade/"
                         "Microsoft_Azure_Capacity/UsageAndQuota.ReactView/Parameters/%%7B%%22subscriptionId%%22:%%22"
                         "%s%%22%%7D by specifying parameters listed in the 'Details' section for deployment to "
                         "succeed. Please read more about quota limits at https://docs.microsoft.com/en-us/azure/"
                         "azure-supportability/per-vm-quota-requests"
                         % (what, launch["region"], vcpus, vcpus, self.state.subscription))

    def make_network(self, vm, launch):
        st = self.state
        vm["nic_ids"] = []
        for n in launch["nics"]:
            nic_name = "%s-%s" % (vm["name"], n["config"])
            nic_id = self.net_id(vm["rg"], "networkInterfaces", nic_name)
            public_ip_id = ""
            if n["public_ip"]:
                ip_name = "%s-%s" % (vm["name"], n["public_ip"]["config"])
                public_ip_id = self.net_id(vm["rg"], "publicIPAddresses", ip_name)
                st.public_ips[(vm["rg"].lower(), ip_name.lower())] = {
                    "name": ip_name, "id": public_ip_id, "resource_group": vm["rg"], "region": vm["region"],
                    "ip_address": "127.0.0.1", "delete_option": n["public_ip"]["delete_option"],
                    "sku": n["public_ip"]["sku"], "allocation": n["public_ip"]["allocation"], "vm": vm["name"],
                    "zone": vm["zone"], "resourceGuid": new_uuid(), "etag": new_uuid()}
            st.nics[(vm["rg"].lower(), nic_name.lower())] = {
                "name": nic_name, "id": nic_id, "resource_group": vm["rg"], "region": vm["region"],
                "delete_option": n["delete_option"], "nsg_id": n["nsg_id"], "subnet_id": n["subnet_id"],
                "public_ip_id": public_ip_id, "ipconfig": n["ipconfig"], "vm": vm["name"], "vm_id": vm["arm_id"],
                "private_ip": "10.42.0.%d" % (4 + len(st.nics) % 250), "resourceGuid": new_uuid(), "etag": new_uuid()}
            vm["nic_ids"].append(nic_id)

    def act_virtualMachines_createOrUpdate(self, groups, params, body):
        st = self.state
        rg, name = groups["rg"], groups["vm"]
        with st.lock:
            self.group(rg)
        launch = self.validate_vm(rg, name, body)
        with st.lock:
            self.group(rg)
            vm = self.find_vm(rg, name)
            existing = vm is not None and vm["prov"] != "Failed"
            if vm is not None and vm["deleting_since"]:
                raise arm_error(409, "OperationNotAllowed", "Operation 'Put' is not allowed on VM '%s' since the VM is "
                                "marked for deletion. You can only retry the Delete operation (or wait for an ongoing "
                                "one to complete)." % vm["name"])
            if vm is not None:
                for what, old, new in (("hardwareProfile.vmSize", vm["instance_type"], launch["size"]),
                                       ("imageReference", vm["image"], launch["image"]),
                                       ("zones", vm["zone"], launch["zone"])):
                    if old != new:
                        raise arm_error(409, "PropertyChangeNotAllowed", "Changing property '%s' is not allowed."
                                        % what, target=what)
            if not existing:
                # A new VM (or a failed one tried again): quota first, then the allocation.
                if st.faults.get("quota_exceeded"):
                    raise self.quota_error(launch)
                sold_out = [str(z) for z in st.faults.get("no_capacity_zones") or []]
                failed = launch["zone"] in sold_out
                if vm is None:
                    vm = {"name": name, "rg": g_name(st, rg), "arm_id": self.vm_id(g_name(st, rg), name),
                          "created_at": time.time(), "vm_id": new_uuid(), "time_created": iso_now(), "gone": False,
                          "deleting_since": None, "describes": 0, "nic_ids": []}
                    st.vms.append(vm)
                vm.update({"id": name, "client_token": launch["tags"].get("gpuplanner-token", ""),
                           "instance_type": launch["size"], "region": launch["region"], "zone": launch["zone"],
                           "pricing": "spot" if launch["spot"] else "on_demand", "image": launch["image"],
                           "image_ref": launch["image_ref"], "ssh_keys": launch["keys"],
                           "user_data": launch["user_data"], "tags": launch["tags"], "max_price": launch["max_price"],
                           "eviction_policy": launch["eviction"], "resource_group": vm["rg"],
                           "admin_username": launch["user"], "priority": launch["priority"],
                           "computer_name": launch["computer_name"], "body": json.loads(json.dumps(body)),
                           "prov": "Creating", "power": "starting", "state": "Creating", "describes": 0,
                           "error": None})
                self.make_network(vm, launch)
                error = None
                if failed:
                    zonal = launch["zone"] != ""
                    error = {"code": "ZonalAllocationFailed" if zonal else "AllocationFailed",
                             "message": "Allocation failed. We do not have sufficient capacity for the requested VM "
                                        "size in this %s. Read more about improving likelihood of allocation success "
                                        "at http://aka.ms/allocation-guidance" % ("zone" if zonal else "region")}
                op = self.new_operation("Microsoft.Compute", launch["region"], params["api-version"], "vm.create", vm,
                                        error)
                out = self.show_vm(vm, expand=False)
                if failed:
                    vm.update({"prov": "Failed", "power": None, "state": "Failed", "error": error})
                status = 201
            else:
                vm["tags"] = launch["tags"]
                vm["client_token"] = launch["tags"].get("gpuplanner-token", vm["client_token"])
                op = None
                out = self.show_vm(vm, expand=False)
                status = 200
            if st.faults.get("internal_error_after_create", 0) > 0:
                st.faults["internal_error_after_create"] -= 1  # a resend of the same VM fails the same way
                raise arm_error(500, "InternalServerError", "An internal server error occurred. Please retry later.")
            drop = status == 201 and st.faults.get("drop_after_accept", 0) > 0
            if drop:
                st.faults["drop_after_accept"] -= 1
            hold = float(st.faults.get("hold_run_reply_s") or 0) if status == 201 else 0
            if hold:
                st.faults["hold_run_reply_s"] = 0
            headers = self.lro_headers(op) if op else {}
        if drop:
            self.close_without_answer()
            return
        if hold:
            time.sleep(hold)
        self.reply(status, out, headers)

    def vm_running(self, vm):
        vm.update({"prov": "Succeeded", "power": "running", "state": "Running"})

    def vm_gone(self, vm):
        """The VM is deleted: it leaves the API, its NIC and IP go with it when their deleteOption is Delete."""
        st = self.state
        vm["gone"] = True
        vm["state"] = "Terminated"
        for key, nic in list(st.nics.items()):
            if nic["vm"] == vm["name"] and nic["resource_group"].lower() == vm["rg"].lower():
                nic["vm"], nic["vm_id"] = "", ""
                if nic["delete_option"] == "Delete":
                    del st.nics[key]
        for key, ip in list(st.public_ips.items()):
            if ip["vm"] == vm["name"] and ip["resource_group"].lower() == vm["rg"].lower():
                ip["vm"] = ""
                if ip["delete_option"] == "Delete":
                    del st.public_ips[key]

    def shown(self, vm):
        """A VM was just shown: Creating becomes Succeeded/running after running_after answers; a Deleting one that
        is no longer slow was shown for the last time."""
        st = self.state
        if vm["deleting_since"]:
            if time.time() - vm["deleting_since"] >= float(st.faults.get("terminate_slow_s") or 0):
                self.vm_gone(vm)
        elif vm["prov"] == "Creating":
            vm["describes"] += 1
            if vm["describes"] >= st.running_after:
                self.vm_running(vm)

    def show_vm(self, vm, expand):
        body = vm["body"]
        props = body.get("properties") or {}
        os_profile = {k: v for k, v in (props.get("osProfile") or {}).items()
                      if k not in ("customData", "adminPassword")}
        os_profile.update({"secrets": [], "allowExtensionOperations": True, "requireGuestProvisionSignal": True})
        storage = json.loads(json.dumps(props.get("storageProfile") or {}))
        ref = storage.get("imageReference") or {}
        if not ref.get("id"):
            key = (ref.get("publisher", "").lower(), ref.get("offer", "").lower(), ref.get("sku", "").lower())
            ref["exactVersion"] = IMAGES.get(key, ref.get("version"))
        os_disk = storage.setdefault("osDisk", {})
        disk_name = "%s_OsDisk_1_%s" % (vm["name"], vm["vm_id"].replace("-", ""))
        os_disk.update({"osType": "Linux", "name": disk_name, "caching": os_disk.get("caching", "ReadWrite")})
        os_disk.setdefault("deleteOption", "Detach")
        managed = os_disk.setdefault("managedDisk", {})
        managed["id"] = "/subscriptions/%s/resourceGroups/%s/providers/Microsoft.Compute/disks/%s" % (
            self.state.subscription, vm["rg"].upper(), disk_name)
        storage.setdefault("dataDisks", [])
        network = json.loads(json.dumps(props.get("networkProfile") or {}))
        network["networkInterfaces"] = [
            {"id": nic_id, "properties": {"primary": i == 0, "deleteOption": vm_nic_delete(self.state, nic_id)}}
            for i, nic_id in enumerate(vm["nic_ids"])]
        state = "Deleting" if vm["deleting_since"] else vm["prov"]
        out_props = {"vmId": vm["vm_id"], "hardwareProfile": {"vmSize": vm["instance_type"]},
                     "storageProfile": storage, "osProfile": os_profile, "networkProfile": network,
                     "provisioningState": state, "timeCreated": vm["time_created"]}
        for key in ("priority", "evictionPolicy", "billingProfile", "diagnosticsProfile", "securityProfile"):
            if key in props:
                out_props[key] = json.loads(json.dumps(props[key]))
        if vm["pricing"] == "spot" and "evictionPolicy" not in out_props:
            out_props["evictionPolicy"] = vm["eviction_policy"]
        if expand:
            statuses = []
            now = iso_now()
            if state == "Failed":
                statuses.append({"code": "ProvisioningState/failed/%s" % vm["error"]["code"], "level": "Error",
                                 "displayStatus": "Provisioning failed", "message": vm["error"]["message"],
                                 "time": now})
            else:
                statuses.append({"code": "ProvisioningState/%s" % state.lower(), "level": "Info",
                                 "displayStatus": "Provisioning %s" % ("succeeded" if state == "Succeeded" else
                                                                       state.lower()), "time": now})
                power = "deallocating" if state == "Deleting" else vm["power"]
                if power:
                    statuses.append({"code": "PowerState/" + power, "level": "Info",
                                     "displayStatus": "VM " + power})
            out_props["instanceView"] = {"computerName": vm["computer_name"], "osName": "ubuntu",
                                         "osVersion": "22.04", "hyperVGeneration": "V2", "statuses": statuses}
            if vm["prov"] == "Succeeded":
                out_props["instanceView"]["vmAgent"] = {"vmAgentVersion": "2.12.0.2", "statuses": [
                    {"code": "ProvisioningState/succeeded", "level": "Info", "displayStatus": "Ready",
                     "message": "Guest Agent is running", "time": now}]}
        out = {"name": vm["name"], "id": vm["arm_id"], "type": "Microsoft.Compute/virtualMachines",
               "location": vm["region"], "tags": dict(vm["tags"]), "etag": '"%d"' % (1 + vm["describes"]),
               "properties": out_props}
        if vm["zone"]:
            out["zones"] = [vm["zone"]]
        return out

    def act_virtualMachines_get(self, groups, params, body):
        st = self.state
        with st.lock:
            self.group(groups["rg"])
            vm = self.find_vm(groups["rg"], groups["vm"])
            if vm is None or not self.visible(vm):
                raise not_found("Microsoft.Compute/virtualMachines", groups["vm"], groups["rg"])
            expand = params.get("$expand", "").lower() == "instanceview"
            out = self.show_vm(vm, expand)
            self.shown(vm)
        self.reply(200, out)

    def act_virtualMachines_list(self, groups, params, body):
        st = self.state
        with st.lock:
            g = self.group(groups["rg"])
            vms = [v for v in st.vms if v["rg"].lower() == g["name"].lower() and not v["gone"] and self.visible(v)]
            try:
                start = int(params.get("$skiptoken") or 0)
            except ValueError:
                raise arm_error(400, "InvalidParameter", "The $skiptoken is invalid.", target="$skiptoken")
            size = max(1, int(st.faults.get("page_size") or 50))
            page = vms[start:start + size]
            out = [self.show_vm(v, expand=False) for v in page]
            for v in page:
                self.shown(v)
        answer = {"value": out}
        if start + size < len(vms):
            answer["nextLink"] = "%s/subscriptions/%s/resourceGroups/%s/providers/Microsoft.Compute/virtualMachines" \
                                 "?api-version=%s&%%24skiptoken=%d" % (self.base_url(), st.subscription, g["name"],
                                                                      quote(params["api-version"]), start + size)
        self.reply(200, answer)

    def act_virtualMachines_delete(self, groups, params, body):
        st = self.state
        with st.lock:
            self.group(groups["rg"])
            vm = self.find_vm(groups["rg"], groups["vm"])
            if vm is None or not self.visible(vm):
                self.reply(204, None)
                return
            if not vm["deleting_since"]:
                vm["deleting_since"] = time.time()
                vm["state"] = "Terminating"
            op = self.new_operation("Microsoft.Compute", vm["region"], params["api-version"], "vm.delete", vm)
            headers = self.lro_headers(op, location=True)
        self.reply(202, None, headers)


def g_name(st, rg):
    """The resource group's name as it was created (ARM keeps the creator's case)."""
    return st.groups[rg.lower()]["name"]


def vm_nic_delete(st, nic_id):
    nic = next((n for n in st.nics.values() if n["id"] == nic_id), None)
    return nic["delete_option"] if nic else "Delete"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_credential_args(parser, SECRET)
    parser.add_argument("--subscription-id", default=SUBSCRIPTION)
    parser.add_argument("--running-after", type=int, default=2)
    parser.add_argument("--retry-after", type=int, default=1)
    args, rest = parser.parse_known_args()
    zones = {}
    i = 0
    while i < len(rest):
        arg = rest[i]
        if not arg.startswith("--zones-"):
            parser.error("unknown argument " + arg)
        region, _, value = arg[len("--zones-"):].partition("=")
        if not value and "=" not in arg:
            i += 1
            value = rest[i] if i < len(rest) else ""
        zones[norm_location(region)] = [z for z in value.split(",") if z]
        i += 1
    Handler.state = State(args, zones)
    return serve(Handler, args.port_file)


if __name__ == "__main__":
    sys.exit(main())
