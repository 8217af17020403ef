#!/usr/bin/env node
// Sends every EC2 operation GPU Planner uses through the official @aws-sdk/client-ec2, for
// tests/integration/TestEc2Wire.cpp. Usage:
//
//   node ec2-wire.js FIXTURE_DIR < inputs.json > captured.json
//
// inputs.json holds the launch's inputs (the same the C++ test gives our provider: time, key, region, instance
// type, zone, key pair and group names, user data, client token, tags, ids). Each operation is sent once, with a
// label, to a capture server that runs in this process on 127.0.0.1 and answers with the documented EC2 response
// of the operation (FIXTURE_DIR = tests/data/cloud/aws), so the SDK parses a real answer. stdout is a JSON array of
// {label, method, url, headers [[name, value]...], body}. No network: every http connection is redirected to the
// capture server while the URL keeps the production host (ec2.<region>.amazonaws.com, part of the signature).
//
// Determinism: Date is frozen at inputs.time, ClientToken is explicit, and a middleware placed before
// httpSigningMiddleware deletes the headers the SDK adds for itself (cloud_apis.md section 1): amz-sdk-invocation-id
// (a random UUID), amz-sdk-request (attempt counter), x-amz-user-agent and user-agent (SDK and Node versions) and
// content-length (our HttpClient lets libcurl set it, unsigned). What is left is what our requests carry: host,
// content-type, x-amz-date, x-amz-content-sha256 (the SigV4 signer's applyChecksum default) and Authorization.
'use strict';

const fs = require('fs');
const http = require('http');
const path = require('path');

const {clearEnvironment, freezeClock, routeHttpToLoopback} = require('./sandbox');

clearEnvironment(['AWS_PROFILE', 'AWS_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN']);
const setClock = freezeClock();

const fixtureDir = process.argv[2];
const fixture = (name) => fs.readFileSync(path.join(fixtureDir, name), 'utf8');
const answers = {
    DescribeImages: () => [200, fixture('describe-images.xml')],
    DescribeKeyPairs: () => [200, fixture('describe-key-pairs.xml')],
    ImportKeyPair: () => [200, fixture('import-key-pair.xml')],
    DescribeSecurityGroups: () => [200, fixture('describe-security-groups.xml')],
    CreateSecurityGroup: () => [200, fixture('create-security-group.xml')],
    AuthorizeSecurityGroupIngress: () => [200, fixture('authorize-security-group-ingress.xml')],
    RunInstances: () => [200, fixture('run-instances.xml')],
    DescribeInstances: () => [200, fixture('describe-instances.xml')],
    TerminateInstances: () => [200, fixture('terminate-instances.xml')],
    DescribeInstanceTypeOfferings: () => [200, fixture('describe-instance-type-offerings.xml')],
};

let captured = [];
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
        const action = new URLSearchParams(body).get('Action');
        let [status, xml] = answers[action] ? answers[action]() : [400, '<Response/>'];
        if (new URLSearchParams(body).get('DryRun') === 'true') {
            // The documented error document with the dry-run code (errors-overview.html).
            status = 412;
            xml = fixture('error-invalid-instance-id.xml')
                      .replace('InvalidInstanceID.NotFound', 'DryRunOperation')
                      .replace("The instance ID 'i-1a2b3c4d' does not exist",
                               'Request would have succeeded, but DryRun flag is set.');
        }
        // No Date header: the SDK would correct its clock from it (systemClockOffset) and leave the frozen time.
        res.sendDate = false;
        res.writeHead(status, {'Content-Type': 'text/xml;charset=UTF-8', 'Connection': 'close'});
        res.end(xml);
    });
});
const setServerPort = routeHttpToLoopback('ec2-wire.js');

const SDK_ONLY_HEADERS = ['amz-sdk-invocation-id', 'amz-sdk-request', 'x-amz-user-agent', 'user-agent',
                          'content-length'];

async function main() {
    const chunks = [];
    for await (const chunk of process.stdin) {
        chunks.push(chunk);
    }
    const inputs = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    setClock(inputs.time * 1000);
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    setServerPort(server.address().port);

    const ec2 = require('@aws-sdk/client-ec2');
    const {NodeHttpHandler} = require('@smithy/node-http-handler');
    const client = new ec2.EC2Client({
        region: inputs.region,
        endpoint: `http://ec2.${inputs.region}.amazonaws.com`,
        credentials: {accessKeyId: inputs.keyId, secretAccessKey: inputs.secret},
        maxAttempts: 1,
        requestHandler: new NodeHttpHandler({httpAgent: new http.Agent({keepAlive: false})}),
    });
    client.middlewareStack.addRelativeTo(
        (next) => async (args) => {
            for (const name of Object.keys(args.request.headers)) {
                if (SDK_ONLY_HEADERS.includes(name.toLowerCase())) {
                    delete args.request.headers[name];
                }
            }
            return next(args);
        },
        {relation: 'before', toMiddleware: 'httpSigningMiddleware', name: 'gpuplanStripSdkHeaders', override: true});

    const tags = [{Key: 'gpuplanner-token', Value: inputs.clientToken}, {Key: 'Name', Value: inputs.nameTag}]
                     .concat(inputs.tags.map(([Key, Value]) => ({Key, Value})));
    const run = (extra) => Object.assign({
        ImageId: inputs.imageId,
        InstanceType: inputs.instanceType,
        MinCount: 1,
        MaxCount: 1,
        KeyName: inputs.keyName,
        SecurityGroupIds: [extra.groupId],
        ClientToken: inputs.clientToken,
        InstanceInitiatedShutdownBehavior: 'terminate',
        TagSpecifications: [{ResourceType: 'instance', Tags: tags}],
    }, extra.input);
    const operations = [
        ['DescribeImages', new ec2.DescribeImagesCommand({
            Owners: ['amazon'],
            Filters: [{Name: 'name', Values: [inputs.imagePattern]}, {Name: 'state', Values: ['available']},
                      {Name: 'architecture', Values: ['x86_64']}],
        })],
        ['DescribeKeyPairs', new ec2.DescribeKeyPairsCommand({KeyNames: [inputs.keyName]})],
        ['ImportKeyPair', new ec2.ImportKeyPairCommand({
            KeyName: inputs.keyName, PublicKeyMaterial: Buffer.from(inputs.publicKey, 'utf8')})],
        ['DescribeSecurityGroups', new ec2.DescribeSecurityGroupsCommand({
            Filters: [{Name: 'group-name', Values: [inputs.groupName]}]})],
        ['CreateSecurityGroup', new ec2.CreateSecurityGroupCommand({
            GroupName: inputs.groupName, Description: inputs.groupDescription})],
        ['AuthorizeSecurityGroupIngress', new ec2.AuthorizeSecurityGroupIngressCommand({
            GroupId: inputs.createdGroupId,
            IpPermissions: [{IpProtocol: 'tcp', FromPort: 22, ToPort: 22,
                             IpRanges: [{CidrIp: inputs.cidr, Description: 'GPU Planner SSH'}]}],
        })],
        // Spot, in a zone, with user data and tags (the group the launch created).
        ['RunInstances', new ec2.RunInstancesCommand(run({
            groupId: inputs.createdGroupId,
            input: {
                UserData: Buffer.from(inputs.userData, 'utf8').toString('base64'),
                Placement: {AvailabilityZone: inputs.zone},
                InstanceMarketOptions: {MarketType: 'spot', SpotOptions: {SpotInstanceType: 'one-time',
                                                                          InstanceInterruptionBehavior: 'terminate'}},
            },
        }))],
        // The dry run finds the documented group, which lacks the SSH rule (its one inbound rule lets in its own
        // members): it checks adding the rule with DryRun.
        ['AuthorizeSecurityGroupIngress-dry', new ec2.AuthorizeSecurityGroupIngressCommand({
            GroupId: inputs.foundGroupId,
            IpPermissions: [{IpProtocol: 'tcp', FromPort: 22, ToPort: 22,
                             IpRanges: [{CidrIp: inputs.cidr, Description: 'GPU Planner SSH'}]}],
            DryRun: true,
        })],
        // On demand, dry run, no zone, no user data (the group that was found).
        ['RunInstances-dry', new ec2.RunInstancesCommand(run({
            groupId: inputs.foundGroupId, input: {ImageId: inputs.givenImageId, DryRun: true}}))],
        ['DescribeInstances', new ec2.DescribeInstancesCommand({InstanceIds: [inputs.instanceId]})],
        ['DescribeInstances-list', new ec2.DescribeInstancesCommand({
            Filters: [{Name: 'tag-key', Values: ['gpuplanner-token']}], MaxResults: 1000})],
        ['TerminateInstances', new ec2.TerminateInstancesCommand({InstanceIds: [inputs.instanceId]})],
        ['DescribeInstanceTypeOfferings', new ec2.DescribeInstanceTypeOfferingsCommand({
            LocationType: 'availability-zone', Filters: [{Name: 'instance-type', Values: [inputs.instanceType]}]})],
    ];
    const results = [];
    for (const [label, command] of operations) {
        const before = captured.length;
        let error = '';
        try {
            await client.send(command);
        } catch (e) {
            error = String(e && (e.name || e.message));
        }
        if (captured.length !== before + 1) {
            throw new Error(`${label}: the SDK sent ${captured.length - before} requests (${error})`);
        }
        results.push(Object.assign({label, sdkError: error}, captured[before]));
    }
    process.stdout.write(JSON.stringify(results) + '\n');
    server.close();
}

main().catch((error) => {
    process.stderr.write(`ec2-wire.js: ${error && error.stack ? error.stack : error}\n`);
    process.exitCode = 1;
    server.close();
});
