// The words of core's error.net.*, error.signer.*, error.paths.* errors.
#include "wording/errors/ErrorWording.h"

namespace gpuplan::ui::errorwording {

namespace {

/// The translation context of these errors.
struct NetErrors
{
    Q_DECLARE_TR_FUNCTIONS(NetErrors)
};

/// OpenSSL's reason, or words for none.
QString opensslSaid(const ReasonParams& p)
{
    const QString said = p.text("said");
    return said.isEmpty() ? NetErrors::tr("unknown error") : said;
}

/// error.net.*: the HTTP client's transport, URLs, downloads and the clock.
QString httpText(const core::Reason& reason, const ReasonParams& p)
{
    const std::string& key = reason.key;
    if (key == "error.net.url_no_scheme") {
        return NetErrors::tr("\"%1\" is not a URL: no scheme").arg(p.text("url"));
    }
    if (key == "error.net.url_scheme_not_http") {
        return NetErrors::tr("\"%1\" is not a URL: only http and https").arg(p.text("url"));
    }
    if (key == "error.net.url_no_host") {
        return NetErrors::tr("\"%1\" is not a URL: no host").arg(p.text("url"));
    }
    if (key == "error.net.url_user_info") {
        return NetErrors::tr("\"%1\" is not a URL: user information in the URL is not allowed").arg(p.text("url"));
    }
    if (key == "error.net.url_bad_port") {
        return NetErrors::tr("\"%1\" is not a URL: bad port").arg(p.text("url"));
    }
    if (key == "error.net.timeout") {
        return NetErrors::tr("no answer in time from %1 (%2)").arg(p.text("host"), p.text("said"));
    }
    if (key == "error.net.cancelled") {
        return NetErrors::tr("cancelled");
    }
    if (key == "error.net.tls_untrusted") {
        return NetErrors::tr("the certificate of %1 is not trusted (%2). Verification is always on: if your network "
                             "inspects TLS with its own CA, add that CA's certificate file (Settings -> Network, or "
                             "gpuplan's --ca-file)")
            .arg(p.text("host"), p.text("said"));
    }
    if (key == "error.net.partial_answer") {
        return NetErrors::tr("%1 closed the connection before the whole answer came (%2)")
            .arg(p.text("host"), p.text("said"));
    }
    if (key == "error.net.unreachable") {
        return NetErrors::tr("cannot reach %1: %2").arg(p.text("host"), p.text("said"));
    }
    if (key == "error.net.curl_option") {
        return NetErrors::tr("cannot set %1: %2").arg(p.text("option"), p.text("said"));
    }
    if (key == "error.net.curl_init") {
        return NetErrors::tr("cannot start a transfer (curl_easy_init)");
    }
    if (key == "error.net.download_unwritable") {
        return NetErrors::tr("cannot be written (to save the download)");
    }
    if (key == "error.net.download_write_failed") {
        return NetErrors::tr("the download could not be written (disk full?)");
    }
    if (key == "error.net.answer_too_large") {
        return NetErrors::tr("%1 sent an answer larger than %2 MiB; it was not read further (a cloud API answers in "
                             "kilobytes: a proxy or a wrong endpoint?)")
            .arg(p.text("host"), p.text("mib"));
    }
    if (key == "error.net.clock_slow") {
        return (p.integer("minutes") == 1
                    ? NetErrors::tr("your clock is %1 minute slow; %2 allows %3: set the time automatically (NTP) "
                                    "and try again")
                    : NetErrors::tr("your clock is %1 minutes slow; %2 allows %3: set the time automatically (NTP) "
                                    "and try again"))
            .arg(p.text("minutes"), p.text("provider"), p.text("allowed_minutes"));
    }
    if (key == "error.net.clock_fast") {
        return (p.integer("minutes") == 1
                    ? NetErrors::tr("your clock is %1 minute fast; %2 allows %3: set the time automatically (NTP) "
                                    "and try again")
                    : NetErrors::tr("your clock is %1 minutes fast; %2 allows %3: set the time automatically (NTP) "
                                    "and try again"))
            .arg(p.text("minutes"), p.text("provider"), p.text("allowed_minutes"));
    }
    return {};
}

/// error.signer.*: request signing, service account keys and OAuth2 tokens.
QString signerText(const core::Reason& reason, const ReasonParams& p)
{
    const std::string& key = reason.key;
    if (key == "error.signer.no_random_bytes") {
        return NetErrors::tr("no random bytes for %1").arg(p.text("field"));
    }
    if (key == "error.signer.hmac_failed") {
        return NetErrors::tr("%1 failed").arg(p.text("algorithm"));
    }
    if (key == "error.signer.no_method") {
        return NetErrors::tr("no HTTP method to sign");
    }
    if (key == "error.signer.tc3_no_content_type") {
        return NetErrors::tr("TC3-HMAC-SHA256 signs Content-Type, and the request has none: set it to the body's type");
    }
    if (key == "error.signer.azure_no_tenant_id") {
        return NetErrors::tr("the Azure app registration has no tenant ID; enter it in the provider's settings");
    }
    if (key == "error.signer.azure_no_client_id") {
        return NetErrors::tr("the Azure app registration has no client ID; enter it in the provider's settings");
    }
    if (key == "error.signer.azure_no_client_secret") {
        return NetErrors::tr("the Azure app registration has no client secret; enter it in the provider's settings");
    }
    if (key == "error.signer.google_key_not_json") {
        return NetErrors::tr("the service account key is not a JSON object: download the key again (Google Cloud "
                             "console, IAM, Service accounts, Keys, Add key, JSON)");
    }
    if (key == "error.signer.google_key_not_service_account") {
        return NetErrors::tr("must be \"service_account\": this is another kind of Google credential (a user login "
                             "or a workload identity file); create a service account key instead");
    }
    if (key == "error.signer.google_key_missing_field") {
        return NetErrors::tr("the service account key has no \"%1\"; download the key again").arg(p.text("field"));
    }
    if (key == "error.signer.google_key_field_empty") {
        return NetErrors::tr(
                   "the service account key has a \"%1\" that is not a non-empty string; download the key again")
            .arg(p.text("field"));
    }
    if (key == "error.signer.google_key_field_not_string") {
        return NetErrors::tr("the service account key has a \"%1\" that is not a string").arg(p.text("field"));
    }
    if (key == "error.signer.private_key_too_large") {
        return NetErrors::tr("the private key is too large to be a PEM key");
    }
    if (key == "error.signer.private_key_unreadable") {
        return NetErrors::tr("could not read the private key (OpenSSL: %1)").arg(opensslSaid(p));
    }
    if (key == "error.signer.private_key_not_pem") {
        return NetErrors::tr("the private key is not an unencrypted PEM private key; download the key again "
                             "(OpenSSL: %1)")
            .arg(opensslSaid(p));
    }
    if (key == "error.signer.private_key_not_rsa") {
        return NetErrors::tr("the private key is not an RSA key; RS256 needs one");
    }
    if (key == "error.signer.rs256_start_failed") {
        return NetErrors::tr("could not start an RS256 signature (OpenSSL: %1)").arg(opensslSaid(p));
    }
    if (key == "error.signer.rs256_size_failed") {
        return NetErrors::tr("could not size the RS256 signature (OpenSSL: %1)").arg(opensslSaid(p));
    }
    if (key == "error.signer.rs256_sign_failed") {
        return NetErrors::tr("could not compute the RS256 signature (OpenSSL: %1)").arg(opensslSaid(p));
    }
    if (key == "error.signer.token_status_without_oauth_error") {
        return NetErrors::tr("%1 token endpoint answered HTTP %2 without an OAuth2 error; try again later")
            .arg(p.text("provider"), p.text("status"));
    }
    if (key == "error.signer.token_throttled") {
        return NetErrors::tr("%1 token endpoint is throttling requests (%2); try again later")
            .arg(p.text("provider"), p.text("said"));
    }
    if (key == "error.signer.token_endpoint_failed") {
        return NetErrors::tr("%1 token endpoint failed (%2); try again later").arg(p.text("provider"), p.text("said"));
    }
    if (key == "error.signer.token_refused") {
        return NetErrors::tr("%1 refused the credentials (%2); check that they are current and that this computer's "
                             "clock is right")
            .arg(p.text("provider"), p.text("said"));
    }
    if (key == "error.signer.token_reply_not_json") {
        return NetErrors::tr("%1 token endpoint answered HTTP %2 with a body that is not a JSON object")
            .arg(p.text("provider"), p.text("status"));
    }
    if (key == "error.signer.token_reply_no_access_token") {
        return NetErrors::tr("%1 token reply has no \"access_token\" string").arg(p.text("provider"));
    }
    if (key == "error.signer.token_type_not_bearer") {
        return NetErrors::tr("%1 token reply's \"token_type\" is not Bearer, the only type this client sends")
            .arg(p.text("provider"));
    }
    return {};
}

/// error.paths.*: the user's data folder and files written atomically.
QString pathsText(const core::Reason& reason, const ReasonParams& p)
{
    const std::string& key = reason.key;
    if (key == "error.paths.cannot_create_folder") {
        return NetErrors::tr("cannot create the folder: %1").arg(p.text("said"));
    }
    if (key == "error.paths.cannot_read_folder") {
        return NetErrors::tr("cannot read the folder: %1").arg(p.text("said"));
    }
    if (key == "error.paths.not_a_folder") {
        return NetErrors::tr("is not a folder");
    }
    if (key == "error.paths.cannot_restrict_folder") {
        return NetErrors::tr("cannot restrict the folder to its owner: %1").arg(p.text("said"));
    }
    if (key == "error.paths.cannot_create_temporary") {
        return NetErrors::tr("cannot create a file beside it: %1").arg(p.text("said"));
    }
    if (key == "error.paths.cannot_set_permissions") {
        return NetErrors::tr("cannot set the file's permissions: %1").arg(p.text("said"));
    }
    if (key == "error.paths.cannot_write") {
        return NetErrors::tr("cannot write: %1").arg(p.text("said"));
    }
    if (key == "error.paths.cannot_flush") {
        return NetErrors::tr("cannot flush to disk: %1").arg(p.text("said"));
    }
    if (key == "error.paths.cannot_replace") {
        return NetErrors::tr("cannot replace it: %1").arg(p.text("said"));
    }
    return {};
}

} // namespace

QString netErrorText(const core::Reason& reason)
{
    const ReasonParams p(reason.params);
    if (reason.key.starts_with("error.net.")) {
        QString text = httpText(reason, p);
        // HttpClient::send adds how the retries went to the transport's reason.
        if (!text.isNull() && p.has("attempts")) {
            text = NetErrors::tr("%1 (after %2 attempts)").arg(text, p.text("attempts"));
        } else if (!text.isNull() && p.has("not_retried")) {
            text = NetErrors::tr("%1 (not retried: the request is not safe to repeat, it carries no idempotency token)")
                       .arg(text);
        }
        return text;
    }
    if (reason.key.starts_with("error.signer.")) {
        return signerText(reason, p);
    }
    if (reason.key.starts_with("error.paths.")) {
        return pathsText(reason, p);
    }
    return {};
}

} // namespace gpuplan::ui::errorwording
