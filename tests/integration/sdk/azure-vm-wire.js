#!/usr/bin/env node
// Sends every Azure Resource Manager request GPU Planner's Azure VM provider makes through the official Node SDKs, for
// tests/integration/TestAzureVmWire.cpp. Usage:
//
//   node azure-vm-wire.js < inputs.json > captured.json
//
// inputs.json holds the inputs the C++ test gives our provider (tenant, client id and secret, region, the launches'
// sizes, zones, pricing, spot price limits, user data, tags and client tokens, the SSH key and CIDR, the NSG's name
// and its rule's description) and, in `answers`, the list of {label, status, headers, body} the C++ test's recording
// transport answered, in order (tests/data/cloud/azure, adapted to the sequence). Each operation below is sent once, in
// the provider's order, to a capture server that runs in this process on 127.0.0.1 and answers each request with the
// next answer, "https://management.azure.com" in its headers and body (the Azure-AsyncOperation URL, a nextLink)
// replaced by the capture server's own base, so the SDK parses the same answer our provider read. stdout is a JSON
// array of {label, sdkOnly, sdkError, method, url, headers [[name, value]...], body}.
//
// Clients: @azure/arm-compute 22.4.0 (ComputeManagementClient: resourceSkus, virtualMachineImages, virtualMachines),
// @azure/arm-network 33.5.0 (NetworkManagementClient: networkSecurityGroups, securityRules, virtualNetworks,
// networkInterfaces, publicIPAddresses), @azure/arm-resources 6.1.0 (ResourceManagementClient: resourceGroups), each
// with {endpoint, $host: the capture server's http base, allowInsecureConnection}. @azure/core-rest-pipeline 1.24.0's
// bearerTokenAuthenticationPolicy refuses any http URL whatever allowInsecureConnection says, so the clients share a
// pipeline (@azure/core-client createClientPipeline) holding a policy of that name (the clients then keep it instead
// of adding theirs) that sets the same "Authorization: Bearer <token>" header from the token the token endpoint gave
// (as tests/integration/fakes/test_fake_azure_vm.py does).
//
// Two requests have no SDK installed here, and are hand-built from their references:
//  - the token: @azure/identity (ClientSecretCredential, through MSAL) is not installed. The client-credentials
//    request as the Microsoft identity platform documents it ("First case: Access token request with a shared
//    secret", https://learn.microsoft.com/entra/identity-platform/v2-oauth2-client-creds-grant-flow): POST
//    /{tenant}/oauth2/v2.0/token, Content-Type application/x-www-form-urlencoded, the form client_id, scope,
//    client_secret, grant_type=client_credentials;
//  - Subscriptions - List (GET /subscriptions?api-version=2022-12-01,
//    https://learn.microsoft.com/rest/api/resources/subscriptions/list?view=rest-resources-2022-12-01): the
//    subscriptions client (@azure/arm-resources-subscriptions) is not installed; the operation is sent through
//    @azure/core-client's ServiceClient with an OperationSpec written the way the generated clients write theirs
//    ($host, the constant api-version query parameter, Accept application/json).
// What each request holds is written here from the REST reference (https://learn.microsoft.com/rest/api/compute,
// /virtualnetwork, /resources) and the design the provider follows (core/include/gpuplan/cloud/providers/azure/
// ArmApi.h: the names, the one resource group per region, the inline NIC and public IP), with the inputs, not from our
// C++: the SDK's models serialize them; the comparison is the test.
//
// The SDKs' long-running operations (beginCreateOrUpdate) poll the Azure-AsyncOperation URL and, once it says
// Succeeded, GET the resource again (@azure/core-lro 2.7.2 http/operation.js findResourceLocation: a PUT's resource
// location is its own path). Our provider does not read the resource again; that GET is marked sdkOnly and answered
// with the PUT's answer (status 200). A delete is only begun (beginDelete, not waited for), as the provider does;
// beginDelete polls its operation once before it returns, and that poll is marked sdkOnly too.
'use strict';

const http = require('http');

// Node 18 (Debian 12's) has Web Crypto only as require('crypto').webcrypto; the Azure SDK's core calls the global
// crypto.randomUUID, which Node 20 has.
if (!globalThis.crypto) {
    globalThis.crypto = require('crypto').webcrypto;
}

const {clearEnvironment} = require('./sandbox');

clearEnvironment(['AZURE_TENANT_ID', 'AZURE_CLIENT_ID', 'AZURE_CLIENT_SECRET', 'AZURE_SUBSCRIPTION_ID',
                  'AZURE_AUTHORITY_HOST', 'AZURE_LOG_LEVEL', 'AZURE_HTTP_USER_AGENT']);
const writeResult = process.stdout.write.bind(process.stdout);
process.stdout.write = (...args) => process.stderr.write(...args);

const ARM = 'https://management.azure.com';

// The design's names and values (ArmApi.h), for the bodies.
const ADMIN_USER = 'ubuntu';
const IMAGE = {publisher: 'microsoft-dsvm', offer: 'ubuntu-hpc', sku: '2204', version: 'latest'};
const OS_DISK_GB = 200;
const VNET = 'gpuplanner-vnet';
const VNET_CIDR = '10.42.0.0/16';
const SUBNET = 'default';
const SUBNET_CIDR = '10.42.0.0/24';
const SSH_RULE = 'ssh';
const SSH_PRIORITY = 1000;
const GROUP_TAGS = {gpuplanner: 'true'};
const OWNER_TAG = 'gpuplanner-token';
// networkProfile.networkApiVersion: required with networkInterfaceConfigurations (the example
// VirtualMachine_Create_WithNetworkInterfaceConfiguration sends 2020-11-01).
const INLINE_NETWORK_API_VERSION = '2020-11-01';
const SCOPE = 'https://management.azure.com/.default';
const SUBSCRIPTIONS_API_VERSION = '2022-12-01';

let queue = []; // the answers, in the order the SDK's requests come
let base = '';
const captured = [];
const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const headers = [];
        for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
            headers.push([req.rawHeaders[i], req.rawHeaders[i + 1]]);
        }
        const answer = queue[captured.length] ||
            {label: '(none)', status: 500, headers: [],
             body: '{"error":{"code":"InternalServerError","message":"no answer"}}'};
        captured.push({label: answer.label, sdkOnly: Boolean(answer.sdkOnly), method: req.method, url: req.url,
                       headers, body});
        const local = (text) => text.split(ARM).join(base);
        const out = {'Content-Type': 'application/json; charset=utf-8', 'Connection': 'close'};
        for (const [name, value] of answer.headers || []) {
            out[name] = local(value);
        }
        res.sendDate = false;
        res.writeHead(answer.status, out);
        res.end(local(answer.body || ''));
    });
});

// The name at the end of an ARM id (".../networkInterfaces/<name>").
function lastName(id) {
    return String(id).split('/').pop();
}

// The NSG's one rule: TCP 22 inbound from the CIDR only
// (https://learn.microsoft.com/rest/api/virtualnetwork/security-rules/create-or-update).
function sshRule(inputs) {
    return {protocol: 'Tcp', sourcePortRange: '*', destinationPortRange: '22', sourceAddressPrefix: inputs.cidr,
            destinationAddressPrefix: '*', access: 'Allow', priority: SSH_PRIORITY, direction: 'Inbound',
            description: inputs.ruleDescription};
}

// The VM (https://learn.microsoft.com/rest/api/compute/virtual-machines/create-or-update): the key for the admin
// user, the user data as customData (base64), the NIC and its Standard static public IP inline, deleted with the VM
// as its OS disk is; Spot: priority Spot, evictionPolicy Delete, billingProfile.maxPrice the limit (-1: no limit).
function vmResource(inputs, launch, subscription) {
    const group = `/subscriptions/${subscription}/resourceGroups/gpuplanner-${inputs.region}`;
    const name = launch.clientToken;
    const tags = {};
    for (const [key, value] of launch.tags) {
        tags[key] = value;
    }
    tags[OWNER_TAG] = name;
    const osProfile = {
        computerName: name,
        adminUsername: ADMIN_USER,
        linuxConfiguration: {disablePasswordAuthentication: true, ssh: {publicKeys: [
            {path: `/home/${ADMIN_USER}/.ssh/authorized_keys`, keyData: inputs.publicKey}]}},
    };
    if (launch.userData) {
        osProfile.customData = Buffer.from(launch.userData, 'utf8').toString('base64');
    }
    const vm = {
        location: inputs.region,
        tags,
        hardwareProfile: {vmSize: launch.size},
        storageProfile: {
            imageReference: launch.image ? {id: launch.image} : IMAGE,
            osDisk: {createOption: 'FromImage', deleteOption: 'Delete',
                     managedDisk: {storageAccountType: 'Premium_LRS'}, diskSizeGB: OS_DISK_GB},
        },
        osProfile,
        networkProfile: {
            networkApiVersion: INLINE_NETWORK_API_VERSION,
            networkInterfaceConfigurations: [{
                name: `${name}-nic`,
                primary: true,
                deleteOption: 'Delete',
                networkSecurityGroup: {id: `${group}/providers/Microsoft.Network/networkSecurityGroups/${inputs.nsg}`},
                ipConfigurations: [{
                    name: 'ipconfig',
                    primary: true,
                    subnet: {id: `${group}/providers/Microsoft.Network/virtualNetworks/${VNET}/subnets/${SUBNET}`},
                    publicIPAddressConfiguration: {name: `${name}-ip`, sku: {name: 'Standard'}, deleteOption: 'Delete',
                                                   publicIPAllocationMethod: 'Static'},
                }],
            }],
        },
    };
    if (launch.zone) {
        vm.zones = [launch.zone];
    }
    if (launch.spot) {
        vm.priority = 'Spot';
        vm.evictionPolicy = 'Delete';
        vm.billingProfile = {maxPrice: launch.maxPrice > 0 ? launch.maxPrice : -1};
    }
    return vm;
}

// The client-credentials token request (see the top), sent with Node's http client.
function requestToken(inputs) {
    const form = new URLSearchParams({client_id: inputs.clientId, scope: SCOPE, client_secret: inputs.clientSecret,
                                      grant_type: 'client_credentials'}).toString();
    return new Promise((resolve, reject) => {
        const req = http.request(`${base}/${encodeURIComponent(inputs.tenant)}/oauth2/v2.0/token`, {
            method: 'POST',
            headers: {'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': Buffer.byteLength(form)},
        }, (res) => {
            const parts = [];
            res.on('data', (c) => parts.push(c));
            res.on('end', () => resolve(JSON.parse(Buffer.concat(parts).toString('utf8'))));
        });
        req.on('error', reject);
        req.end(form);
    });
}

async function main() {
    const chunks = [];
    for await (const chunk of process.stdin) {
        chunks.push(chunk);
    }
    const inputs = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${server.address().port}`;

    const {ComputeManagementClient} = require('@azure/arm-compute');
    const {NetworkManagementClient} = require('@azure/arm-network');
    const {ResourceManagementClient} = require('@azure/arm-resources');
    const {ServiceClient, createClientPipeline, createSerializer} = require('@azure/core-client');
    const {bearerTokenAuthenticationPolicyName} = require('@azure/core-rest-pipeline');

    // The answers in the SDK's order: ours, and after each create's last poll the answer to its resource's GET.
    const answers = inputs.answers;
    let next = 0;
    const take = (label) => {
        const answer = answers[next];
        if (!answer || answer.label !== label) {
            throw new Error(`azure-vm-wire.js: answer ${next} is ${answer && answer.label}, expected ${label}`);
        }
        ++next;
        queue.push(answer);
        return answer;
    };
    // A create: its PUT, every poll of its operation, then the SDK's own GET of the resource.
    const takeCreate = (label) => {
        const put = take(label);
        while (answers[next] && answers[next].label === `poll ${label}`) {
            take(`poll ${label}`);
        }
        queue.push({label: `final GET ${label}`, sdkOnly: true, status: 200, headers: [], body: put.body});
    };

    const tokenAnswer = JSON.parse(take('token').body);
    const token = await requestToken(inputs);
    if (token.access_token !== tokenAnswer.access_token) {
        throw new Error('azure-vm-wire.js: the token answer was not read back');
    }
    const credential = {getToken: async () => ({token: token.access_token,
                                                 expiresOnTimestamp: Date.now() + 3000 * 1000})};
    const pipeline = createClientPipeline({});
    pipeline.addPolicy({name: bearerTokenAuthenticationPolicyName, sendRequest: async (request, nextPolicy) => {
        const access = await credential.getToken([SCOPE]);
        request.headers.set('Authorization', `Bearer ${access.token}`);
        return nextPolicy(request);
    }}, {phase: 'Sign'});
    const options = {endpoint: base, $host: base, allowInsecureConnection: true, pipeline, credentialScopes: [SCOPE]};

    const steps = [];
    const op = (run) => steps.push(run);
    const fast = {updateIntervalInMs: 1};

    // Subscriptions - List (see the top), through a ServiceClient; the one Enabled subscription is used.
    let subscription = '';
    op(async () => {
        take('Subscriptions_List');
        const client = new ServiceClient(options);
        const serializer = createSerializer({}, false);
        let listed = {value: []};
        const onResponse = (raw) => {
            listed = JSON.parse(raw.bodyAsText);
        };
        await client.sendOperationRequest({$host: base, options: {onResponse}}, {
            path: '/subscriptions',
            httpMethod: 'GET',
            responses: {200: {}},
            queryParameters: [{parameterPath: 'apiVersion', mapper: {defaultValue: SUBSCRIPTIONS_API_VERSION,
                                                                     isConstant: true, serializedName: 'api-version',
                                                                     type: {name: 'String'}}}],
            urlParameters: [{parameterPath: '$host', mapper: {serializedName: '$host', required: true,
                                                              type: {name: 'String'}}, skipEncoding: true}],
            headerParameters: [{parameterPath: 'accept', mapper: {defaultValue: 'application/json', isConstant: true,
                                                                  serializedName: 'Accept', type: {name: 'String'}}}],
            serializer,
        });
        const enabled = listed.value.filter((s) => s.state === 'Enabled');
        if (enabled.length !== 1) {
            throw new Error('azure-vm-wire.js: not one enabled subscription');
        }
        subscription = enabled[0].subscriptionId;
    });
    let compute;
    let network;
    let resources;
    const group = `gpuplanner-${inputs.region}`;
    op(async () => {
        compute = new ComputeManagementClient(credential, subscription, options);
        network = new NetworkManagementClient(credential, subscription, options);
        resources = new ResourceManagementClient(credential, subscription, options);
    });
    // ResourceSkus - List of the region (one page here).
    op(async () => {
        take('ResourceSkus_List');
        for await (const sku of compute.resourceSkus.list({filter: `location eq '${inputs.region}'`})) {
            void sku;
        }
    });
    for (const launch of inputs.launches) {
        if (!launch.image) {
            op(async () => {
                take('VirtualMachineImages_List');
                await compute.virtualMachineImages.list(inputs.region, IMAGE.publisher, IMAGE.offer, IMAGE.sku,
                                                        {top: 1, orderby: 'name desc'});
            });
        }
        op(async () => {
            take('ResourceGroups_CreateOrUpdate');
            await resources.resourceGroups.createOrUpdate(group, {location: inputs.region, tags: GROUP_TAGS});
        });
        op(async () => {
            take(launch.nsgStep === 'create' ? 'NetworkSecurityGroups_Get-absent' : 'NetworkSecurityGroups_Get');
            await network.networkSecurityGroups.get(group, inputs.nsg);
        });
        if (launch.nsgStep === 'create') {
            op(async () => {
                takeCreate('NetworkSecurityGroups_CreateOrUpdate');
                await network.networkSecurityGroups.beginCreateOrUpdateAndWait(group, inputs.nsg, {
                    location: inputs.region, tags: GROUP_TAGS, securityRules: [{name: SSH_RULE, ...sshRule(inputs)}]},
                fast);
            });
        } else if (launch.nsgStep === 'repair') {
            op(async () => {
                takeCreate('SecurityRules_CreateOrUpdate');
                await network.securityRules.beginCreateOrUpdateAndWait(group, inputs.nsg, SSH_RULE, sshRule(inputs),
                                                                       fast);
            });
        }
        op(async () => {
            take(launch.vnetStep === 'create' ? 'VirtualNetworks_Get-absent' : 'VirtualNetworks_Get');
            await network.virtualNetworks.get(group, VNET);
        });
        if (launch.vnetStep === 'create') {
            op(async () => {
                takeCreate('VirtualNetworks_CreateOrUpdate');
                await network.virtualNetworks.beginCreateOrUpdateAndWait(group, VNET, {
                    location: inputs.region, tags: GROUP_TAGS, addressSpace: {addressPrefixes: [VNET_CIDR]},
                    subnets: [{name: SUBNET, addressPrefix: SUBNET_CIDR}]}, fast);
            });
        }
        // The resend check: the VM by its name (the client token), 404 here.
        op(async () => {
            take('VirtualMachines_Get-absent');
            await compute.virtualMachines.get(group, launch.clientToken);
        });
        op(async () => {
            takeCreate('VirtualMachines_CreateOrUpdate');
            await compute.virtualMachines.beginCreateOrUpdateAndWait(group, launch.clientToken,
                                                                     vmResource(inputs, launch, subscription), fast);
        });
    }
    // describe: the VM with its instance view, its primary NIC, the NIC's public IP (names from the SDK's models).
    op(async () => {
        take('VirtualMachines_Get');
        const vm = await compute.virtualMachines.get(group, inputs.describe, {expand: 'instanceView'});
        take('NetworkInterfaces_Get');
        const nic = await network.networkInterfaces.get(group, lastName(vm.networkProfile.networkInterfaces[0].id));
        take('PublicIPAddresses_Get');
        await network.publicIPAddresses.get(group, lastName(nic.ipConfigurations[0].publicIPAddress.id));
    });
    // listOurs: the group's VMs page by page; each VM with the owner tag read with its instance view.
    op(async () => {
        const {getContinuationToken} = require('@azure/arm-compute');
        let page = 0;
        const pages = compute.virtualMachines.list(group).byPage();
        for (;;) {
            take(`VirtualMachines_List-${++page}`);
            const result = await pages.next();
            if (result.done) {
                throw new Error('azure-vm-wire.js: the list ended early');
            }
            for (const vm of result.value) {
                if (vm.tags && vm.tags[OWNER_TAG]) {
                    take('VirtualMachines_Get');
                    await compute.virtualMachines.get(group, vm.name, {expand: 'instanceView'});
                }
            }
            if (!getContinuationToken(result.value)) {
                break;
            }
        }
    });
    op(async () => {
        // beginDelete polls the operation once before it returns the poller (arm-compute virtualMachines.js
        // beginDelete: `await poller.poll()`): that poll is the SDK's own, answered InProgress.
        take('VirtualMachines_Delete');
        queue.push({label: 'poll VirtualMachines_Delete', sdkOnly: true, status: 200, headers: [],
                    body: '{"status":"InProgress"}'});
        await compute.virtualMachines.beginDelete(group, inputs.terminate);
    });

    const errors = [];
    for (const step of steps) {
        const before = captured.length;
        let sdkError = '';
        try {
            await step();
        } catch (error) {
            sdkError = String(error.code || error.statusCode || error.message || error);
            if (captured.length === before) {
                throw new Error(`a step sent nothing: ${error.stack || error}`);
            }
        }
        for (let i = before; i < captured.length; ++i) {
            errors[i] = sdkError;
        }
    }
    if (next !== answers.length) {
        throw new Error(`azure-vm-wire.js: ${answers.length - next} answers were not asked for`);
    }
    const out = captured.map((request, i) => Object.assign({sdkError: errors[i] || ''}, request));
    writeResult(JSON.stringify(out));
    server.close();
}

main().catch((error) => {
    process.stderr.write(`azure-vm-wire.js: ${error.stack || error}\n`);
    process.exit(1);
});
