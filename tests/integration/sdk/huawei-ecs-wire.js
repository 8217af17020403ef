#!/usr/bin/env node
// Sends every Huawei Cloud request GPU Planner's ECS provider makes through the official Node SDK, for
// tests/integration/TestHuaweiEcsWire.cpp. Usage:
//
//   node huawei-ecs-wire.js < inputs.json > captured.json
//
// inputs.json holds the inputs the C++ test gives our provider (time, AK/SK, region, project id, flavor, zone, names,
// ids, user data, client tokens, tags, the free text the provider writes into the account: descriptions) and, in
// `answers`, the list of {label, status, body} the C++ test's recording transport answered, in order: the documented
// responses of tests/data/cloud/huawei (README there), adapted to the sequence. Each operation below is sent once, in
// the provider's order, to a capture server that runs in this process on 127.0.0.1 and answers the i-th request with
// answers[i], so the SDK parses the same answer our provider read. stdout is a JSON array of
// {label, sdkError, method, url, headers [[name, value]...], body}.
//
// Clients (versions pinned in package.json):
//  - @huaweicloud/huaweicloud-sdk-ecs 3.1.172, v2 EcsClient: CreateServers (with X-Client-Token), ShowJob,
//    ShowServer, ListServersDetails, DeleteServers, NovaCreateKeypair, NovaShowKeypair, ListFlavors,
//    NovaListAvailabilityZones;
//  - @huaweicloud/huaweicloud-sdk-vpc 3.1.173, v2 VpcClient (the VPC v1 paths): ListVpcs, CreateVpc, ShowVpc,
//    ListSubnets, CreateSubnet, ShowSubnet, ListSecurityGroups, CreateSecurityGroup, CreateSecurityGroupRule;
//  both built with ClientBuilder (newBuilder().withCredential(BasicCredentials ak, sk, projectId).withEndpoint()),
//  with the generated request models (dist model classes and their with* setters, which carry the wire names).
//  - No SDK package is installed for IMS (ListImages), IAM (KeystoneListProjects, ShowPermanentAccessKey) or BSS
//    (ListOnDemandResourceRatings, ListRateOnPeriodDetail). These go through @huaweicloud/huaweicloud-sdk-core
//    3.1.211 HcClient.sendRequest() with a hand-built request (what every generated client's methods hand it:
//    method, url, contentType, queryParams, pathParams, headers, data), so the SDK core builds, signs and sends them;
//    IMS with BasicCredentials (project-level, as ImsClient), IAM and BSS with GlobalCredentials (global services,
//    as IamClient and BssClient) without a domain id. Their path, query and body are written from the API
//    reference, cited at each one, not from our C++.
//
// No network: the clients are given the production hosts (ecs.<region>.myhuaweicloud.com from EcsRegion,
// vpc.<region>..., ims.<region>..., iam.<region>..., bss.myhuaweicloud.com) with the scheme http; every http
// connection is redirected to the capture server (sandbox.js) while the signed Host stays the production one. An
// HTTPS connection fails. Proxy variables and the SDK's credential variables are cleared. Date is frozen at
// inputs.time (X-Sdk-Date comes from moment(), i.e. Date.now()).
'use strict';

const http = require('http');

const {clearEnvironment, freezeClock, routeHttpToLoopback, RealDate} = require('./sandbox');

clearEnvironment(['HUAWEICLOUD_SDK_AK', 'HUAWEICLOUD_SDK_SK', 'HUAWEICLOUD_SDK_PROJECT_ID',
                  'HUAWEICLOUD_SDK_DOMAIN_ID', 'HUAWEICLOUD_SDK_SECURITY_TOKEN', 'HUAWEICLOUD_SDK_IDP_ID',
                  'HUAWEICLOUD_SDK_ID_TOKEN_FILE', 'HUAWEICLOUD_SDK_CREDENTIALS_FILE']);
const setClock = freezeClock();
// The SDK's logger (log4js) prints failed calls (the expected 404) on stdout: everything else written there goes to
// stderr, and stdout carries only the result.
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
        const answer = answers[index] || {status: 500, body: '{"error_code":"TEST.0001","error_msg":"no answer"}'};
        res.sendDate = false;
        res.writeHead(answer.status, {'Content-Type': 'application/json;charset=UTF-8', 'Connection': 'close'});
        res.end(answer.body);
    });
});
const setServerPort = routeHttpToLoopback('huawei-ecs-wire.js');

async function main() {
    const chunks = [];
    for await (const chunk of process.stdin) {
        chunks.push(chunk);
    }
    const inputs = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    answers = inputs.answers;
    setClock(inputs.time * 1000);
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    setServerPort(server.address().port);

    const core = require('@huaweicloud/huaweicloud-sdk-core');
    const {HcClient} = require('@huaweicloud/huaweicloud-sdk-core/HcClient');
    const {DefaultHttpClient} = require('@huaweicloud/huaweicloud-sdk-core/http/DefaultHttpClient');
    const ecs = require('@huaweicloud/huaweicloud-sdk-ecs/v2/public-api');
    const vpc = require('@huaweicloud/huaweicloud-sdk-vpc/v2/public-api');

    // The production endpoints the SDK's region tables give, with http in place of https (see the top).
    const ecsEndpoint = ecs.EcsRegion.valueOf(inputs.region).endpoints[0];
    const vpcEndpoint = vpc.VpcRegion.valueOf(inputs.region).endpoints[0];
    const expected = [`https://ecs.${inputs.region}.myhuaweicloud.com`,
                      `https://vpc.${inputs.region}.myhuaweicloud.com`];
    if (ecsEndpoint !== expected[0] || vpcEndpoint !== expected[1]) {
        throw new Error(`unexpected SDK endpoints ${ecsEndpoint}, ${vpcEndpoint}`);
    }
    const plain = (endpoint) => endpoint.replace(/^https:/, 'http:');
    const credentials = () =>
        new core.BasicCredentials().withAk(inputs.ak).withSk(inputs.sk).withProjectId(inputs.projectId);
    const ecsClient = ecs.EcsClient.newBuilder().withCredential(credentials()).withEndpoint(plain(ecsEndpoint)).build();
    const vpcClient = vpc.VpcClient.newBuilder().withCredential(credentials()).withEndpoint(plain(vpcEndpoint)).build();
    // The generic client of the core package for the services without an installed SDK.
    const generic = (endpoint, credential) => {
        const options = {};
        return new HcClient(new DefaultHttpClient(options, [endpoint]), options)
            .withEndpoints([endpoint])
            .withCredential(credential);
    };
    const imsClient = generic(`http://ims.${inputs.region}.myhuaweicloud.com`, credentials());
    const global = () => new core.GlobalCredentials().withAk(inputs.ak).withSk(inputs.sk);
    const iamClient = generic(`http://iam.${inputs.region}.myhuaweicloud.com`, global());
    const bssClient = generic('http://bss.myhuaweicloud.com', global());
    const send = (client, options) => () => client.sendRequest(Object.assign(
        {contentType: 'application/json', queryParams: {}, pathParams: {}, headers: {}}, options));

    // ---- Requests, from the SDK models.
    // KeystoneListProjects: GET /v3/projects?name=<region> (https://support.huaweicloud.com/api-iam/iam_06_0001.html,
    // query parameter name: 项目名称).
    const keystoneListProjects =
        send(iamClient, {method: 'GET', url: '/v3/projects', queryParams: {name: inputs.region}});
    // ShowPermanentAccessKey: GET /v3.0/OS-CREDENTIAL/credentials/{access_key}
    // (https://support.huaweicloud.com/api-iam/iam_03_0002.html).
    const showPermanentAccessKey = send(iamClient, {
        method: 'GET', url: '/v3.0/OS-CREDENTIAL/credentials/{access_key}', pathParams: {access_key: inputs.ak}});
    // IMS ListImages: GET /v2/cloudimages with __imagetype=gold (public images), __os_type=Linux, status=active,
    // limit and flavor_id (https://support.huaweicloud.com/api-ims/ims_03_0602.html, URI 参数).
    const listImages = send(imsClient, {method: 'GET', url: '/v2/cloudimages', queryParams: {
        __imagetype: 'gold', __os_type: 'Linux', status: 'active', limit: 100, flavor_id: inputs.flavor}});
    // BSS ListOnDemandResourceRatings: POST /v2/bills/ratings/on-demand-resources (cloud_apis.md "Prices", from
    // https://support.huaweicloud.com/api-oce/bcloud_01001.html: project_id, product_infos[] with id,
    // cloud_service_type, resource_type, resource_spec, region, usage_factor, usage_value, usage_measure_id 4 = hour,
    // subscription_num).
    const product = {
        id: '1',
        cloud_service_type: 'hws.service.type.ec2',
        resource_type: 'hws.resource.type.vm',
        resource_spec: `${inputs.flavor}.linux`,
        region: inputs.region,
        subscription_num: 1,
    };
    const onDemandRating = send(bssClient, {method: 'POST', url: '/v2/bills/ratings/on-demand-resources', data: {
        project_id: inputs.projectId,
        product_infos: [Object.assign({}, product, {usage_factor: 'Duration', usage_value: 1, usage_measure_id: 4})]}});
    // BSS ListRateOnPeriodDetail: POST /v2/bills/ratings/period-resources/subscribe-rate, as the ECS reference's
    // "创建ECS高频场景示例" prints it (tests/data/huawei/README.md): period_type 2 = month, period_num.
    const periodRating = send(bssClient, {
        method: 'POST',
        url: '/v2/bills/ratings/period-resources/subscribe-rate',
        data: {
            project_id: inputs.projectId,
            product_infos: [Object.assign({}, product, {period_type: 2, period_num: inputs.quoteMonths})],
        },
    });

    const showKeypair = () =>
        ecsClient.novaShowKeypair(new ecs.NovaShowKeypairRequest().withKeypairName(inputs.keyName));
    const importKeypair = () => ecsClient.novaCreateKeypair(new ecs.NovaCreateKeypairRequest().withBody(
        new ecs.NovaCreateKeypairRequestBody().withKeypair(
            new ecs.NovaCreateKeypairOption().withName(inputs.keyName).withPublicKey(inputs.publicKey.trim()))));
    const listVpcs = () => vpcClient.listVpcs(new vpc.ListVpcsRequest());
    const createVpc = () => vpcClient.createVpc(new vpc.CreateVpcRequest().withBody(
        new vpc.CreateVpcRequestBody().withVpc(new vpc.CreateVpcOption()
                                                   .withName(inputs.vpcName)
                                                   .withCidr(inputs.vpcCidr)
                                                   .withDescription(inputs.vpcDescription))));
    const showVpc = () => vpcClient.showVpc(new vpc.ShowVpcRequest().withVpcId(inputs.vpcId));
    const listGroups = () =>
        vpcClient.listSecurityGroups(new vpc.ListSecurityGroupsRequest().withVpcId(inputs.vpcId));
    const createGroup = () => vpcClient.createSecurityGroup(new vpc.CreateSecurityGroupRequest().withBody(
        new vpc.CreateSecurityGroupRequestBody().withSecurityGroup(
            new vpc.CreateSecurityGroupOption().withName(inputs.groupName).withVpcId(inputs.vpcId))));
    const sshRule = (groupId) => () => {
        const rule = new vpc.CreateSecurityGroupRuleOption()
                         .withSecurityGroupId(groupId)
                         .withDirection('ingress')
                         .withEthertype('IPv4')
                         .withProtocol('tcp')
                         .withPortRangeMin(22)
                         .withPortRangeMax(22)
                         .withRemoteIpPrefix(inputs.cidr)
                         .withDescription(inputs.ruleDescription);
        return vpcClient.createSecurityGroupRule(new vpc.CreateSecurityGroupRuleRequest().withBody(
            new vpc.CreateSecurityGroupRuleRequestBody().withSecurityGroupRule(rule)));
    };
    const listZones = () => ecsClient.novaListAvailabilityZones(new ecs.NovaListAvailabilityZonesRequest());
    const listFlavors = () => ecsClient.listFlavors(new ecs.ListFlavorsRequest());
    const listSubnets = () => vpcClient.listSubnets(new vpc.ListSubnetsRequest().withVpcId(inputs.vpcId));
    const createSubnet = () => vpcClient.createSubnet(new vpc.CreateSubnetRequest().withBody(
        new vpc.CreateSubnetRequestBody().withSubnet(new vpc.CreateSubnetOption()
                                                         .withName(inputs.subnetName)
                                                         .withCidr(inputs.subnetCidr)
                                                         .withGatewayIp(inputs.subnetGateway)
                                                         .withVpcId(inputs.vpcId)
                                                         .withAvailabilityZone(inputs.zone))));
    const showSubnet = () => vpcClient.showSubnet(new vpc.ShowSubnetRequest().withSubnetId(inputs.subnetId));
    const showJob = () => ecsClient.showJob(new ecs.ShowJobRequest().withJobId(inputs.jobId));
    const showServer = () => ecsClient.showServer(new ecs.ShowServerRequest().withServerId(inputs.serverId));
    const listServers = (offset) => () => ecsClient.listServersDetails(
        new ecs.ListServersDetailsRequest().withLimit(inputs.pageLimit).withOffset(offset));
    const deleteServers = () => ecsClient.deleteServers(new ecs.DeleteServersRequest().withBody(
        new ecs.DeleteServersRequestBody()
            .withServers([new ecs.ServerId().withId(inputs.serverId)])
            .withDeletePublicip(true)
            .withDeleteVolume(true)));

    // CreateServers: one server with a traffic-billed EIP, the image's SSD system disk, the owner tag and the
    // launch's tags (PrePaidServer and its parts); `launch` holds what differs.
    const isoMinutes = (unixSeconds) =>
        new RealDate((unixSeconds - (unixSeconds % 60)) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const createServers = (launch) => () => {
        const server = new ecs.PrePaidServer()
                           .withName(launch.instanceName)
                           .withImageRef(launch.imageId)
                           .withFlavorRef(inputs.flavor)
                           .withAvailabilityZone(launch.zone)
                           .withVpcid(inputs.vpcId)
                           .withNics([new ecs.PrePaidServerNic().withSubnetId(inputs.subnetId)])
                           .withCount(1)
                           .withRootVolume(new ecs.PrePaidServerRootVolume().withVolumetype('SSD'))
                           .withPublicip(new ecs.PrePaidServerPublicip()
                                             .withEip(new ecs.PrePaidServerEip().withIptype('5_bgp').withBandwidth(
                                                 new ecs.PrePaidServerEipBandwidth()
                                                     .withSize(inputs.bandwidthMbit)
                                                     .withSharetype('PER')
                                                     .withChargemode('traffic')))
                                             .withDeleteOnTermination(true))
                           .withServerTags([[inputs.ownerTagKey, launch.clientToken]].concat(launch.tags).map(
                               ([key, value]) => new ecs.PrePaidServerTag().withKey(key).withValue(value)));
        if (launch.groupId) {
            server.withSecurityGroups([new ecs.PrePaidServerSecurityGroup().withId(launch.groupId)]);
        }
        if (launch.keyName) {
            server.withKeyName(launch.keyName);
        }
        if (launch.userId) {
            server.withMetadata({op_svc_userid: launch.userId});
        }
        if (launch.userData) {
            server.withUserData(Buffer.from(launch.userData, 'utf8').toString('base64'));
        }
        const extend = new ecs.PrePaidServerExtendParam().withRegionID(inputs.region);
        if (launch.months > 0) {
            extend.withChargingMode('prePaid')
                .withPeriodType('month')
                .withPeriodNum(launch.months)
                .withIsAutoRenew(launch.autoRenew ? 'true' : 'false')
                .withIsAutoPay('true');
        } else {
            extend.withChargingMode('postPaid');
            if (launch.spot) {
                extend.withMarketType('spot');
                if (launch.spotPrice) {
                    extend.withSpotPrice(launch.spotPrice);
                }
            }
            if (launch.terminateAt > 0) {
                server.withAutoTerminateTime(isoMinutes(launch.terminateAt));
            }
        }
        server.withExtendparam(extend);
        return ecsClient.createServers(new ecs.CreateServersRequest().withXClientToken(launch.clientToken).withBody(
            new ecs.CreateServersRequestBody().withServer(server).withDryRun(launch.dryRun)));
    };
    const [onDemand, spot, spotLimit, monthly, dry] = inputs.launches;

    const operations = [
        // Launch 1: on demand on a fresh project (project from Keystone, image looked up, key imported, VPC, group
        // with its SSH rule and subnet created and polled, zone chosen from the flavors), job polled.
        ['KeystoneListProjects', keystoneListProjects],
        ['ListImages', listImages],
        ['NovaShowKeypair-absent', showKeypair],
        ['NovaCreateKeypair', importKeypair],
        ['ListVpcs-none', listVpcs],
        ['CreateVpc', createVpc],
        ['ShowVpc', showVpc],
        ['ListSecurityGroups-none', listGroups],
        ['CreateSecurityGroup', createGroup],
        ['CreateSecurityGroupRule', sshRule(inputs.createdGroupId)],
        ['NovaListAvailabilityZones', listZones],
        ['ListFlavors', listFlavors],
        ['ListSubnets-none', listSubnets],
        ['CreateSubnet', createSubnet],
        ['ShowSubnet', showSubnet],
        ['CreateServers-postpaid', createServers(onDemand)],
        ['ShowJob', showJob],
        // Launch 2: spot at the market price in a given zone with a given image; the group is found without its
        // SSH rule, which is added again.
        ['NovaShowKeypair', showKeypair],
        ['ListVpcs', listVpcs],
        ['ListSecurityGroups-no-rule', listGroups],
        ['CreateSecurityGroupRule-repair', sshRule(inputs.foundGroupId)],
        ['ListSubnets', listSubnets],
        ['CreateServers-spot', createServers(spot)],
        // Launch 3: spot with a price limit, zone chosen for spot.
        ['NovaShowKeypair', showKeypair],
        ['ListVpcs', listVpcs],
        ['ListSecurityGroups', listGroups],
        ['NovaListAvailabilityZones', listZones],
        ['ListFlavors', listFlavors],
        ['ListSubnets', listSubnets],
        ['CreateServers-spot-limit', createServers(spotLimit)],
        // Launch 4: prepaid, months, not renewed; the key's user for metadata.op_svc_userid.
        ['NovaShowKeypair', showKeypair],
        ['ListVpcs', listVpcs],
        ['ListSecurityGroups', listGroups],
        ['ListSubnets', listSubnets],
        ['ShowPermanentAccessKey', showPermanentAccessKey],
        ['CreateServers-prepaid', createServers(monthly)],
        // Launch 5: a dry run; the key is not imported (none in the body).
        ['NovaShowKeypair-absent', showKeypair],
        ['ListVpcs', listVpcs],
        ['ListSecurityGroups', listGroups],
        ['ListSubnets', listSubnets],
        ['CreateServers-dry', createServers(dry)],
        // describe, listOurs (two pages), terminate, quotePrice (on demand, prepaid).
        ['ShowServer', showServer],
        ['ListServersDetails-1', listServers(1)],
        ['ListServersDetails-2', listServers(2)],
        ['ShowServer', showServer],
        ['DeleteServers', deleteServers],
        ['ListOnDemandResourceRatings', onDemandRating],
        ['ListRateOnPeriodDetail', periodRating],
    ];
    if (operations.length !== answers.length
        || operations.some(([label], i) => answers[i].label !== label)) {
        throw new Error(`the C++ sequence (${answers.map((a) => a.label).join(', ')}) is not this script's (` +
                        `${operations.map(([label]) => label).join(', ')})`);
    }
    const results = [];
    for (const [label, call] of operations) {
        const before = captured.length;
        let sdkError = '';
        try {
            await call();
        } catch (e) {
            sdkError = String((e && (e.errorCode || e.errorMsg || e.message)) || e);
        }
        if (captured.length !== before + 1) {
            throw new Error(`${label}: the SDK sent ${captured.length - before} requests (${sdkError})`);
        }
        results.push(Object.assign({label, sdkError}, captured[before]));
    }
    writeResult(JSON.stringify(results) + '\n');
    server.close();
}

setTimeout(() => {
    process.stderr.write('huawei-ecs-wire.js: gave up after 60 s\n');
    process.exit(1);
}, 60000).unref();

main().catch((error) => {
    process.stderr.write(`huawei-ecs-wire.js: ${error && error.stack ? error.stack : error}\n`);
    process.exitCode = 1;
    server.close();
});
