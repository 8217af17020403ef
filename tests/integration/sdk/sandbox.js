'use strict';
// What every script here sets up before it loads an SDK: no proxy and no cloud profile from the environment (a
// proxy would reroute the requests; node-fetch in the Tencent SDK reads http_proxy), and a frozen clock, so that
// Date.now() and new Date() return the time of the request being signed.

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

module.exports = {clearEnvironment, freezeClock, RealDate};
