// The words of core's error.secrets.* errors, and of the credential store's (ui/secrets).
#include "wording/errors/ErrorWording.h"

#include "wording/ErrorText.h"
#include "wording/ProviderText.h"

namespace gpuplan::ui::errorwording {

namespace {

/// The translation context of these errors.
struct SecretErrors
{
    Q_DECLARE_TR_FUNCTIONS(SecretErrors)
};

/// The error a reason carries as its "cause.*" parameters ("cause.key", "cause.where", "cause.<param>"), worded
/// as where and what.
QString causeText(const core::Reason& reason)
{
    core::Reason cause;
    std::string where;
    for (const auto& [name, value] : reason.params) {
        if (name == "cause.key") {
            cause.key = value;
        } else if (name == "cause.where") {
            where = value;
        } else if (name.starts_with("cause.")) {
            cause.params[name.substr(6)] = value;
        }
    }
    const QString what = errorReasonText(cause);
    return where.empty() ? what : SecretErrors::tr("%1: %2").arg(QString::fromStdString(where), what);
}

} // namespace

QString secretErrorText(const core::Reason& reason)
{
    const ReasonParams p(reason.params);
    const std::string& k = reason.key;
    // A credential's fields (core/secrets/Credential.cpp).
    if (k == "error.secrets.unknown_field") {
        return SecretErrors::tr("unknown field \"%1\" for %2 (its fields: %3)")
            .arg(p.text("field"), p.text("provider"), p.text("fields"));
    }
    if (k == "error.secrets.must_be_string") {
        return SecretErrors::tr("must be a string");
    }
    if (k == "error.secrets.core_dumps_on") {
        return SecretErrors::tr("cannot turn core dumps off: %1").arg(p.text("said"));
    }
    if (k == "error.secrets.still_dumpable") {
        return SecretErrors::tr("cannot mark the process as not dumpable: %1").arg(p.text("said"));
    }
    if (k == "error.secrets.unknown_provider") {
        return SecretErrors::tr("unknown provider \"%1\"; known: %2").arg(p.text("provider"), p.text("known"));
    }
    if (k == "error.secrets.not_a_field") {
        return SecretErrors::tr("is not a field of %1 credentials").arg(p.text("provider"));
    }
    if (k == "error.secrets.missing_field") {
        return SecretErrors::tr("missing: %1 credentials need %2")
            .arg(p.text("provider"),
                 credentialFieldLabel(p.text("provider").toStdString(), p.text("field").toStdString()));
    }
    if (k == "error.secrets.missing_provider") {
        return SecretErrors::tr("missing the provider");
    }
    if (k == "error.secrets.missing_fields") {
        return SecretErrors::tr("missing the fields object");
    }
    if (k == "error.secrets.not_json") {
        return SecretErrors::tr("not a JSON document");
    }
    if (k == "error.secrets.fields_not_object") {
        return SecretErrors::tr("must be a JSON object of field names to strings");
    }
    if (k == "error.secrets.not_json_key_file") {
        return SecretErrors::tr("not a JSON key file");
    }
    if (k == "error.secrets.not_service_account") {
        return SecretErrors::tr("not a service-account key (its \"type\" must be \"service_account\"; create one under "
                                "IAM > Service accounts > Keys)");
    }
    if (k == "error.secrets.missing") {
        return SecretErrors::tr("missing");
    }
    // Signing with a credential (core/secrets/SignerCredentials.cpp).
    if (k == "error.secrets.cannot_sign") {
        return SecretErrors::tr("a %1 credential cannot sign for this provider").arg(p.text("provider"));
    }
    if (k == "error.secrets.credential_lacks_field") {
        return SecretErrors::tr("the %1 credential has no %2: set it again with gpuplan creds set %1")
            .arg(p.text("provider"), p.text("field"));
    }
    // The encrypted credentials file (core/secrets/EncryptedCredentialFile.cpp).
    if (k == "error.secrets.scrypt_failed") {
        return SecretErrors::tr("scrypt key derivation failed (out of memory?)");
    }
    if (k == "error.secrets.not_a_credentials_list") {
        return SecretErrors::tr("decrypted, but the content is not a credentials list");
    }
    if (k == "error.secrets.no_file_yet") {
        return SecretErrors::tr("no encrypted credentials file here yet");
    }
    if (k == "error.secrets.cannot_open") {
        return SecretErrors::tr("cannot open it: %1").arg(p.text("said"));
    }
    if (k == "error.secrets.cannot_read") {
        return SecretErrors::tr("cannot read it: %1").arg(p.text("said"));
    }
    if (k == "error.secrets.not_a_credentials_file") {
        return SecretErrors::tr("not a GPU Planner credentials file");
    }
    if (k == "error.secrets.truncated") {
        return SecretErrors::tr("truncated: %1 bytes, fewer than the %2 of an empty store")
            .arg(p.text("bytes"), p.text("smallest"));
    }
    if (k == "error.secrets.other_format") {
        return SecretErrors::tr("format %1 was written by another version of GPU Planner; this one reads format 1")
            .arg(p.text("format"));
    }
    if (k == "error.secrets.unknown_cipher") {
        return SecretErrors::tr("unknown key derivation or cipher in the header");
    }
    if (k == "error.secrets.cost_out_of_bounds") {
        return SecretErrors::tr("the header's scrypt cost is out of bounds: the file was changed");
    }
    if (k == "error.secrets.no_passphrase") {
        return SecretErrors::tr("no passphrase given");
    }
    if (k == "error.secrets.wrong_passphrase") {
        return SecretErrors::tr("wrong passphrase for the encrypted credentials file (or its header was changed)");
    }
    if (k == "error.secrets.not_authentic") {
        return SecretErrors::tr("the file was changed, damaged or truncated after it was written (it does not "
                                "authenticate); restore it from a backup, or delete it and set the credentials again");
    }
    if (k == "error.secrets.empty_passphrase") {
        return SecretErrors::tr("the passphrase must not be empty");
    }
    if (k == "error.secrets.no_random_bytes") {
        return SecretErrors::tr("no random bytes from the system");
    }
    if (k == "error.secrets.encryption_failed") {
        return SecretErrors::tr("AES-256-GCM encryption failed");
    }
    // The credential store: the keychain or the encrypted file (ui/secrets/CredentialStore.cpp).
    if (k == "error.secrets.no_file_place") {
        return SecretErrors::tr("no place for the encrypted credentials file (neither XDG_DATA_HOME nor HOME is set)");
    }
    if (k == "error.secrets.passphrase_not_given") {
        return SecretErrors::tr("no passphrase given for the encrypted credentials file");
    }
    if (k == "error.secrets.none_stored") {
        return SecretErrors::tr("no credential is stored");
    }
    if (k == "error.secrets.none_stored_in") {
        return SecretErrors::tr("no credential is stored in %1").arg(p.text("path"));
    }
    if (k == "error.secrets.none_in_keychain") {
        return SecretErrors::tr("no credential is stored in the keychain");
    }
    if (k == "error.secrets.unknown_provider_id") {
        return SecretErrors::tr("unknown provider");
    }
    if (k == "error.secrets.keychain_stored_file_kept") {
        return SecretErrors::tr(
            "stored in the keychain, but the older copy in the encrypted file could not be removed");
    }
    if (k == "error.secrets.keychain_unavailable") {
        return SecretErrors::tr("the keychain is not available: %1").arg(p.text("said"));
    }
    if (k == "error.secrets.keychain_refused_store") {
        return SecretErrors::tr("the keychain refused to store it: %1").arg(p.text("said"));
    }
    if (k == "error.secrets.keychain_refused_give") {
        return SecretErrors::tr("the keychain refused to give it: %1").arg(p.text("said"));
    }
    if (k == "error.secrets.keychain_refused_lookup") {
        return SecretErrors::tr("the keychain refused to look it up: %1").arg(p.text("said"));
    }
    if (k == "error.secrets.keychain_refused_remove") {
        return SecretErrors::tr("the keychain refused to remove it: %1").arg(p.text("said"));
    }
    if (k == "error.secrets.keychain_entry_invalid") {
        return SecretErrors::tr("the keychain's entry is not a GPU Planner credential (%1)").arg(causeText(reason));
    }
    if (k == "error.secrets.keychain_entry_other") {
        return SecretErrors::tr("the keychain's entry belongs to %1").arg(p.text("provider"));
    }
    return {};
}

} // namespace gpuplan::ui::errorwording
