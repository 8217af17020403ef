#!/usr/bin/env node
// Sends every Azure Resource Manager request GPU Planner's Azure Machine Learning job service makes through the
// official Node SDK, for tests/integration/TestAzureMlWire.cpp. Usage:
//
//   node azureml-wire.js < inputs.json > captured.json
//
// inputs.json holds what the C++ test gave our service (subscription, workspace, region, VM size, image, the job's
// token, command, environment, timeout and tags) and, in `answers`, the {label, status, headers, body} our service
// was answered, in order (tests/data/cloud/azureml, adapted). Each operation below is sent once, in the service's
// order, to a capture server on 127.0.0.1 that answers each request with the next answer
// ("https://management.azure.com" in headers and bodies replaced by its own base). stdout is a JSON array of
// {label, sdkOnly, sdkError, method, url, headers [[name, value]...], body}.
//
// Client: @azure/arm-machinelearning 2.1.1 (AzureMachineLearningWorkspaces: workspaces.get, jobs.get,
// computeOperations.get / beginCreateOrUpdate, environmentVersions.get / createOrUpdate, jobs.createOrUpdate,
// jobs.list, jobs.beginCancel) with {endpoint, $host: the capture server, allowInsecureConnection} and a pipeline
// whose bearer policy sets "Authorization: Bearer <token>" (core-rest-pipeline's own refuses http URLs; as
// azure-vm-wire.js does). The bodies are written here from the REST spec (Compute/createOrUpdate/AmlCompute.json,
// EnvironmentVersion/createOrUpdate.json, Job/CommandJob/createOrUpdate.json) and the design
// (core/include/gpuplan/cloud/providers/azure/AzureMlApi.h), not from our C++; the SDK's models serialize them.
//
// beginCreateOrUpdate polls the Azure-AsyncOperation URL and then GETs the resource again (@azure/core-lro); our
// service does not read the cluster again: that GET is marked sdkOnly and answered with the PUT's body.
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
const SCOPE = 'https://management.azure.com/.default';
// The design's values (AzureMlApi.h).
const OWNER_TAG = 'gpuplanner-token';
const EXPERIMENT = 'gpuplanner';
const IDLE = 'PT2M';

let queue = [];
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

// POSIX shell quoting of one word: as it is when it holds only safe characters, else in single quotes.
function quote(word) {
    if (word.length > 0 && /^[A-Za-z0-9@%+=:,./_-]+$/.test(word)) {
        return word;
    }
    return `'${word.split('\'').join('\'\\\'\'')}'`;
}

async function main() {
    const chunks = [];
    for await (const chunk of process.stdin) {
        chunks.push(chunk);
    }
    const inputs = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${server.address().port}`;

    const {AzureMachineLearningWorkspaces} = require('@azure/arm-machinelearning');
    const {createClientPipeline} = require('@azure/core-client');
    const {bearerTokenAuthenticationPolicyName} = require('@azure/core-rest-pipeline');

    const answers = inputs.answers;
    let next = 0;
    const take = (label) => {
        const answer = answers[next];
        if (!answer || answer.label !== label) {
            throw new Error(`azureml-wire.js: answer ${next} is ${answer && answer.label}, expected ${label}`);
        }
        ++next;
        queue.push(answer);
        return answer;
    };

    const credential = {getToken: async () => ({token: inputs.token, expiresOnTimestamp: Date.now() + 3000 * 1000})};
    const pipeline = createClientPipeline({});
    pipeline.addPolicy({name: bearerTokenAuthenticationPolicyName, sendRequest: async (request, nextPolicy) => {
        const access = await credential.getToken([SCOPE]);
        request.headers.set('Authorization', `Bearer ${access.token}`);
        return nextPolicy(request);
    }}, {phase: 'Sign'});
    const client = new AzureMachineLearningWorkspaces(credential, inputs.subscription,
                                                      {endpoint: base, $host: base, allowInsecureConnection: true,
                                                       pipeline, credentialScopes: [SCOPE]});
    const rg = inputs.resourceGroup;
    const ws = inputs.workspace;
    const fast = {updateIntervalInMs: 1};
    const wsPath = `/subscriptions/${inputs.subscription}/resourceGroups/${rg}` +
        `/providers/Microsoft.MachineLearningServices/workspaces/${ws}`;

    const steps = [];
    const op = (run) => steps.push(run);
    op(async () => {
        take('Workspaces_Get');
        await client.workspaces.get(rg, ws);
    });
    op(async () => {
        take('Jobs_Get (absent)');
        await client.jobs.get(rg, ws, inputs.jobName);
    });
    op(async () => {
        take('Compute_Get (absent)');
        await client.computeOperations.get(rg, ws, inputs.cluster);
    });
    op(async () => {
        const put = take('Compute_CreateOrUpdate');
        while (answers[next] && answers[next].label === 'poll Compute_CreateOrUpdate') {
            take('poll Compute_CreateOrUpdate');
        }
        queue.push({label: 'final GET Compute_CreateOrUpdate', sdkOnly: true, status: 200, headers: [],
                    body: put.body});
        const poller = await client.computeOperations.beginCreateOrUpdate(rg, ws, inputs.cluster, {
            location: inputs.region,
            properties: {
                computeType: 'AmlCompute',
                properties: {vmSize: inputs.vmSize, vmPriority: inputs.priority,
                             scaleSettings: {minNodeCount: 0, maxNodeCount: 1, nodeIdleTimeBeforeScaleDown: IDLE}},
            },
        }, fast);
        await poller.pollUntilDone();
    });
    op(async () => {
        take('EnvironmentVersions_Get (absent)');
        await client.environmentVersions.get(rg, ws, inputs.environment, '1');
    });
    op(async () => {
        take('EnvironmentVersions_CreateOrUpdate');
        await client.environmentVersions.createOrUpdate(rg, ws, inputs.environment, '1',
                                                        {properties: {image: inputs.image}});
    });
    op(async () => {
        take('Jobs_CreateOrUpdate');
        const tags = {[OWNER_TAG]: inputs.jobName};
        for (const [key, value] of inputs.tags) {
            tags[key] = value;
        }
        const environmentVariables = {};
        for (const [key, value] of inputs.environmentVariables) {
            environmentVariables[key] = value;
        }
        await client.jobs.createOrUpdate(rg, ws, inputs.jobName, {properties: {
            jobType: 'Command',
            experimentName: EXPERIMENT,
            displayName: inputs.jobName,
            computeId: `${wsPath}/computes/${inputs.cluster}`,
            environmentId: `${wsPath}/environments/${inputs.environment}/versions/1`,
            command: inputs.command.map(quote).join(' '),
            environmentVariables,
            resources: {instanceCount: 1},
            limits: {jobLimitsType: 'Command', timeout: `PT${inputs.timeoutSeconds}S`},
            tags,
        }});
    });
    op(async () => {
        take('Jobs_Get');
        await client.jobs.get(rg, ws, inputs.jobName);
    });
    op(async () => {
        take('Jobs_List');
        for await (const page of client.jobs.list(rg, ws, {tag: OWNER_TAG}).byPage()) {
            void page;
        }
    });
    op(async () => {
        take('Jobs_Cancel');
        const poller = await client.jobs.beginCancel(rg, ws, inputs.jobName, fast);
        void poller;
    });

    for (const step of steps) {
        const before = captured.length;
        let sdkError = '';
        try {
            await step();
        } catch (error) {
            sdkError = String(error && (error.code || error.message) || error);
        }
        for (let i = before; i < captured.length; ++i) {
            captured[i].sdkError = sdkError;
        }
    }
    server.close();
    writeResult(JSON.stringify(captured));
}

main().catch((error) => {
    process.stderr.write(`azureml-wire.js: ${error && error.stack || error}\n`);
    process.exit(1);
});
