#!/usr/bin/env node
// Sends every Google Compute Engine request GPU Planner's GCE provider makes through the official Node SDK, for
// tests/integration/TestGceWire.cpp. Usage:
//
//   node gce-wire.js < inputs.json > captured.json
//
// inputs.json holds the inputs the C++ test gives our provider (time, the service account's email and private key,
// project, region, the launches' zones, instance types, images, client tokens, tags, user data, termination times, the
// firewall's CIDR and description) and, in `answers`, the list of {label, status, body} the C++ test's recording
// transport answered, in order (tests/data/cloud/gcp, adapted to the sequence). Each operation below is sent once, in
// the provider's order, to a capture server that runs in this process on 127.0.0.1 and answers the i-th request with
// answers[i], so the SDK parses the same answer our provider read. stdout is a JSON array of
// {label, sdkError, method, url, headers [[name, value]...], body}.
//
// Clients: @google-cloud/compute 6.15.0 (google-gax 5 REST fallback: `fallback: true`), InstancesClient,
// FirewallsClient, GlobalOperationsClient, ZoneOperationsClient, ImagesClient, MachineTypesClient and
// AcceleratorTypesClient, each built with {apiEndpoint: '127.0.0.1', port, protocol: 'http', authClient}; the auth
// client is google-auth-library 10.9.1's JWT (email, key, scope cloud-platform), which signs its assertion for
// https://oauth2.googleapis.com/token and posts it there; a gaxios adapter sends that POST to the capture server's
// /token instead (the assertion is unchanged). The SDK's requests carry Host 127.0.0.1:<port>, not
// compute.googleapis.com (the C++ test does not compare Host); any other address throws. Date is frozen at
// inputs.time (the JWT's iat and exp).
// What each request holds is written here from the REST reference (https://cloud.google.com/compute/docs/reference/
// rest/v1) and the design the provider follows, with the inputs, not from our C++: the comparison is the test.
'use strict';

const crypto = require('crypto');
const http = require('http');

const {clearEnvironment, freezeClock} = require('./sandbox');

clearEnvironment(['GOOGLE_APPLICATION_CREDENTIALS', 'GOOGLE_CLOUD_PROJECT', 'GCLOUD_PROJECT', 'GCE_METADATA_HOST',
                  'GCE_METADATA_IP', 'GOOGLE_CLOUD_UNIVERSE_DOMAIN']);
const setClock = freezeClock();
const writeResult = process.stdout.write.bind(process.stdout);
process.stdout.write = (...args) => process.stderr.write(...args);

let answers = [];
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
        const index = captured.length;
        captured.push({method: req.method, url: req.url, headers, body});
        const answer = answers[index] ||
            {status: 500, body: '{"error":{"code":500,"message":"no answer","status":"INTERNAL"}}'};
        res.sendDate = false;
        res.writeHead(answer.status, {'Content-Type': 'application/json; charset=UTF-8', 'Connection': 'close'});
        res.end(answer.body);
    });
});

// A label key or value as Compute Engine takes it: "can only contain lowercase letters, numeric characters,
// underscores, and dashes", at most 63 characters (https://cloud.google.com/compute/docs/labeling-resources
// #requirements); other characters become '_' (GPU Planner's rule for the user's tags).
function labelText(text) {
    return Array.from(text.toLowerCase()).map((c) => (/[a-z0-9_-]/.test(c) ? c : '_')).join('').slice(0, 63);
}

// An RFC 4122 version-4-shaped UUID of SHA-256(seed) (requestId: "must be a valid UUID with the exception that zero
// UUID is not supported"): the insert's seed is the client token, the delete's "delete <zone>/<name>"
// (ComputeApi.h insertInstanceCall / deleteInstanceCall), so a resend is deduplicated.
function requestId(seed) {
    const b = crypto.createHash('sha256').update(seed, 'utf8').digest().subarray(0, 16);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const hex = b.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// RFC 3339 in UTC to the second, "2026-12-02T20:00:17Z" (Scheduling.terminationTime: "in RFC3339 text format").
function rfc3339(unixSeconds) {
    return new Date(unixSeconds * 1000).toISOString().replace('.000Z', 'Z');
}

// The N1 GPUs and their accelerator types ("n1-standard-8+1xT4": nvidia-tesla-t4, 1).
const N1_GPUS = {T4: 'nvidia-tesla-t4', V100: 'nvidia-tesla-v100', P100: 'nvidia-tesla-p100', P4: 'nvidia-tesla-p4'};
function instanceType(text) {
    const plus = text.indexOf('+');
    if (plus < 0) {
        return {machineType: text, accelerator: '', count: 0};
    }
    const m = /^(\d+)x(.+)$/.exec(text.slice(plus + 1));
    return {machineType: text.slice(0, plus), accelerator: N1_GPUS[m[2]], count: Number(m[1])};
}

// The firewall rule: SSH (TCP 22) from the CIDR only, to instances tagged with its name, on the network "default"
// (https://cloud.google.com/compute/docs/reference/rest/v1/firewalls).
function firewallResource(inputs) {
    return {
        name: inputs.firewall,
        network: `projects/${inputs.project}/global/networks/default`,
        direction: 'INGRESS',
        priority: 1000,
        allowed: [{IPProtocol: 'tcp', ports: ['22']}],
        sourceRanges: [inputs.cidr],
        targetTags: [inputs.firewall],
        description: inputs.firewallDescription,
    };
}

// The instance (https://cloud.google.com/compute/docs/reference/rest/v1/instances/insert).
function instanceResource(inputs, launch) {
    const type = instanceType(launch.instanceType);
    const zone = launch.zone;
    const labels = {'gpuplanner-token': launch.clientToken};
    for (const [key, value] of launch.tags) {
        labels[labelText(key)] = labelText(value);
    }
    const items = [{key: 'ssh-keys', value: `ubuntu:${inputs.publicKey}`}];
    if (launch.userData) {
        items.push({key: 'startup-script', value: launch.userData});
    }
    items.push({key: 'install-nvidia-driver', value: 'True'});
    const spot = launch.spot;
    // GPUs cannot live-migrate: onHostMaintenance TERMINATE; Spot: automaticRestart false and DELETE on preemption (the
    // default STOP keeps the disk billing); terminationTime (the provider-side dead-man) with DELETE.
    const scheduling = {onHostMaintenance: 'TERMINATE', provisioningModel: spot ? 'SPOT' : 'STANDARD',
                        automaticRestart: !spot};
    if (spot || launch.terminateAt > 0) {
        scheduling.instanceTerminationAction = 'DELETE';
    }
    if (launch.terminateAt > 0) {
        scheduling.terminationTime = rfc3339(launch.terminateAt);
    }
    const resource = {
        name: launch.clientToken,
        machineType: `zones/${zone}/machineTypes/${type.machineType}`,
        labels,
        disks: [{boot: true, autoDelete: true, initializeParams: {
            sourceImage: launch.image, diskSizeGb: inputs.diskGb, diskType: `zones/${zone}/diskTypes/pd-balanced`}}],
        networkInterfaces: [{network: 'global/networks/default',
                             accessConfigs: [{type: 'ONE_TO_ONE_NAT', name: 'External NAT'}]}],
        metadata: {items},
        scheduling,
        tags: {items: [inputs.firewall]},
    };
    if (type.accelerator) {
        resource.guestAccelerators = [{acceleratorType: `zones/${zone}/acceleratorTypes/${type.accelerator}`,
                                       acceleratorCount: type.count}];
    }
    return resource;
}

async function main() {
    const chunks = [];
    for await (const chunk of process.stdin) {
        chunks.push(chunk);
    }
    const inputs = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    answers = inputs.answers;
    setClock(inputs.time * 1000);
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = server.address().port;

    const compute = require('@google-cloud/compute');
    const {JWT} = require('google-auth-library');
    const auth = new JWT({
        email: inputs.clientEmail,
        key: inputs.privateKey,
        scopes: ['https://www.googleapis.com/auth/cloud-platform'],
        // The same transporter sends the API requests (already addressed to the capture server).
        transporterOptions: {adapter: (options, defaultAdapter) => {
            if (String(options.url) === 'https://oauth2.googleapis.com/token') {
                options.url = new URL(`http://127.0.0.1:${port}/token`);
            } else if (!String(options.url).startsWith(`http://127.0.0.1:${port}/`)) {
                throw new Error(`gce-wire.js: an unexpected request to ${options.url}`);
            }
            return defaultAdapter(options);
        }},
    });
    const options = {fallback: true, apiEndpoint: '127.0.0.1', port, protocol: 'http', authClient: auth};
    const instances = new compute.InstancesClient(options);
    const firewalls = new compute.FirewallsClient(options);
    const globalOperations = new compute.GlobalOperationsClient(options);
    const zoneOperations = new compute.ZoneOperationsClient(options);
    const images = new compute.ImagesClient(options);
    const machineTypes = new compute.MachineTypesClient(options);
    const acceleratorTypes = new compute.AcceleratorTypesClient(options);
    const project = inputs.project;
    // The operation's name in the i-th answer (what the provider waits for next).
    const operationIn = (index) => JSON.parse(answers[index].body).name;

    // Each step: [label of the request(s) it sends, function]. An aggregated list's iterator sends one request a page.
    const steps = [];
    const op = (label, run) => steps.push({label, run});
    const list = (label, iterable) => op(label, async () => {
        for await (const entry of iterable()) {
            void entry;
        }
    });
    // The token: requested by the JWT client before the first call; no request of its own here.
    const launches = inputs.launches;
    for (const launch of launches) {
        for (const family of launch.families) {
            op('images.getFromFamily', () => images.getFromFamily({project: 'deeplearning-platform-release', family}));
        }
        if (launch.firewall === 'create' || launch.firewall === 'found' || launch.firewall === 'repair') {
            op('firewalls.get', () => firewalls.get({project, firewall: inputs.firewall}));
        }
        if (launch.firewall === 'create') {
            op('firewalls.insert', () => firewalls.insert({project, firewallResource: firewallResource(inputs)}));
        }
        if (launch.firewall === 'repair') {
            op('firewalls.patch', () => firewalls.patch(
                {project, firewall: inputs.firewall, firewallResource: firewallResource(inputs)}));
        }
        if (launch.firewall === 'create' || launch.firewall === 'repair') {
            op('globalOperations.wait', (index) => globalOperations.wait({project, operation: operationIn(index - 1)}));
        }
        if (launch.chooseZone) {
            const type = instanceType(launch.instanceType);
            list('machineTypes.aggregatedList',
                 () => machineTypes.aggregatedListAsync({project, filter: `name = "${type.machineType}"`}));
            if (type.accelerator) {
                list('acceleratorTypes.aggregatedList',
                     () => acceleratorTypes.aggregatedListAsync({project, filter: `name = "${type.accelerator}"`}));
            }
        }
        op('instances.insert', () => instances.insert({project, zone: launch.zone,
                                                       requestId: requestId(launch.clientToken),
                                                       instanceResource: instanceResource(inputs, launch)}));
        if (launch.exists) {
            op('instances.get', () => instances.get({project, zone: launch.zone, instance: launch.clientToken}));
        } else {
            op('zoneOperations.wait',
               (index) => zoneOperations.wait({project, zone: launch.zone, operation: operationIn(index - 1)}));
        }
    }
    op('instances.get', () => instances.get({project, zone: inputs.describe.zone, instance: inputs.describe.name}));
    list('instances.aggregatedList', () => instances.aggregatedListAsync(
        {project, filter: 'labels.gpuplanner-token:*', maxResults: inputs.pageSize}));
    const ref = `${inputs.terminate.zone}/${inputs.terminate.name}`;
    const terminate = inputs.terminate;
    op('instances.delete', () => instances.delete(
        {project, zone: terminate.zone, instance: terminate.name, requestId: requestId(`delete ${ref}`)}));

    const errors = [];
    for (const step of steps) {
        const before = captured.length;
        let sdkError = '';
        try {
            await step.run(before);
        } catch (error) {
            sdkError = String(error.code || error.message || error);
            if (captured.length === before) {
                throw new Error(`${step.label} sent nothing: ${error.stack || error}`);
            }
        }
        for (let i = before; i < captured.length; ++i) {
            // The token request the JWT client sent before the step's first call was answered 200.
            errors[i] = answers[i] && answers[i].label === 'token' ? '' : sdkError;
        }
    }
    const out = captured.map((request, i) => Object.assign({label: answers[i] ? answers[i].label : '(none)',
                                                            sdkError: errors[i] || ''}, request));
    writeResult(JSON.stringify(out));
    server.close();
}

main().catch((error) => {
    process.stderr.write(`gce-wire.js: ${error.stack || error}\n`);
    process.exit(1);
});
