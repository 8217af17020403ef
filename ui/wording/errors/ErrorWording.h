#pragma once

#include "gpuplan/core/Reason.h"
#include "wording/ReasonParams.h"

#include <QCoreApplication>
#include <QString>

// The words of core's errors (core::Error::reason and ::context), one file per core module, each wording the
// "error.<module>.*" keys its module emits, and the notes that module reports beside its results (a reconcile's,
// a price refresh's). Each function returns a null QString for a key it does not know;
// ui/wording/ErrorText.cpp asks them in turn. Private to ui/wording.
namespace gpuplan::ui::errorwording {

QString netErrorText(const core::Reason& reason);   // error.net.*, error.signer.*, error.paths.*
QString sshErrorText(const core::Reason& reason);   // error.ssh.*, error.deploy.*
QString probeErrorText(const core::Reason& reason); // error.probe.*
// error.ledger.*, error.launch.*, error.reconcile.*, and the notes ledger.* (an entry's) and reconcile.*
QString ledgerErrorText(const core::Reason& reason);
QString providerErrorText(const core::Reason& reason); // error.ec2.*, error.cvm.*, error.provider.*
QString cloudErrorText(const core::Reason& reason);    // error.cloud.*
QString priceErrorText(const core::Reason& reason);    // error.prices.*, refresh.* (a price refresh's notes and steps)
QString secretErrorText(const core::Reason& reason);   // error.secrets.*
QString dataErrorText(const core::Reason& reason);     // error.json.*, error.catalog.*, error.workload.*, error.plan.*
QString runErrorText(const core::Reason& reason);      // error.run.*

/// A JSON value's kind as core names it (jsonKindName(): "string", "boolean") the way errors say what was found
/// ("a string", "a boolean"); shared by the catalog's, plan's and probe's schema errors.
QString jsonKindText(const QString& kind);

} // namespace gpuplan::ui::errorwording
