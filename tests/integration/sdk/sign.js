#!/usr/bin/env node
// Signs requests with the official cloud SDKs, for tests/integration/TestSdkSignatures.cpp (a differential test
// of core/net/signers). Usage:
//
//   node sign.js aws|tencent|alibaba|huawei|google < requests.json > results.json
//
// stdin is a JSON array of requests (the fields are described at each scheme below); stdout is a JSON array with,
// for each request in the same order, {id, authorization, canonicalRequest, sent} or {id, jwt}, or {id, error}
// when the SDK refused it. No network: every HTTP connection is redirected to a capture server on loopback (the
// request's production host stays in the URL and the Host header, since it is part of the signature), HTTPS
// connections fail, and the clock is frozen at each request's `time` (Unix seconds).
//
// How each SDK is driven (versions pinned in package.json / package-lock.json):
//  - aws:     @smithy/signature-v4 SignatureV4.sign(), the signer @aws-sdk/client-ec2 calls, with the options the
//             EC2 client gives it (uriEscapePath true; applyChecksum as the request asks, see below). Public API.
//  - tencent: the tencentcloud-sdk-nodejs-cvm Client (other products: CommonClient of its common package), through
//             client.request(): the common package's Sign.sign3 signs inside HttpConnection.doRequestWithSign3.
//  - alibaba: @alicloud/openapi-core Client.callApi() (what @alicloud/ecs20140526 calls), V3 ACS3-HMAC-SHA256; its
//             nonce and timestamp functions are pinned (cloud_apis.md section 3).
//  - huawei:  @huaweicloud/huaweicloud-sdk-core HcClient.sendRequest() with BasicCredentials (what the generated
//             service clients such as EcsClient call), so AKSKSigner runs as it does for ECS.
//  - google:  google-auth-library JWT.authorize() with a capturing transporter: the assertion of the token request.
//
// Canonical requests: SignatureV4.createCanonicalRequest (AWS) and AKSKSigner.buildCanonicalRequest (Huawei) are
// wrapped; Tencent and Alibaba build theirs inside private functions, so it is read back from what they hash with
// SHA-256 (the recorder below, installed before the SDKs are loaded).
'use strict';

const crypto = require('crypto');
const http = require('http');

// No proxy from the environment, and Date.now() and new Date() return the current request's time.
const {clearEnvironment, freezeClock, routeHttpToLoopback, RealDate} = require('./sandbox');

clearEnvironment();
const setClock = freezeClock();

// ---- SHA-256 input recorder (canonical requests the SDKs do not expose). ----
let recordedHashInputs = [];
const realCreateHash = crypto.createHash;
crypto.createHash = function createHash(algorithm, ...rest) {
    const hash = realCreateHash.call(crypto, algorithm, ...rest);
    if (String(algorithm).toLowerCase() === 'sha256') {
        const realUpdate = hash.update;
        hash.update = function update(data, ...more) {
            if (typeof data === 'string') {
                recordedHashInputs.push(data);
            } else if (Buffer.isBuffer(data)) {
                recordedHashInputs.push(data.toString('utf8'));
            }
            return realUpdate.call(this, data, ...more);
        };
    }
    return hash;
};
// The canonical request is the last hashed text that starts with the method line and has the six parts.
function recordedCanonicalRequest(method) {
    for (let i = recordedHashInputs.length - 1; i >= 0; --i) {
        const text = recordedHashInputs[i];
        if (text.startsWith(method + '\n') && text.split('\n').length >= 6) {
            return text;
        }
    }
    return '';
}

// ---- Loopback capture server; every http connection goes there, https fails. ----
let captured = [];
let captureReply = {status: 200, contentType: 'application/json', body: '{}'};
const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
        const headers = [];
        for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
            headers.push([req.rawHeaders[i], req.rawHeaders[i + 1]]);
        }
        captured.push({method: req.method, url: req.url, headers, body: Buffer.concat(chunks).toString('utf8')});
        res.writeHead(captureReply.status, {'Content-Type': captureReply.contentType, 'Connection': 'close'});
        res.end(captureReply.body);
    });
});
const setServerPort = routeHttpToLoopback('sign.js');
const loopbackAgent = new http.Agent({keepAlive: false});

function header(pairs, name) {
    const lower = name.toLowerCase();
    const found = pairs.find(([n]) => n.toLowerCase() === lower);
    return found ? found[1] : undefined;
}

// Host header value for a request: host, or host:port when the port is not the scheme's default.
function authority(r) {
    const defaultPort = r.scheme === 'http' ? 80 : 443;
    return r.port && r.port !== defaultPort ? `${r.host}:${r.port}` : r.host;
}

// ---- AWS SigV4 ----
// Request: {id, method, scheme, host, port, path (percent-encoded as sent), query [[key, value]...] (decoded),
// headers [[name, value]...], body, time, key {id, secret, token}, region, service, signPayloadHeader}.
// signPayloadHeader maps to applyChecksum: the EC2 client leaves it at true and so signs x-amz-content-sha256;
// our signer does that only when asked (AwsSigV4Scope::signPayloadHeader). uriEscapePath stays true: the EC2
// client's value and the SigV4 rule for every service but S3 (the written path is encoded once more).
async function signAws(requests) {
    const {SignatureV4} = require('@smithy/signature-v4');
    const {Sha256} = require('@aws-crypto/sha256-js');
    const {HttpRequest} = require('@smithy/core/protocols');
    const results = [];
    for (const r of requests) {
        const signer = new SignatureV4({
            credentials: {accessKeyId: r.key.id, secretAccessKey: r.key.secret,
                          sessionToken: r.key.token || undefined},
            region: r.region,
            service: r.service,
            sha256: Sha256,
            uriEscapePath: true,
            applyChecksum: Boolean(r.signPayloadHeader),
        });
        let canonicalRequest = '';
        const createCanonicalRequest = signer.createCanonicalRequest.bind(signer);
        signer.createCanonicalRequest = (...args) => (canonicalRequest = createCanonicalRequest(...args));
        const headers = {};
        for (const [name, value] of r.headers) {
            headers[name] = value;
        }
        if (header(r.headers, 'host') === undefined) {
            headers.host = authority(r);
        }
        const query = {};
        for (const [key, value] of r.query) {
            if (!Object.prototype.hasOwnProperty.call(query, key)) {
                query[key] = value;
            } else if (Array.isArray(query[key])) {
                query[key].push(value);
            } else {
                query[key] = [query[key], value];
            }
        }
        const request = new HttpRequest({
            method: r.method,
            protocol: `${r.scheme}:`,
            hostname: r.host,
            port: r.port || undefined,
            path: r.path,
            query,
            headers,
            body: r.body.length > 0 ? r.body : undefined,
        });
        const signed = await signer.sign(request, {signingDate: new RealDate(r.time * 1000)});
        results.push({id: r.id, authorization: signed.headers.authorization, canonicalRequest});
    }
    return results;
}

// ---- Tencent TC3 ----
// Request: {id, host ("cvm.tencentcloudapi.com"), version, action, region (may be empty), contentType, headers
// [[name, value]...] (extra ones, sent unsigned), body (compact JSON object text; "{}" for none), time, key {id,
// secret, token}}. The SDK always POSTs to "/" and serialises the parsed body itself; `sent.body` lets the test
// check it sent the same bytes. It derives the service from the host's first label.
async function signTencent(requests) {
    const cvm = require('tencentcloud-sdk-nodejs-cvm').cvm.v20170312;
    const {CommonClient} = require('tencentcloud-sdk-nodejs-common');
    captureReply = {status: 200, contentType: 'application/json', body: '{"Response":{"RequestId":"capture"}}'};
    const results = [];
    for (const r of requests) {
        const config = {
            credential: {secretId: r.key.id, secretKey: r.key.secret, token: r.key.token || undefined},
            region: r.region || undefined,
            profile: {
                httpProfile: {
                    endpoint: r.host,
                    protocol: 'http://',
                    headers: Object.assign(Object.fromEntries(r.headers), {'Content-Type': r.contentType}),
                    agent: loopbackAgent,
                    reqTimeout: 30,
                },
            },
        };
        const client = r.host.startsWith('cvm.') && r.version === '2017-03-12'
                           ? new cvm.Client(config)
                           : new CommonClient(r.host, r.version, config);
        results.push(await exchange(r, 'POST', () => client.request(r.action, JSON.parse(r.body))));
    }
    return results;
}

// ---- Alibaba ACS3 ----
// Request: {id, method, host, path (percent-encoded), query [[key, value]...] (decoded; the SDK takes a map, so
// keys are unique), headers [[name, value]...] (extra ones: x-acs-* and unsigned), action, version, nonce,
// bodyType ("none" | "json" | "form"), body, time, key {id, secret, token}}. JSON bodies go through reqBodyType
// "json" (the SDK sends the text as is and adds Content-Type: application/json; charset=utf-8), form bodies
// through reqBodyType "byte" with the request's own Content-Type. The SDK adds and signs
// x-acs-credentials-provider (static_ak; static_sts with a token, when it also signs x-acs-accesskey-id and
// x-acs-security-token).
async function signAlibaba(requests) {
    const openapi = require('@alicloud/openapi-core');
    const Client = openapi.default;
    const {Config, OpenApiRequest, Params} = openapi.$OpenApiUtil;
    const utils = openapi.$OpenApiUtil.default;
    let nonce = '';
    utils.getNonce = () => nonce;
    const results = [];
    for (const r of requests) {
        nonce = r.nonce;
        const client = new Client(new Config({
            accessKeyId: r.key.id,
            accessKeySecret: r.key.secret,
            securityToken: r.key.token || undefined,
            endpoint: r.host,
            protocol: 'http',
        }));
        const params = new Params({
            action: r.action,
            version: r.version,
            protocol: 'HTTP',
            pathname: r.path,
            method: r.method,
            authType: 'AK',
            style: r.path === '/' ? 'RPC' : 'ROA',
            reqBodyType: r.bodyType === 'form' ? 'byte' : 'json',
            bodyType: 'json',
        });
        const query = {};
        for (const [key, value] of r.query) {
            query[key] = value;
        }
        const headers = {};
        for (const [name, value] of r.headers) {
            headers[name] = value;
        }
        const request = new OpenApiRequest({query, headers});
        if (r.bodyType !== 'none') {
            request.body = r.body;
        }
        results.push(await exchange(r, r.method, () => client.callApi(params, request, {})));
    }
    return results;
}

// ---- Huawei SDK-HMAC-SHA256 ----
// Request: {id, method, scheme, host, port, segments [...] (the path's segments, decoded: the SDK takes path
// parameters unencoded), query [[key, value]...] (decoded), headers [[name, value]...] (extra ones), projectId,
// contentType, body, time, key {id, secret, token}}. The SDK adds and signs X-Project-Id (from the credentials),
// X-Security-Token (with a token) and, for a Content-Type other than application/json, X-Sdk-Content-Sha256:
// UNSIGNED-PAYLOAD. It hashes JSON.stringify of the parsed body.
async function signHuawei(requests) {
    const core = require('@huaweicloud/huaweicloud-sdk-core');
    const {HcClient} = require('@huaweicloud/huaweicloud-sdk-core/HcClient');
    const {DefaultHttpClient} = require('@huaweicloud/huaweicloud-sdk-core/http/DefaultHttpClient');
    const {AKSKSigner} = require('@huaweicloud/huaweicloud-sdk-core/auth/AKSKSigner');
    let canonicalRequest = '';
    const buildCanonicalRequest = AKSKSigner.buildCanonicalRequest.bind(AKSKSigner);
    AKSKSigner.buildCanonicalRequest = (...args) => (canonicalRequest = buildCanonicalRequest(...args));
    const results = [];
    for (const r of requests) {
        // Plain http to reach the capture server; the signature covers the host (and a port that is not the
        // default of the request's own scheme), not the scheme.
        const endpoint = `http://${authority(r)}`;
        const options = {axiosRequestConfig: {httpAgent: loopbackAgent, proxy: false}};
        const client = new HcClient(new DefaultHttpClient(options, [endpoint]), options)
                           .withEndpoints([endpoint])
                           .withCredential(new core.BasicCredentials()
                                               .withAk(r.key.id)
                                               .withSk(r.key.secret)
                                               .withProjectId(r.projectId)
                                               .withSecurityToken(r.key.token || undefined));
        const query = {};
        for (const [key, value] of r.query) {
            if (!Object.prototype.hasOwnProperty.call(query, key)) {
                query[key] = value;
            } else if (Array.isArray(query[key])) {
                query[key].push(value);
            } else {
                query[key] = [query[key], value];
            }
        }
        const headers = {};
        for (const [name, value] of r.headers) {
            headers[name] = value;
        }
        let data;
        if (r.body.length > 0) {
            data = r.contentType.toLowerCase().includes('application/json') ? JSON.parse(r.body) : r.body;
        }
        canonicalRequest = '';
        const result = await exchange(r, r.method, () => client.sendRequest({
            method: r.method,
            url: '/' + r.segments.join('/'),
            contentType: r.contentType,
            queryParams: query,
            pathParams: {},
            headers,
            data,
            axiosRequestConfig: options.axiosRequestConfig,
        }));
        result.canonicalRequest = canonicalRequest;
        results.push(result);
    }
    return results;
}

// Runs one SDK call against the capture server at the request's time; returns what the server received.
async function exchange(r, method, call) {
    setClock(r.time * 1000);
    captured = [];
    recordedHashInputs = [];
    try {
        await call();
    } catch (error) {
        if (captured.length === 0) {
            return {id: r.id, error: `the SDK sent nothing: ${error && (error.message || JSON.stringify(error))}`};
        }
    }
    if (captured.length !== 1) {
        return {id: r.id, error: `the SDK sent ${captured.length} requests, expected one`};
    }
    const sent = captured[0];
    return {
        id: r.id,
        authorization: header(sent.headers, 'authorization') || '',
        canonicalRequest: recordedCanonicalRequest(method),
        sent,
    };
}

// ---- Google service-account JWT ----
// Request: {id, email, privateKeyPem, privateKeyId, scope, time}. The JWT client posts the assertion to the
// token endpoint through its transporter; the capturing one answers with a token and keeps the assertion.
async function signGoogle(requests) {
    const {JWT} = require('google-auth-library');
    const results = [];
    for (const r of requests) {
        setClock(r.time * 1000);
        let assertion = '';
        const transporter = {
            request: async (options) => {
                assertion = new URLSearchParams(options.data.toString()).get('assertion') || '';
                return {data: {access_token: 'captured', expires_in: 3600, token_type: 'Bearer'}, status: 200,
                        headers: {}};
            },
        };
        try {
            const client = new JWT({email: r.email, key: r.privateKeyPem, keyId: r.privateKeyId || undefined,
                                    scopes: r.scope});
            client.transporter = transporter;
            await client.authorize();
            results.push({id: r.id, jwt: assertion});
        } catch (error) {
            results.push({id: r.id, error: String(error && error.message)});
        }
    }
    return results;
}

const schemes = {aws: signAws, tencent: signTencent, alibaba: signAlibaba, huawei: signHuawei, google: signGoogle};

async function main() {
    const scheme = process.argv[2];
    if (!schemes[scheme]) {
        throw new Error(`usage: node sign.js ${Object.keys(schemes).join('|')} < requests.json`);
    }
    const chunks = [];
    for await (const chunk of process.stdin) {
        chunks.push(chunk);
    }
    const requests = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    setServerPort(server.address().port);
    try {
        const results = await schemes[scheme](requests);
        process.stdout.write(JSON.stringify(results) + '\n');
    } finally {
        server.close();
    }
}

main().catch((error) => {
    process.stderr.write(`sign.js: ${error && error.stack ? error.stack : error}\n`);
    process.exitCode = 1;
});
