#!/usr/bin/env node
// Sends every Tencent Cloud API 3.0 operation GPU Planner uses through the official SDK, for
// tests/integration/TestCvmWire.cpp. Usage:
//
//   node cvm-wire.js FIXTURE_DIR < inputs.json > captured.json
//
// inputs.json holds the inputs the C++ test gives our provider (time, SecretId/SecretKey, region, instance type,
// zones, key pair and group names and ids, user data, client tokens, tags, ids). Each operation is sent once, with a
// label, to a capture server that runs in this process on 127.0.0.1 and answers with the documented response of the
// action (FIXTURE_DIR = tests/data/cloud/tencent, the "输出示例" of each API page), so the SDK parses a real answer.
// stdout is a JSON array of {label, method, url, headers [[name, value]...], body, sdkError}.
//
// Clients: CVM actions go through tencentcloud-sdk-nodejs-cvm's v20170312 Client (its RunInstances(),
// DescribeImages()... methods); the security group actions belong to VPC (vpc.tencentcloudapi.com, 2017-03-12), whose
// package is not installed here, so they go through CommonClient of tencentcloud-sdk-nodejs-common, the product-neutral
// client of the same SDK: the same AbstractClient.request(), HttpConnection.doRequestWithSign3() and Sign.sign3().
// The request objects below are written from the SDK's models (cvm_models.d.ts; vpc_models.ts upstream), not from
// our C++.
//
// No network: the clients keep the production host (cvm.tencentcloudapi.com, vpc.tencentcloudapi.com; it is part of
// the signature, and the SDK takes the service name of the credential scope from its first label) with protocol
// 'http://', and every http connection is redirected to the capture server (cloud_apis.md sections 2 and 9); an
// HTTPS connection fails. Proxy variables are cleared: the SDK's fetch would otherwise tunnel through http_proxy.
//
// Determinism: Date is frozen at inputs.time (X-TC-Timestamp and the credential scope's date come from new Date()),
// ClientToken is explicit. Nothing is removed from the SDK's headers: the ones it adds for itself (X-TC-RequestClient,
// X-TC-TraceId, and node-fetch's Accept, User-Agent, Accept-Encoding, Connection, Content-Length) are not signed
// (Sign.sign3 signs content-type;host only), so they are captured as sent and TestCvmWire names and ignores them.
'use strict';

const fs = require('fs');
const http = require('http');
const path = require('path');

const {clearEnvironment, freezeClock, routeHttpToLoopback, RealDate} = require('./sandbox');

clearEnvironment(['TENCENTCLOUD_SECRET_ID', 'TENCENTCLOUD_SECRET_KEY', 'TENCENTCLOUD_SESSION_TOKEN',
                  'TENCENTCLOUD_REGION']);
const setClock = freezeClock();

const fixtureDir = process.argv[2];
const fixture = (name) => fs.readFileSync(path.join(fixtureDir, name), 'utf8');
const answers = {
    DescribeImages: 'describe_images.json',
    DescribeKeyPairs: 'describe_key_pairs.json',
    ImportKeyPair: 'import_key_pair.json',
    DescribeSecurityGroups: 'describe_security_groups.json',
    CreateSecurityGroup: 'create_security_group.json',
    CreateSecurityGroupPolicies: 'create_security_group_policies.json',
    DescribeSecurityGroupPolicies: 'describe_security_group_policies.json',
    DescribeZoneInstanceConfigInfos: 'describe_zone_instance_config_infos.json',
    RunInstances: 'run_instances.json',
    DescribeInstances: 'describe_instances.json',
    TerminateInstances: 'terminate_instances.json',
};
// The documented error answer (error_signature_failure.json) with another code; Tencent answers errors with HTTP 200.
function errorAnswer(code, message) {
    const doc = JSON.parse(fixture('error_signature_failure.json'));
    doc.Response.Error.Code = code;
    doc.Response.Error.Message = message;
    return JSON.stringify(doc);
}

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
        captured.push({method: req.method, url: req.url, headers, body});
        const action = req.headers['x-tc-action'] || '';
        let params = {};
        try {
            params = JSON.parse(body);
        } catch (e) {
            params = {};
        }
        let answer;
        if (params.DryRun === true) {
            // RunInstances, DryRun: a check that passed comes back as the DryRunOperation error.
            answer = errorAnswer('DryRunOperation', 'Request would have succeeded, but DryRun flag is set.');
        } else if (answers[action]) {
            answer = fixture(answers[action]);
        } else {
            answer = errorAnswer('InvalidAction', `cvm-wire.js has no answer for ${action}`);
        }
        res.sendDate = false;
        res.writeHead(200, {'Content-Type': 'application/json', 'Connection': 'close'});
        res.end(answer);
    });
});
const setServerPort = routeHttpToLoopback('cvm-wire.js');

async function main() {
    const chunks = [];
    for await (const chunk of process.stdin) {
        chunks.push(chunk);
    }
    const inputs = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    setClock(inputs.time * 1000);
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    setServerPort(server.address().port);

    const {cvm} = require('tencentcloud-sdk-nodejs-cvm');
    const {CommonClient} = require('tencentcloud-sdk-nodejs-common');
    const config = (endpoint) => ({
        credential: {secretId: inputs.secretId, secretKey: inputs.secretKey},
        region: inputs.region,
        profile: {
            signMethod: 'TC3-HMAC-SHA256',
            httpProfile: {
                endpoint,
                protocol: 'http://',
                reqMethod: 'POST',
                reqTimeout: 30,
                agent: new http.Agent({keepAlive: false}),
            },
        },
    });
    const cvmClient = new cvm.v20170312.Client(config('cvm.tencentcloudapi.com'));
    const vpcClient = new CommonClient('vpc.tencentcloudapi.com', '2017-03-12', config('vpc.tencentcloudapi.com'));

    const filter = (Name, value) => ({Name, Values: [value]});
    // ActionTimer.ActionTime: "按照ISO8601标准表示，并且使用UTC时间。格式为 YYYY-MM-DDThh:mm:ssZ".
    const isoSeconds = (unixSeconds) => new RealDate(unixSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const tagSpecification = (launch) => [{
        ResourceType: 'instance',
        Tags: [{Key: inputs.ownerTagKey, Value: launch.clientToken}]
                  .concat(launch.tags.map(([Key, Value]) => ({Key, Value}))),
    }];
    // RunInstancesRequest as the provider fills it for one instance; `extra` holds what differs per launch.
    const run = (launch, {chargeType, ...extra}) => Object.assign({
        Placement: {Zone: launch.zone},
        ImageId: launch.imageId,
        InstanceType: inputs.instanceType,
        InstanceCount: 1,
        InstanceChargeType: chargeType,
        ClientToken: launch.clientToken,
        TagSpecification: tagSpecification(launch),
        InstanceName: launch.instanceName,
        InternetAccessible: {
            InternetChargeType: 'TRAFFIC_POSTPAID_BY_HOUR',
            InternetMaxBandwidthOut: inputs.bandwidthOutMbps,
            PublicIpAssigned: true,
        },
    }, extra);
    const [onDemand, spot, monthly, dry] = inputs.launches;

    const operations = [
        // Launch 1: on demand, nothing exists yet (image looked up, key imported, group created, zone chosen).
        ['DescribeImages', cvmClient, 'DescribeImages', {
            Filters: [filter('image-type', 'PUBLIC_IMAGE'), filter('platform', 'Ubuntu')],
            Limit: inputs.pageLimit,
            InstanceType: inputs.instanceType,
        }],
        ['DescribeKeyPairs', cvmClient, 'DescribeKeyPairs', {Filters: [filter('key-name', inputs.keyName)]}],
        ['ImportKeyPair', cvmClient, 'ImportKeyPair', {
            KeyName: inputs.keyName, ProjectId: 0, PublicKey: inputs.publicKey.trim()}],
        ['DescribeSecurityGroups', vpcClient, 'DescribeSecurityGroups', {
            Filters: [filter('security-group-name', inputs.groupName)]}],
        ['CreateSecurityGroup', vpcClient, 'CreateSecurityGroup', {
            GroupName: inputs.groupName, GroupDescription: inputs.groupDescription}],
        ['CreateSecurityGroupPolicies-ingress', vpcClient, 'CreateSecurityGroupPolicies', {
            SecurityGroupId: inputs.createdGroupId,
            SecurityGroupPolicySet: {Ingress: [{
                Protocol: 'TCP', Port: '22', CidrBlock: inputs.cidr, Action: 'ACCEPT',
                PolicyDescription: inputs.ingressDescription}]},
        }],
        // Protocol ALL without Port: the action's page says Port is accepted only with TCP or UDP ("Protocol字段不是
        // TCP或UDP时，Protocol和Port排他关系，不允许同时输入，否则会接口报错").
        ['CreateSecurityGroupPolicies-egress', vpcClient, 'CreateSecurityGroupPolicies', {
            SecurityGroupId: inputs.createdGroupId,
            SecurityGroupPolicySet: {Egress: [{
                Protocol: 'ALL', CidrBlock: '0.0.0.0/0', Action: 'ACCEPT',
                PolicyDescription: inputs.egressDescription}]},
        }],
        ['DescribeZoneInstanceConfigInfos', cvmClient, 'DescribeZoneInstanceConfigInfos', {
            Filters: [filter('instance-type', inputs.instanceType), filter('instance-charge-type', 'POSTPAID_BY_HOUR')]}],
        ['RunInstances-postpaid', cvmClient, 'RunInstances', run(onDemand, {
            chargeType: 'POSTPAID_BY_HOUR',
            LoginSettings: {KeyIds: [inputs.importedKeyId]},
            SecurityGroupIds: [inputs.createdGroupId],
            UserData: Buffer.from(onDemand.userData, 'utf8').toString('base64'),
            ActionTimer: {TimerAction: 'TerminateInstances', ActionTime: isoSeconds(onDemand.terminateAt)},
        })],
        // Launch 2: the group found by name is checked for its rules; the documented ones (templates, no CIDR) lack
        // the SSH rule, which is added to the found group (it has an outbound rule).
        ['DescribeSecurityGroupPolicies', vpcClient, 'DescribeSecurityGroupPolicies', {
            SecurityGroupId: inputs.foundGroupId}],
        ['CreateSecurityGroupPolicies-repair', vpcClient, 'CreateSecurityGroupPolicies', {
            SecurityGroupId: inputs.foundGroupId,
            SecurityGroupPolicySet: {Ingress: [{
                Protocol: 'TCP', Port: '22', CidrBlock: inputs.cidr, Action: 'ACCEPT',
                PolicyDescription: inputs.ingressDescription}]},
        }],
        // Then spot in a given zone with a given image; key and group found. SPOTPAID without
        // InstanceMarketOptions bids the current fixed discount price (RunInstancesRequest.InstanceMarketOptions).
        ['RunInstances-spot', cvmClient, 'RunInstances', run(spot, {
            chargeType: 'SPOTPAID',
            LoginSettings: {KeyIds: [inputs.foundKeyId]},
            SecurityGroupIds: [inputs.foundGroupId],
            UserData: Buffer.from(spot.userData, 'utf8').toString('base64'),
            ActionTimer: {TimerAction: 'TerminateInstances', ActionTime: isoSeconds(spot.terminateAt)},
        })],
        // Launch 3: monthly, auto renewed, zone chosen for PREPAID; no ActionTimer for a prepaid instance. Its
        // DescribeSecurityGroupPolicies repeats launch 2's and finds the SSH rule: nothing added.
        ['DescribeZoneInstanceConfigInfos-prepaid', cvmClient, 'DescribeZoneInstanceConfigInfos', {
            Filters: [filter('instance-type', inputs.instanceType), filter('instance-charge-type', 'PREPAID')]}],
        ['RunInstances-prepaid', cvmClient, 'RunInstances', run(monthly, {
            chargeType: 'PREPAID',
            InstanceChargePrepaid: {
                Period: monthly.months,
                RenewFlag: monthly.autoRenew ? 'NOTIFY_AND_AUTO_RENEW' : 'NOTIFY_AND_MANUAL_RENEW',
            },
            LoginSettings: {KeyIds: [inputs.foundKeyId]},
            SecurityGroupIds: [inputs.foundGroupId],
        })],
        // Launch 4: dry run before the key and the group exist: neither LoginSettings nor SecurityGroupIds.
        ['RunInstances-dry', cvmClient, 'RunInstances', run(dry, {chargeType: 'POSTPAID_BY_HOUR', DryRun: true})],
        ['DescribeInstances', cvmClient, 'DescribeInstances', {InstanceIds: [inputs.instanceId]}],
        ['DescribeInstances-list', cvmClient, 'DescribeInstances', {
            Filters: [filter('tag-key', inputs.ownerTagKey)], Offset: 0, Limit: inputs.pageLimit}],
        ['TerminateInstances', cvmClient, 'TerminateInstances', {InstanceIds: [inputs.instanceId]}],
        ['DescribeZoneInstanceConfigInfos-zonesOffering', cvmClient, 'DescribeZoneInstanceConfigInfos', {
            Filters: [filter('instance-type', inputs.instanceType), filter('instance-charge-type', 'POSTPAID_BY_HOUR')]}],
    ];
    const results = [];
    for (const [label, client, action, request] of operations) {
        const before = captured.length;
        let sdkError = '';
        try {
            if (client === cvmClient) {
                await client[action](request); // the generated method, e.g. Client.RunInstances(req)
            } else {
                await client.request(action, request);
            }
        } catch (e) {
            sdkError = String((e && (e.code || e.message)) || e);
        }
        if (captured.length !== before + 1) {
            throw new Error(`${label}: the SDK sent ${captured.length - before} requests (${sdkError})`);
        }
        results.push(Object.assign({label, sdkError}, captured[before]));
    }
    process.stdout.write(JSON.stringify(results) + '\n');
    server.close();
}

setTimeout(() => {
    process.stderr.write('cvm-wire.js: gave up after 60 s\n');
    process.exit(1);
}, 60000).unref();

main().catch((error) => {
    process.stderr.write(`cvm-wire.js: ${error && error.stack ? error.stack : error}\n`);
    process.exitCode = 1;
    server.close();
});
