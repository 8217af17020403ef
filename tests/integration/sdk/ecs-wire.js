#!/usr/bin/env node
// Sends every Alibaba Cloud ECS and VPC operation GPU Planner uses through the official SDKs, for
// tests/integration/TestEcsWire.cpp. Usage:
//
//   node ecs-wire.js FIXTURE_DIR < inputs.json > captured.json
//
// inputs.json holds the inputs the C++ test gives our provider (time, AccessKey, region, instance type, zones, names
// and ids, user data, client tokens, tags) and the free text the provider writes into the user's account (the
// descriptions), taken from our own requests. Each operation is sent once, with a label, to a capture server that
// runs in this process on 127.0.0.1 and answers with the documented response of the action (FIXTURE_DIR =
// tests/data/cloud/alibaba, README there), so the SDK parses a real answer. stdout is a JSON array of
// {label, sdkError, method, url, headers [[name, value]...], body, canonicalRequest}.
//
// Clients: @alicloud/ecs20140526 7.11.6 (Client, its <action>WithOptions(request, runtime) methods and its generated
// request models, e.g. new $Ecs.RunInstancesRequest({...})) and @alicloud/vpc20160428 7.3.2 for DescribeVpcs,
// CreateVpc, DescribeVSwitches and CreateVSwitch. Both go through @alicloud/openapi-core 1.0.8 Client.callApi ->
// doRequest (style RPC: POST "/", every parameter in the query flattened by OpenApiUtil.query, no body, signed with
// ACS3-HMAC-SHA256). The request objects below are written from the SDK's models (dist/models/*Request.d.ts: the
// field names and their types, number and boolean included), not from our C++.
//
// No network: the clients are given the region only, so they pick the production hosts themselves
// (ecs.cn-beijing.aliyuncs.com, vpc.cn-beijing.aliyuncs.com: _endpointRule "regional", getEndpointRules), with
// protocol 'http'; every http connection is redirected to the capture server (sandbox.js) while the host header, part
// of the signature, stays the production one. An HTTPS connection fails. Proxy variables and the SDK's credential
// variables are cleared.
//
// Determinism: Date is frozen at inputs.time (x-acs-date comes from OpenApiUtil.getTimestamp(), new Date()). The
// x-acs-signature-nonce comes from OpenApiUtil.getNonce() (openapi-core dist/utils.js: SHA-256 hex of the host name,
// pid and Math.random()), called by doRequest for every request: it is replaced by SHA-256 hex of
// "gpuplan-ecs-wire/<label>", the same shape, fixed per operation. The C++ test reads it from the captured header and
// signs with it. Nothing is removed from the SDK's headers: what it adds for itself (user-agent, the signed
// x-acs-credentials-provider: static_ak, and node's connection and content-length) is captured as sent and
// TestEcsWire names and ignores it.
//
// canonicalRequest: the canonical request the SDK signed, as OpenApiUtil.getAuthorization hashes it (caught by
// wrapping OpenApiUtil.hash while getAuthorization runs); TestEcsWire compares its canonical query line with ours.
'use strict';

const crypto = require('crypto');
const fs = require('fs');
const http = require('http');
const path = require('path');

const {clearEnvironment, freezeClock, routeHttpToLoopback, RealDate} = require('./sandbox');

clearEnvironment(['ALIBABA_CLOUD_ACCESS_KEY_ID', 'ALIBABA_CLOUD_ACCESS_KEY_SECRET', 'ALIBABA_CLOUD_SECURITY_TOKEN',
                  'ALIBABA_CLOUD_CREDENTIALS_FILE', 'ALIBABA_CLOUD_PROFILE', 'ALIBABA_CLOUD_ROLE_ARN',
                  'ALIBABA_CLOUD_ECS_METADATA', 'ALIBABA_CLOUD_OIDC_PROVIDER_ARN', 'ALIBABA_CLOUD_OIDC_TOKEN_FILE',
                  'ALICLOUD_ACCESS_KEY', 'ALICLOUD_SECRET_KEY', 'ALIBABA_CLOUD_REGION_ID']);
const setClock = freezeClock();

const fixtureDir = process.argv[2];
const fixture = (name) => fs.readFileSync(path.join(fixtureDir, name), 'utf8');
const answers = {
    DescribeImages: 'describe_images.json',
    DescribeKeyPairs: 'describe_key_pairs.json',
    ImportKeyPair: 'import_key_pair.json',
    DescribeVpcs: 'describe_vpcs.json',
    CreateVpc: 'create_vpc.json',
    DescribeSecurityGroups: 'describe_security_groups.json',
    CreateSecurityGroup: 'create_security_group.json',
    DescribeSecurityGroupAttribute: 'describe_security_group_attribute.json',
    AuthorizeSecurityGroup: 'authorize_security_group.json',
    DescribeAvailableResource: 'describe_available_resource.json',
    DescribeVSwitches: 'describe_vswitches.json',
    CreateVSwitch: 'create_vswitch.json',
    RunInstances: 'run_instances.json',
    DescribeInstances: 'describe_instances.json',
    DeleteInstances: 'delete_instances.json',
    DescribePrice: 'describe_price.json',
};
// The documented error document (error_example.json) with another code and message.
function errorAnswer(code, message) {
    const doc = JSON.parse(fixture('error_example.json'));
    doc.Code = code;
    doc.Message = message;
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
        const action = req.headers['x-acs-action'] || '';
        const query = new URL(req.url, 'http://capture').searchParams;
        let status = 200;
        let answer;
        if (query.get('DryRun') === 'true') {
            // RunInstances, DryRun: a check that passed comes back as the DryRunOperation error.
            status = 400;
            answer = errorAnswer('DryRunOperation', 'Request validation has been passed with DryRun flag set.');
        } else if (answers[action]) {
            answer = fixture(answers[action]);
        } else {
            status = 404;
            answer = errorAnswer('InvalidAction.NotFound', `ecs-wire.js has no answer for ${action}`);
        }
        res.sendDate = false;
        res.writeHead(status, {'Content-Type': 'application/json;charset=utf-8', 'Connection': 'close'});
        res.end(answer);
    });
});
const setServerPort = routeHttpToLoopback('ecs-wire.js');

async function main() {
    const chunks = [];
    for await (const chunk of process.stdin) {
        chunks.push(chunk);
    }
    const inputs = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    setClock(inputs.time * 1000);
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    setServerPort(server.address().port);

    const openapi = require('@alicloud/openapi-core');
    const utils = openapi.$OpenApiUtil.default; // OpenApiUtil (dist/utils.js Client): what doRequest calls
    const $dara = require('@darabonba/typescript');
    const Ecs = require('@alicloud/ecs20140526');
    const Vpc = require('@alicloud/vpc20160428');

    // A nonce fixed per operation (see the top).
    let nonce = '';
    utils.getNonce = () => nonce;
    // The canonical request getAuthorization hashes: the first hash() call inside it.
    let canonicalRequest = null;
    let signing = false;
    const realHash = utils.hash;
    utils.hash = function hash(raw, algorithm) {
        if (signing && canonicalRequest === null) {
            canonicalRequest = Buffer.from(raw).toString('utf8');
        }
        return realHash.call(this, raw, algorithm);
    };
    const realAuthorization = utils.getAuthorization;
    utils.getAuthorization = function getAuthorization(...args) {
        signing = true;
        try {
            return realAuthorization.apply(this, args);
        } finally {
            signing = false;
        }
    };

    const config = () => new openapi.$OpenApiUtil.Config({
        accessKeyId: inputs.keyId,
        accessKeySecret: inputs.secret,
        regionId: inputs.region,
        protocol: 'http',
    });
    const ecs = new Ecs.default(config());
    const vpc = new Vpc.default(config());
    const hosts = [`ecs.${inputs.region}.aliyuncs.com`, `vpc.${inputs.region}.aliyuncs.com`];
    if (ecs._endpoint !== hosts[0] || vpc._endpoint !== hosts[1]) {
        throw new Error(`unexpected SDK endpoints ${ecs._endpoint}, ${vpc._endpoint}`);
    }

    // AutoReleaseTime: "yyyy-MM-ddTHH:mm:ssZ", UTC (RunInstancesRequest.autoReleaseTime).
    const isoSeconds = (unixSeconds) => new RealDate(unixSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const [onDemand, spot, spotLimit, monthly, dry] = inputs.launches;
    // RunInstancesRequest as the provider fills it for one instance with a public IP paid by traffic; `extra` holds
    // what differs per launch.
    const run = (launch, extra) => new Ecs.RunInstancesRequest(Object.assign({
        regionId: inputs.region,
        zoneId: launch.zone,
        instanceType: inputs.instanceType,
        imageId: launch.imageId,
        instanceName: launch.instanceName,
        clientToken: launch.clientToken,
        amount: 1,
        internetChargeType: 'PayByTraffic',
        internetMaxBandwidthOut: inputs.bandwidthOutMbps,
        tag: [{key: inputs.ownerTagKey, value: launch.clientToken}]
                 .concat(launch.tags.map(([key, value]) => ({key, value})))
                 .map((tag) => new Ecs.RunInstancesRequestTag(tag)),
    }, launch.userData ? {userData: Buffer.from(launch.userData, 'utf8').toString('base64')} : {}, extra));
    const availableResource = (chargeType, extra = {}) => new Ecs.DescribeAvailableResourceRequest(Object.assign({
        regionId: inputs.region,
        destinationResource: 'InstanceType',
        instanceType: inputs.instanceType,
        ioOptimized: 'optimized',
        instanceChargeType: chargeType,
        resourceType: 'instance',
    }, extra));
    const authorizeSsh = (groupId) => new Ecs.AuthorizeSecurityGroupRequest({
        regionId: inputs.region,
        securityGroupId: groupId,
        permissions: [new Ecs.AuthorizeSecurityGroupRequestPermissions({
            ipProtocol: 'TCP',
            portRange: '22/22',
            sourceCidrIp: inputs.cidr,
            policy: 'accept',
            description: inputs.ruleDescription,
        })],
    });
    const describeInstance = () => new Ecs.DescribeInstancesRequest({
        regionId: inputs.region,
        instanceIds: JSON.stringify([inputs.instanceId]), // "a JSON array of up to 100 IDs" in a string
    });
    const listOurs = (nextToken) => new Ecs.DescribeInstancesRequest(Object.assign({
        regionId: inputs.region,
        tag: [new Ecs.DescribeInstancesRequestTag({key: inputs.ownerTagKey})],
        maxResults: inputs.pageSize,
    }, nextToken ? {nextToken} : {}));
    const price = (extra) => new Ecs.DescribePriceRequest(Object.assign({
        regionId: inputs.region,
        resourceType: 'instance',
        instanceType: inputs.instanceType,
        zoneId: inputs.soldZone,
        imageId: inputs.givenImageId,
        internetChargeType: 'PayByTraffic',
        internetMaxBandwidthOut: inputs.bandwidthOutMbps,
    }, extra));

    const operations = [
        // Launch 1: on demand on a fresh account (image looked up, key imported, VPC, group and vSwitch created,
        // zone chosen), with user data, tags and an automatic release.
        ['DescribeImages', ecs, 'describeImages', new Ecs.DescribeImagesRequest({
            regionId: inputs.region,
            imageOwnerAlias: 'system',
            OSType: 'linux',
            architecture: 'x86_64',
            instanceType: inputs.instanceType,
            status: 'Available',
            pageSize: inputs.pageSize,
        })],
        ['DescribeKeyPairs', ecs, 'describeKeyPairs', new Ecs.DescribeKeyPairsRequest({
            regionId: inputs.region, keyPairName: inputs.keyName})],
        ['ImportKeyPair', ecs, 'importKeyPair', new Ecs.ImportKeyPairRequest({
            regionId: inputs.region, keyPairName: inputs.keyName, publicKeyBody: inputs.publicKey.trim()})],
        ['DescribeVpcs-ours', vpc, 'describeVpcs', new Vpc.DescribeVpcsRequest({
            regionId: inputs.region, vpcName: inputs.vpcName})],
        ['DescribeVpcs-default', vpc, 'describeVpcs', new Vpc.DescribeVpcsRequest({
            regionId: inputs.region, isDefault: true})],
        ['CreateVpc', vpc, 'createVpc', new Vpc.CreateVpcRequest({
            regionId: inputs.region,
            vpcName: inputs.vpcName,
            cidrBlock: inputs.vpcCidr,
            description: inputs.vpcDescription,
            clientToken: inputs.vpcClientToken,
        })],
        ['DescribeSecurityGroups', ecs, 'describeSecurityGroups', new Ecs.DescribeSecurityGroupsRequest({
            regionId: inputs.region, vpcId: inputs.vpcId, securityGroupName: inputs.groupName})],
        ['CreateSecurityGroup', ecs, 'createSecurityGroup', new Ecs.CreateSecurityGroupRequest({
            regionId: inputs.region,
            vpcId: inputs.vpcId,
            securityGroupName: inputs.groupName,
            description: inputs.groupDescription,
            securityGroupType: 'normal',
            clientToken: inputs.groupClientToken,
        })],
        ['AuthorizeSecurityGroup', ecs, 'authorizeSecurityGroup', authorizeSsh(inputs.createdGroupId)],
        ['DescribeAvailableResource-postpaid', ecs, 'describeAvailableResource', availableResource('PostPaid')],
        ['DescribeVSwitches-zone', vpc, 'describeVSwitches', new Vpc.DescribeVSwitchesRequest({
            regionId: inputs.region, vpcId: inputs.vpcId, zoneId: inputs.soldZone, pageSize: 50})],
        ['DescribeVSwitches-all', vpc, 'describeVSwitches', new Vpc.DescribeVSwitchesRequest({
            regionId: inputs.region, vpcId: inputs.vpcId, pageSize: 50})],
        ['CreateVSwitch', vpc, 'createVSwitch', new Vpc.CreateVSwitchRequest({
            regionId: inputs.region,
            vpcId: inputs.vpcId,
            zoneId: inputs.soldZone,
            cidrBlock: inputs.vSwitchCidr,
            vSwitchName: inputs.vSwitchName,
            clientToken: inputs.vSwitchClientToken,
        })],
        ['RunInstances-postpaid', ecs, 'runInstances', run(onDemand, {
            securityGroupId: inputs.createdGroupId,
            vSwitchId: inputs.vSwitchId,
            keyPairName: inputs.keyName,
            instanceChargeType: 'PostPaid',
            autoReleaseTime: isoSeconds(onDemand.terminateAt),
        })],
        // Launch 2: spot at the market price in a given zone with a given image; key, VPC, group and vSwitch found;
        // the group lacks the SSH rule (the documented rules), which is added again.
        ['DescribeSecurityGroupAttribute', ecs, 'describeSecurityGroupAttribute',
         new Ecs.DescribeSecurityGroupAttributeRequest({
             regionId: inputs.region, securityGroupId: inputs.foundGroupId, direction: 'ingress'})],
        ['AuthorizeSecurityGroup-repair', ecs, 'authorizeSecurityGroup', authorizeSsh(inputs.foundGroupId)],
        ['RunInstances-spot', ecs, 'runInstances', run(spot, {
            securityGroupId: inputs.foundGroupId,
            vSwitchId: inputs.vSwitchId,
            keyPairName: inputs.keyName,
            instanceChargeType: 'PostPaid',
            spotStrategy: 'SpotAsPriceGo',
            autoReleaseTime: isoSeconds(spot.terminateAt),
        })],
        // Launch 3: spot with a price limit, zone chosen for spot. spotPriceLimit is a number in the model.
        ['DescribeAvailableResource-spot', ecs, 'describeAvailableResource',
         availableResource('PostPaid', {spotStrategy: 'SpotAsPriceGo'})],
        ['RunInstances-spot-limit', ecs, 'runInstances', run(spotLimit, {
            securityGroupId: inputs.foundGroupId,
            vSwitchId: inputs.vSwitchId,
            keyPairName: inputs.keyName,
            instanceChargeType: 'PostPaid',
            spotStrategy: 'SpotWithPriceLimit',
            spotPriceLimit: spotLimit.spotPriceLimit,
        })],
        // Launch 4: subscription, months, renewed automatically; no AutoReleaseTime for a prepaid instance.
        ['DescribeAvailableResource-prepaid', ecs, 'describeAvailableResource', availableResource('PrePaid')],
        ['RunInstances-prepaid', ecs, 'runInstances', run(monthly, {
            securityGroupId: inputs.foundGroupId,
            vSwitchId: inputs.vSwitchId,
            keyPairName: inputs.keyName,
            instanceChargeType: 'PrePaid',
            period: monthly.months,
            periodUnit: 'Month',
            autoRenew: monthly.autoRenew,
        })],
        // Launch 5: a dry run on a fresh account: no key pair, security group or vSwitch yet.
        ['RunInstances-dry', ecs, 'runInstances', run(dry, {instanceChargeType: 'PostPaid', dryRun: true})],
        ['DescribeInstances', ecs, 'describeInstances', describeInstance()],
        ['DescribeInstances-list', ecs, 'describeInstances', listOurs('')],
        ['DescribeInstances-list-next', ecs, 'describeInstances', listOurs(inputs.nextToken)],
        ['DeleteInstances', ecs, 'deleteInstances', new Ecs.DeleteInstancesRequest({
            regionId: inputs.region, instanceId: [inputs.instanceId], force: true})],
        // quotePrice: spot per hour, then one month of subscription.
        ['DescribePrice-spot', ecs, 'describePrice',
         price({priceUnit: 'Hour', period: 1, spotStrategy: 'SpotAsPriceGo'})],
        ['DescribePrice-prepaid', ecs, 'describePrice', price({priceUnit: 'Month', period: 1})],
    ];
    const results = [];
    for (const [label, client, method, request] of operations) {
        const before = captured.length;
        nonce = crypto.createHash('sha256').update(`gpuplan-ecs-wire/${label}`).digest('hex');
        canonicalRequest = null;
        let sdkError = '';
        try {
            await client[`${method}WithOptions`](request, new $dara.RuntimeOptions({}));
        } catch (e) {
            sdkError = String((e && (e.code || e.message)) || e);
        }
        if (captured.length !== before + 1) {
            throw new Error(`${label}: the SDK sent ${captured.length - before} requests (${sdkError})`);
        }
        results.push(Object.assign({label, sdkError, canonicalRequest}, captured[before]));
    }
    process.stdout.write(JSON.stringify(results) + '\n');
    server.close();
}

setTimeout(() => {
    process.stderr.write('ecs-wire.js: gave up after 60 s\n');
    process.exit(1);
}, 60000).unref();

main().catch((error) => {
    process.stderr.write(`ecs-wire.js: ${error && error.stack ? error.stack : error}\n`);
    process.exitCode = 1;
    server.close();
});
