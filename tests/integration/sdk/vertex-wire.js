#!/usr/bin/env node
// Sends every Vertex AI and Cloud Logging request GPU Planner's Vertex job service makes through the official Node
// SDKs, for tests/integration/TestVertexWire.cpp. Usage:
//
//   node vertex-wire.js < inputs.json > captured.json
//
// inputs.json holds the inputs the C++ test gives our service (time, the service account's email and private key,
// project, region, the launches' client tokens, offers, job image, command and environment, tags, spot, timeout, the
// job id described, cancelled and read, the log cursor) and, in `answers`, the list of {label, status, body} the C++
// test's recording transport answered, in order (tests/data/cloud/vertex, adapted). Each operation below is sent once,
// in the service's order, to a capture server in this process on 127.0.0.1 that answers the i-th request with
// answers[i]. stdout is a JSON array of {label, sdkError, method, url, headers [[name, value]...], body}.
//
// Clients: @google-cloud/aiplatform 6.11.0 v1.JobServiceClient (google-gax 5, REST fallback: `fallback: true`) and
// @google-cloud/logging 11.4.0 v2.LoggingServiceV2Client (google-gax 4, REST fallback), each built with
// {apiEndpoint: '127.0.0.1', port, protocol: 'http', authClient}; the auth client is google-auth-library 10.9.1's JWT
// (scope cloud-platform), whose token POST to https://oauth2.googleapis.com/token goes to the capture server's /token.
// What each request holds is written here from the REST references (https://cloud.google.com/vertex-ai/docs/reference/
// rest/v1/projects.locations.customJobs, https://cloud.google.com/logging/docs/reference/v2/rest/v2/entries/list) and
// the design the service follows (/work/notes/jobs-design.md), with the inputs, not from our C++.
'use strict';

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
        const headers = [];
        for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
            headers.push([req.rawHeaders[i], req.rawHeaders[i + 1]]);
        }
        const index = captured.length;
        captured.push({method: req.method, url: req.url, headers, body: Buffer.concat(chunks).toString('utf8')});
        const answer = answers[index] ||
            {status: 500, body: '{"error":{"code":500,"message":"no answer","status":"INTERNAL"}}'};
        res.sendDate = false;
        res.writeHead(answer.status, {'Content-Type': 'application/json; charset=UTF-8', 'Connection': 'close'});
        res.end(answer.body);
    });
});

// A label key or value as Google takes it: lowercase letters, digits, '_' and '-', at most 63 here; other characters
// become '_' (GPU Planner's rule for the user's tags, as for Compute Engine).
function labelText(text) {
    return Array.from(text.toLowerCase()).map((c) => (/[a-z0-9_-]/.test(c) ? c : '_')).join('').slice(0, 63);
}

// The catalog's Vertex offers and their MachineSpec (accelerator names of accelerator_type.proto; GPUs per machine
// type from https://cloud.google.com/compute/docs/gpus).
const N1_GPUS = {T4: 'NVIDIA_TESLA_T4', V100: 'NVIDIA_TESLA_V100', P100: 'NVIDIA_TESLA_P100', P4: 'NVIDIA_TESLA_P4'};
const G2_GPUS = {4: 1, 8: 1, 12: 1, 16: 1, 32: 1, 24: 2, 48: 4, 96: 8};
function machineSpec(offer) {
    const type = offer.replace(/^vertex\//, '');
    let m = /^(n1-[a-z]+-\d+)\+(\d+)x(.+)$/.exec(type);
    if (m) {
        return {machineType: m[1], acceleratorType: N1_GPUS[m[3]], acceleratorCount: Number(m[2])};
    }
    if ((m = /^a2-highgpu-(\d+)g$/.exec(type))) {
        return {machineType: type, acceleratorType: 'NVIDIA_TESLA_A100', acceleratorCount: Number(m[1])};
    }
    if ((m = /^a2-ultragpu-(\d+)g$/.exec(type))) {
        return {machineType: type, acceleratorType: 'NVIDIA_A100_80GB', acceleratorCount: Number(m[1])};
    }
    if ((m = /^g2-standard-(\d+)$/.exec(type))) {
        return {machineType: type, acceleratorType: 'NVIDIA_L4', acceleratorCount: G2_GPUS[m[1]]};
    }
    if (type === 'a3-highgpu-8g') {
        return {machineType: type, acceleratorType: 'NVIDIA_H100_80GB', acceleratorCount: 8};
    }
    if (type === 'a3-ultragpu-8g') {
        return {machineType: type, acceleratorType: 'NVIDIA_H200_141GB', acceleratorCount: 8};
    }
    throw new Error(`vertex-wire.js: no MachineSpec for ${offer}`);
}

// The CustomJob of a launch (jobs-design.md, provider_launch_apis.md 9.1).
function customJob(inputs, launch) {
    const labels = {'gpuplanner-token': launch.clientToken};
    for (const [key, value] of launch.tags) {
        labels[labelText(key)] = labelText(value);
    }
    const containerSpec = {imageUri: inputs.image};
    if (inputs.command.length) {
        containerSpec.command = inputs.command;
    }
    if (inputs.env.length) {
        containerSpec.env = inputs.env.map(([name, value]) => ({name, value}));
    }
    const jobSpec = {workerPoolSpecs: [{
        replicaCount: 1,
        machineSpec: machineSpec(launch.instanceType),
        diskSpec: {bootDiskType: 'pd-ssd', bootDiskSizeGb: 100},
        containerSpec,
    }]};
    const scheduling = {};
    if (launch.timeoutSeconds > 0) {
        scheduling.timeout = {seconds: launch.timeoutSeconds};
    }
    if (launch.spot) {
        scheduling.strategy = 'SPOT';
    }
    if (Object.keys(scheduling).length) {
        jobSpec.scheduling = scheduling;
    }
    return {displayName: launch.clientToken, labels, jobSpec};
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

    const aiplatform = require('@google-cloud/aiplatform');
    const logging = require('@google-cloud/logging');
    const {JWT} = require('google-auth-library');
    const auth = new JWT({
        email: inputs.clientEmail,
        key: inputs.privateKey,
        scopes: ['https://www.googleapis.com/auth/cloud-platform'],
        transporterOptions: {adapter: (options, defaultAdapter) => {
            if (String(options.url) === 'https://oauth2.googleapis.com/token') {
                options.url = new URL(`http://127.0.0.1:${port}/token`);
            } else if (!String(options.url).startsWith(`http://127.0.0.1:${port}/`)) {
                throw new Error(`vertex-wire.js: an unexpected request to ${options.url}`);
            }
            return defaultAdapter(options);
        }},
    });
    const options = {fallback: true, apiEndpoint: '127.0.0.1', port, protocol: 'http', authClient: auth};
    const jobs = new aiplatform.v1.JobServiceClient(options);
    const logs = new logging.v2.LoggingServiceV2Client(options);
    // JobServiceClient sets useJWTAccessWithScope: the SDK then authorizes with a self-signed JWT instead of exchanging
    // it for an access token at the token endpoint. GPU Planner exchanges it (as for Compute Engine); both are
    // Google's documented service-account flows. Switched off here so that the token exchange is compared too.
    auth.useJWTAccessWithScope = false;
    const parent = `projects/${inputs.project}/locations/${inputs.region}`;
    const jobName = `${parent}/customJobs/${inputs.jobId}`;

    const steps = [];
    const op = (label, run) => steps.push({label, run});
    const list = (label, filter) => op(label, async () => {
        for await (const job of jobs.listCustomJobsAsync({parent, filter})) {
            void job;
        }
    });
    for (const launch of inputs.launches) {
        list('customJobs.list', `labels.gpuplanner-token="${launch.clientToken}"`);
        if (!launch.found) {
            op('customJobs.create', () => jobs.createCustomJob({parent, customJob: customJob(inputs, launch)}));
        }
    }
    op('customJobs.get', () => jobs.getCustomJob({name: jobName}));
    list('customJobs.list', 'labels.gpuplanner-token:*');
    op('customJobs.cancel', () => jobs.cancelCustomJob({name: jobName}));
    for (const cursor of inputs.logCursors) {
        let filter = `resource.type="ml_job" AND resource.labels.job_id="${inputs.jobId}"`;
        if (cursor) {
            filter += ` AND timestamp>="${cursor}"`;
        }
        op('entries.list', () => logs.listLogEntries(
            {resourceNames: [`projects/${inputs.project}`], filter, orderBy: 'timestamp asc', pageSize: 1000},
            {autoPaginate: false}));
    }

    const errors = [];
    for (const step of steps) {
        const before = captured.length;
        let sdkError = '';
        try {
            await step.run();
        } catch (error) {
            sdkError = String(error.code || error.message || error);
            if (captured.length === before) {
                throw new Error(`${step.label} sent nothing: ${error.stack || error}`);
            }
        }
        for (let i = before; i < captured.length; ++i) {
            errors[i] = answers[i] && answers[i].label === 'token' ? '' : sdkError;
        }
    }
    const out = captured.map((request, i) => Object.assign({label: answers[i] ? answers[i].label : '(none)',
                                                            sdkError: errors[i] || ''}, request));
    writeResult(JSON.stringify(out));
    server.close();
}

main().catch((error) => {
    process.stderr.write(`vertex-wire.js: ${error.stack || error}\n`);
    process.exit(1);
});
