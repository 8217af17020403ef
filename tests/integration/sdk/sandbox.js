'use strict';
// What every script here sets up before it loads an SDK: no proxy and no cloud profile from the environment (a
// proxy would reroute the requests; node-fetch in the Tencent SDK reads http_proxy), a frozen clock, so that
// Date.now() and new Date() return the time of the request being signed, and every plain-http connection sent to
// the script's loopback capture server whatever host the SDK names (the host stays in the signed request).

const http = require('http');
const https = require('https');
const net = require('net');

const PROXY_VARIABLES = ['http_proxy', 'https_proxy', 'HTTP_PROXY', 'HTTPS_PROXY', 'all_proxy', 'ALL_PROXY',
                         'no_proxy', 'NO_PROXY'];

/// Removes the proxy variables and `more` (the SDK's own credential and region variables) from the environment.
function clearEnvironment(more = []) {
    for (const name of [...PROXY_VARIABLES, ...more]) {
        delete process.env[name];
    }
}

const RealDate = Date;
let frozenMs = 0;
class FrozenDate extends RealDate {
    constructor(...args) {
        if (args.length === 0) {
            super(frozenMs);
        } else {
            super(...args);
        }
    }
    static now() {
        return frozenMs;
    }
}

/// Replaces the global Date; returns a function that sets the frozen time (Unix milliseconds).
function freezeClock() {
    global.Date = FrozenDate;
    return (ms) => {
        frozenMs = ms;
    };
}

/// Connects every http.Agent socket to 127.0.0.1 at the port given to the returned function (the capture server's,
/// once it listens); an HTTPS connection throws, naming `script`: nothing may leave the machine.
function routeHttpToLoopback(script) {
    let port = 0;
    http.Agent.prototype.createConnection = function createConnection(options, callback) {
        const socket = net.connect(port, '127.0.0.1');
        if (callback) {
            socket.once('connect', () => callback(null, socket));
            socket.once('error', (error) => callback(error));
            return undefined;
        }
        return socket;
    };
    https.Agent.prototype.createConnection = function createConnection() {
        throw new Error(`${script}: an SDK tried an HTTPS connection; only plain http to the capture server is allowed`);
    };
    return (serverPort) => {
        port = serverPort;
    };
}

module.exports = {clearEnvironment, freezeClock, routeHttpToLoopback, RealDate};
